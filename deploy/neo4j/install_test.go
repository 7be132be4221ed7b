package neo4j

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
)

// TestReadLock: the lock is the pom's (a pom.xml changed without
// scripts/neo4j-lock.py fails here), every jar has one place, and the
// Neo4j server and the GDS procedures are among them.
func TestReadLock(t *testing.T) {
	l, err := ReadLock()
	if err != nil {
		t.Fatal(err)
	}
	pom, err := PomSHA256()
	if err != nil {
		t.Fatal(err)
	}
	if l.PomSHA256 != pom {
		t.Fatalf("jars.lock is for pom sha256 %s, pom.xml is %s: run scripts/neo4j-lock.py", l.PomSHA256, pom)
	}
	seen := map[string]bool{}
	for _, j := range l.Jars {
		if seen[j.Dest] {
			t.Errorf("%s twice", j.Dest)
		}
		seen[j.Dest] = true
	}
	for _, want := range []string{"lib/neo4j-5.26.24.jar", "lib/neo4j-server-5.26.24.jar", "plugins/proc-2.13.9.jar"} {
		if !seen[want] {
			t.Errorf("the lock has no %s", want)
		}
	}
	for _, bad := range []string{"x", "# pom.xml sha256 a\n" + strings.Repeat("0", 64) + " 1 ../x.jar a/b.jar"} {
		if _, err := parseLock([]byte(bad)); kgeval.ErrorCode(err) != kgeval.EINTERNAL {
			t.Errorf("parseLock(%q) = %v", bad, err)
		}
	}
}

// testRepo writes a Maven repository of jars with the given contents and
// returns its file:// URL and their lock (the pom's sha256, so Install
// takes it).
func testRepo(t *testing.T, contents map[string]string) (string, *Lock) {
	t.Helper()
	dir := t.TempDir()
	pom, _ := PomSHA256()
	l := &Lock{PomSHA256: pom}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range contents {
			if !yield(k) {
				return
			}
		}
	}) {
		path := "org/example/" + name + "/1.0/" + name + "-1.0.jar"
		p := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(contents[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256([]byte(contents[name]))
		dest := "lib/" + name + "-1.0.jar"
		if strings.HasPrefix(name, "gds") {
			dest = "plugins/" + name + "-1.0.jar"
		}
		l.Jars = append(l.Jars, Jar{SHA256: hex.EncodeToString(s[:]), Size: int64(len(contents[name])), Dest: dest, Path: path})
	}
	return "file://" + dir, l
}

// TestInstall: the jars of a lock land in lib/ and plugins/ with the stamp
// neo4j.sh reads; a jar whose bytes are not the lock's is refused (the
// home keeps what it had), and one no repository has is named.
func TestInstall(t *testing.T) {
	repo, lock := testRepo(t, map[string]string{"neo4j-core": "core bytes", "netty": "netty bytes", "gds-proc": "gds bytes"})
	home := t.TempDir()
	if Installed(home) {
		t.Fatal("an empty home reads as installed")
	}
	ctx := context.Background()
	if err := Install(ctx, home, lock, InstallOptions{Repos: []string{"file:///nowhere", repo}}); err != nil {
		t.Fatal(err)
	}
	if !Installed(home) {
		t.Error("not Installed after Install")
	}
	for _, j := range lock.Jars {
		if ok, err := fileMatches(filepath.Join(home, j.Dest), j); !ok {
			t.Errorf("%s: %v", j.Dest, err)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".install-tmp")); !os.IsNotExist(err) {
		t.Errorf("staging left behind: %v", err)
	}

	// A repository whose jar was altered: refused, nothing replaced.
	bad, badLock := testRepo(t, map[string]string{"neo4j-core": "core bytes", "netty": "netty bytes", "gds-proc": "gds bytes"})
	p := filepath.Join(strings.TrimPrefix(bad, "file://"), filepath.FromSlash(badLock.Jars[1].Path))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1 // same size, other bytes
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	err = Install(ctx, other, badLock, InstallOptions{Repos: []string{bad}})
	if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || !strings.Contains(err.Error(), badLock.Jars[1].Dest) || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("altered jar: %v", err)
	}
	if Installed(other) {
		t.Error("a failed install reads as installed")
	}
	// Missing everywhere.
	missing := *lock
	missing.Jars = append(slices.Clone(lock.Jars), Jar{SHA256: strings.Repeat("0", 64), Size: 1, Dest: "lib/gone-1.jar", Path: "org/gone/1/gone-1.jar"})
	if err := Install(ctx, t.TempDir(), &missing, InstallOptions{Repos: []string{repo}}); kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || !strings.Contains(err.Error(), "lib/gone-1.jar") {
		t.Errorf("missing jar: %v", err)
	}
	// A lock of another pom.
	stale := *lock
	stale.PomSHA256 = strings.Repeat("1", 64)
	if err := Install(ctx, t.TempDir(), &stale, InstallOptions{Repos: []string{repo}}); kgeval.ErrorCode(err) != kgeval.EINTERNAL || !strings.Contains(err.Error(), "scripts/neo4j-lock.py") {
		t.Errorf("stale lock: %v", err)
	}
}

// TestInstall_MavenCentral fetches the three smallest jars of the real lock
// from Maven Central over HTTPS and checks them against their sha256.
func TestInstall_MavenCentral(t *testing.T) {
	l, err := ReadLock()
	if err != nil {
		t.Fatal(err)
	}
	jars := slices.Clone(l.Jars)
	slices.SortFunc(jars, func(a, b Jar) int { return int(a.Size - b.Size) })
	small := &Lock{PomSHA256: l.PomSHA256, Jars: jars[:3]}
	home := t.TempDir()
	if err := Install(context.Background(), home, small, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, j := range small.Jars {
		if ok, err := fileMatches(filepath.Join(home, j.Dest), j); !ok {
			t.Errorf("%s from Maven Central: %v", j.Dest, err)
		}
	}
}

package neo4j

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
)

// Central is Maven Central, where the jars of Lock come from.
const Central = "https://repo1.maven.org/maven2"

// Jar is one line of jars.lock: a jar of the Neo4j home with its sha256 and
// size, where it goes (lib/x.jar, plugins/y.jar) and its path in a Maven
// repository.
type Jar struct {
	SHA256 string
	Size   int64
	Dest   string
	Path   string
}

// Lock is the parsed jars.lock: the jars and the sha256 of the pom.xml they
// were resolved from.
type Lock struct {
	PomSHA256 string
	Jars      []Jar
}

// ReadLock parses the embedded jars.lock. Errors: EINTERNAL for a line that
// does not parse (the lock is written by scripts/neo4j-lock.py).
func ReadLock() (*Lock, error) {
	b, err := Files.ReadFile("jars.lock")
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "embedded jars.lock")
	}
	return parseLock(b)
}

func parseLock(b []byte) (*Lock, error) {
	l := &Lock{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "# pom.xml sha256 "); ok {
			l.PomSHA256 = strings.TrimSpace(rest)
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		size, err := strconv.ParseInt(safeField(f, 1), 10, 64)
		if len(f) != 4 || err != nil || len(f[0]) != 64 || !strings.HasSuffix(f[2], ".jar") ||
			!(strings.HasPrefix(f[2], "lib/") || strings.HasPrefix(f[2], "plugins/")) || strings.Contains(f[2], "..") || strings.Contains(f[3], "..") {
			return nil, kgeval.Errorf(kgeval.EINTERNAL, "jars.lock line %d: want SHA256 SIZE lib|plugins/NAME.jar MAVEN/PATH.jar, got %q", n, line)
		}
		l.Jars = append(l.Jars, Jar{SHA256: f[0], Size: size, Dest: f[2], Path: f[3]})
	}
	if l.PomSHA256 == "" || len(l.Jars) == 0 {
		return nil, kgeval.Errorf(kgeval.EINTERNAL, "jars.lock: no pom.xml sha256 or no jar")
	}
	return l, nil
}

func safeField(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// PomSHA256 is the sha256 of the embedded pom.xml: the install stamp that
// neo4j.sh compares (is_installed), so that a home filled from the lock is
// one the script never asks Maven to fill again.
func PomSHA256() (string, error) {
	b, err := Files.ReadFile("pom.xml")
	if err != nil {
		return "", kgeval.Wrap(kgeval.EINTERNAL, err, "embedded pom.xml")
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// InstallOptions configure Install.
type InstallOptions struct {
	// Repos are the Maven repositories to fetch from, tried in order:
	// https:// or file:// URLs of a repository's root (a local Maven
	// repository, ~/.m2/repository, has the same layout). Default Central.
	Repos []string
	// Concurrency is the number of downloads at once (default 8).
	Concurrency int
	// Log receives a line when the fetch starts and when it ends.
	Log io.Writer
	// Client makes the HTTP requests (default one with a 10 minute timeout).
	Client *http.Client
}

// Installed reports whether home holds the jars of the lock: its stamp is
// the pom's sha256 and lib/ and plugins/ hold jars (what neo4j.sh checks).
func Installed(home string) bool {
	pom, err := PomSHA256()
	if err != nil {
		return false
	}
	stamp, err := os.ReadFile(filepath.Join(home, ".install-stamp"))
	if err != nil || strings.TrimSpace(string(stamp)) != pom {
		return false
	}
	for _, d := range []string{"lib", "plugins"} {
		if m, _ := filepath.Glob(filepath.Join(home, d, "*.jar")); len(m) == 0 {
			return false
		}
	}
	return true
}

// Install fills home/lib and home/plugins with the jars of lock, fetched
// from o.Repos and checked against their sha256, then writes the stamp
// neo4j.sh reads: no Maven. A jar already in place with the right sha256 is
// kept. The jars are gathered in home/.install-tmp and moved in at the end,
// so an interrupted install leaves the old jars (or none) and is started
// over. Errors: EUNAVAILABLE when a jar cannot be fetched from any
// repository or does not match its sha256 (naming it and where it came
// from).
func Install(ctx context.Context, home string, lock *Lock, o InstallOptions) error {
	if len(o.Repos) == 0 {
		o.Repos = []string{Central}
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 10 * time.Minute}
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	pom, err := PomSHA256()
	if err != nil {
		return err
	}
	if lock.PomSHA256 != pom {
		return kgeval.Errorf(kgeval.EINTERNAL, "jars.lock was written for another pom.xml (sha256 %.12s, the pom's %.12s): run scripts/neo4j-lock.py", lock.PomSHA256, pom)
	}
	staging := filepath.Join(home, ".install-tmp")
	if err := os.RemoveAll(staging); err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j install: clear %s", staging)
	}
	var total int64
	for _, j := range lock.Jars {
		total += j.Size
	}
	start := time.Now()
	fmt.Fprintf(o.Log, "neo4j: fetching %d jars (%.0f MB) from %s into %s (no Maven) ...\n", len(lock.Jars), float64(total)/1e6, strings.Join(o.Repos, ", "), home)
	work := make(chan Jar)
	errs := make(chan error, len(lock.Jars))
	var wg sync.WaitGroup
	for i := 0; i < o.Concurrency; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if err := placeJar(ctx, home, staging, j, o); err != nil {
					errs <- err
				}
			}
		}()
	}
send:
	for _, j := range lock.Jars {
		select {
		case work <- j:
		case <-ctx.Done():
			break send
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	if err := errors.Join(collect(errs)...); err != nil {
		os.RemoveAll(staging)
		return err
	}
	if err := ctx.Err(); err != nil {
		os.RemoveAll(staging)
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j install interrupted")
	}
	for _, d := range []string{"lib", "plugins"} {
		if err := os.RemoveAll(filepath.Join(home, d)); err != nil {
			return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j install: remove the old %s", d)
		}
		if err := os.MkdirAll(filepath.Join(staging, d), 0o755); err != nil {
			return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j install")
		}
		if err := os.Rename(filepath.Join(staging, d), filepath.Join(home, d)); err != nil {
			return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j install: move %s in", d)
		}
	}
	os.RemoveAll(staging)
	if err := os.WriteFile(filepath.Join(home, ".install-stamp"), []byte(pom+"\n"), 0o644); err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j install: write the stamp")
	}
	fmt.Fprintf(o.Log, "neo4j: %d jars in place, each checked against jars.lock (%.0fs)\n", len(lock.Jars), time.Since(start).Seconds())
	return nil
}

func collect(errs <-chan error) []error {
	var out []error
	for e := range errs {
		if len(out) < 5 {
			out = append(out, e)
		}
	}
	return out
}

// placeJar puts j into staging: the copy already in home when its sha256
// matches, else the first repository's that does.
func placeJar(ctx context.Context, home, staging string, j Jar, o InstallOptions) error {
	dst := filepath.Join(staging, filepath.FromSlash(j.Dest))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j install")
	}
	if ok, _ := fileMatches(filepath.Join(home, filepath.FromSlash(j.Dest)), j); ok {
		return copyFile(filepath.Join(home, filepath.FromSlash(j.Dest)), dst)
	}
	var tried []string
	for _, repo := range o.Repos {
		src := strings.TrimRight(repo, "/") + "/" + j.Path
		err := fetch(ctx, o.Client, src, dst, j)
		if err == nil {
			return nil
		}
		tried = append(tried, err.Error())
	}
	return kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j install: %s: %s (set KGEVAL_MAVEN_URL to a reachable Maven repository, or point KGEVAL_NEO4J_URI at a Neo4j 5.26 with GDS)", j.Dest, strings.Join(tried, "; "))
}

// fetch copies src (an http(s):// or file:// URL) to dst and checks its size
// and sha256 against j; a file that does not match is removed.
func fetch(ctx context.Context, c *http.Client, src, dst string, j Jar) error {
	u, err := url.Parse(src)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	var body io.ReadCloser
	switch u.Scheme {
	case "file":
		f, err := os.Open(u.Path)
		if err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		body = f
	case "http", "https":
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		resp, err := c.Do(req)
		if err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return fmt.Errorf("%s: %s", src, resp.Status)
		}
		body = resp.Body
	default:
		return fmt.Errorf("%s: want an http(s):// or file:// repository", src)
	}
	defer body.Close()
	tmp := dst + ".part"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("%s: %w", dst, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(body, j.Size+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != j.Size {
		err = fmt.Errorf("%d bytes, jars.lock says %d", n, j.Size)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); err == nil && sum != j.SHA256 {
		err = fmt.Errorf("sha256 %s, jars.lock says %s", sum, j.SHA256)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", src, err)
	}
	return os.Rename(tmp, dst)
}

// fileMatches reports whether path holds j (size and sha256).
func fileMatches(path string, j Jar) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() != j.Size {
		return false, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == j.SHA256, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

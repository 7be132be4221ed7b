package neo4j

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/kgeval/kgeval"
)

// RunOptions are what Run takes from its caller's environment: its
// JAVA_HOME, the Maven repositories of the jars (none: Maven Central) and
// where the launcher's output goes.
type RunOptions struct {
	JavaHome       string
	Repos          []string
	Stdout, Stderr io.Writer
}

// Run runs the launcher's action (install, start, stop, restart, status,
// password) with the state directory state: for install, start and
// restart it finds a Java (JavaHome) and the jars first (EnsureJars).
// Errors: EUNAVAILABLE (status: Neo4j is not running).
func Run(ctx context.Context, action, state string, o RunOptions) error {
	env := append(os.Environ(), "KGEVAL_STATE_DIR="+state)
	if action == "install" || action == "start" || action == "restart" {
		home, err := JavaHome(o.JavaHome)
		if err != nil {
			return err
		}
		env = append(env, "JAVA_HOME="+home)
		if err := EnsureJars(ctx, filepath.Join(state, "neo4j"), o.Repos, o.Stderr); err != nil {
			return err
		}
	}
	script, err := WriteLauncher(filepath.Join(state, "launcher"))
	if err != nil {
		return err
	}
	run := exec.CommandContext(ctx, "bash", script, action)
	run.Env, run.Stdout, run.Stderr = env, o.Stdout, o.Stderr
	if err := run.Run(); err != nil {
		if action == "status" {
			return kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j is not running (state in %s)", state)
		}
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j %s (state in %s; the launcher's output is above)", action, state)
	}
	return nil
}

// WriteLauncher writes the embedded launcher files into dir (when they
// differ) and returns the script's path.
func WriteLauncher(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j launcher directory %s", dir)
	}
	for _, name := range Names {
		b, err := Files.ReadFile(name)
		if err != nil {
			return "", kgeval.Wrap(kgeval.EINTERNAL, err, "embedded %s", name)
		}
		p := filepath.Join(dir, name)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, b) {
			continue
		}
		if err := os.WriteFile(p, b, 0o755); err != nil {
			return "", kgeval.Wrap(kgeval.EUNAVAILABLE, err, "write %s", p)
		}
	}
	return filepath.Join(dir, Names[0]), nil
}

// javaVersion reads the major Java version of `java -XshowSettings:properties -version`.
var javaVersion = regexp.MustCompile(`java\.specification\.version = (\d+)`)

// JavaHome finds a Java 17 or 21 for Neo4j 5.26: javaHome (the caller's
// JAVA_HOME), Debian's OpenJDK 17, or the java on PATH. Errors:
// EUNAVAILABLE saying what to install.
func JavaHome(javaHome string) (string, error) {
	const advice = "Neo4j 5.26 needs Java 17 or 21: install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) and set JAVA_HOME, or use a Neo4j 5.26 with GDS of your own through KGEVAL_NEO4J_URI and KGEVAL_NEO4J_PASSWORD"
	// A JAVA_HOME that is set is the user's choice: it alone is tried.
	candidates := []string{javaHome}
	if candidates[0] == "" {
		candidates = []string{"/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/java-21-openjdk-amd64"}
		if p, err := exec.LookPath("java"); err == nil {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				candidates = append(candidates, filepath.Dir(filepath.Dir(real)))
			}
		}
	}
	var found []string
	for _, h := range candidates {
		java := filepath.Join(h, "bin", "java")
		if _, err := os.Stat(java); err != nil {
			continue
		}
		out, _ := exec.Command(java, "-XshowSettings:properties", "-version").CombinedOutput()
		v := 0
		if mm := javaVersion.FindSubmatch(out); mm != nil {
			v, _ = strconv.Atoi(string(mm[1]))
		}
		if v >= 17 {
			return h, nil
		}
		found = append(found, fmt.Sprintf("Java %d at %s", v, java))
	}
	if len(found) > 0 {
		return "", kgeval.Errorf(kgeval.EUNAVAILABLE, "%s (found only %v)", advice, found)
	}
	return "", kgeval.Errorf(kgeval.EUNAVAILABLE, "no java found (looked in %v): %s", candidates, advice)
}

// EnsureJars fills the Neo4j home with the jars of the lock (Install: from
// Maven Central, or repos, https:// or file:// roots; no Maven) unless they
// are there, logging to log. Errors: EUNAVAILABLE when a jar cannot be
// fetched, or when Neo4j runs from jars that are outdated.
func EnsureJars(ctx context.Context, home string, repos []string, log io.Writer) error {
	if Installed(home) {
		return nil
	}
	if pid := runningPid(home); pid > 0 {
		return kgeval.Errorf(kgeval.EUNAVAILABLE, "the jars in %s are outdated but Neo4j runs from them (pid %d): run `kgeval neo4j stop` first", home, pid)
	}
	lock, err := ReadLock()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j home %s", home)
	}
	return Install(ctx, home, lock, InstallOptions{Repos: repos, Log: log})
}

// runningPid is the pid in home/run/neo4j.pid when that process lives, else 0.
func runningPid(home string) int {
	b, err := os.ReadFile(filepath.Join(home, "run", "neo4j.pid"))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || syscall.Kill(pid, 0) != nil {
		return 0
	}
	return pid
}

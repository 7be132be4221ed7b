package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/kgeval/kgeval"
	neo4jdeploy "github.com/kgeval/kgeval/deploy/neo4j"
	"github.com/spf13/cobra"
)

// neo4jCommand runs the bundled Neo4j + GDS launcher (deploy/neo4j/neo4j.sh,
// embedded in the binary) with the state directory of the configuration (configs.Config.StateDir), so
// that a binary installed without the repository (the Python wheel) can
// start the same Neo4j as `make neo4j-start`.
func (m *Main) neo4jCommand() *cobra.Command {
	c := &cobra.Command{
		Use:       "neo4j install|start|stop|status|password",
		Short:     "Install, start or stop the bundled Neo4j + GDS on 127.0.0.1 (needs Java 17 or 21; the jars come from Maven Central, checked against a lock)",
		Long:      help("neo4j"),
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"install", "start", "stop", "status", "password"},
		RunE: func(cmd *cobra.Command, args []string) error {
			action := args[0]
			switch action {
			case "install", "start", "stop", "status", "password", "restart":
			default:
				return kgeval.Errorf(kgeval.EINVALID, "neo4j %q: want install, start, stop, restart, status or password", action)
			}
			cfg, err := m.readConfig(cmd)
			if err != nil {
				return err
			}
			state := cfg.StateDir
			env := append(os.Environ(), "KGEVAL_STATE_DIR="+state)
			if action == "install" || action == "start" || action == "restart" {
				home, err := javaHome()
				if err != nil {
					return err
				}
				env = append(env, "JAVA_HOME="+home)
				if err := m.installJars(cmd.Context(), filepath.Join(state, "neo4j")); err != nil {
					return err
				}
			}
			script, err := writeLauncher(filepath.Join(state, "launcher"))
			if err != nil {
				return err
			}
			run := exec.CommandContext(cmd.Context(), "bash", script, action)
			run.Env, run.Stdout, run.Stderr = env, m.Stdout, m.Stderr
			if err := run.Run(); err != nil {
				if action == "status" {
					return kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j is not running (state in %s)", state)
				}
				return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j %s (state in %s; the launcher's output is above)", action, state)
			}
			return nil
		},
	}
	return c
}

// writeLauncher writes the embedded launcher files into dir (when they
// differ) and returns the script's path.
func writeLauncher(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j launcher directory %s", dir)
	}
	for _, name := range neo4jdeploy.Names {
		b, err := neo4jdeploy.Files.ReadFile(name)
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
	return filepath.Join(dir, neo4jdeploy.Names[0]), nil
}

// javaVersion reads the major Java version of `java -XshowSettings:properties -version`.
var javaVersion = regexp.MustCompile(`java\.specification\.version = (\d+)`)

// javaHome finds a Java 17 or 21 for Neo4j 5.26: JAVA_HOME, Debian's
// OpenJDK 17, or the java on PATH. Errors: EUNAVAILABLE saying what to
// install.
func javaHome() (string, error) {
	const advice = "Neo4j 5.26 needs Java 17 or 21: install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) and set JAVA_HOME, or use a Neo4j 5.26 with GDS of your own through KGEVAL_NEO4J_URI and KGEVAL_NEO4J_PASSWORD"
	// A JAVA_HOME that is set is the user's choice: it alone is tried.
	candidates := []string{os.Getenv("JAVA_HOME")}
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

// installJars fills the Neo4j home with the jars of the lock
// (neo4jdeploy.Install: from Maven Central, or the repositories of
// KGEVAL_MAVEN_URL, comma-separated https:// or file:// roots; no Maven)
// unless they are there. Errors: EUNAVAILABLE when a jar cannot be fetched,
// or when Neo4j runs from jars that are outdated.
func (m *Main) installJars(ctx context.Context, home string) error {
	if neo4jdeploy.Installed(home) {
		return nil
	}
	if pid := runningPid(home); pid > 0 {
		return kgeval.Errorf(kgeval.EUNAVAILABLE, "the jars in %s are outdated but Neo4j runs from them (pid %d): run `kgeval neo4j stop` first", home, pid)
	}
	lock, err := neo4jdeploy.ReadLock()
	if err != nil {
		return err
	}
	var repos []string
	for _, r := range strings.Split(os.Getenv("KGEVAL_MAVEN_URL"), ",") {
		if r = strings.TrimSpace(r); r != "" {
			repos = append(repos, r)
		}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "neo4j home %s", home)
	}
	return neo4jdeploy.Install(ctx, home, lock, neo4jdeploy.InstallOptions{Repos: repos, Log: m.Stderr})
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

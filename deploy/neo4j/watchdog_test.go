package neo4j_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/web"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// freePort returns a TCP port on 127.0.0.1 that nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// syncBuffer is the server's log, written from its goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// throwaway is a Neo4j started by neo4j.sh in a state folder and on ports
// of its own, stopped when the test ends.
type throwaway struct {
	t     *testing.T
	state string
	bolt  int
	env   []string
}

// run runs neo4j.sh with args and returns its output.
func (n *throwaway) run(args ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{"neo4j.sh"}, args...)...)
	cmd.Env = n.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// pid reads a pid file of the instance (0: none).
func (n *throwaway) pid(name string) int {
	b, _ := os.ReadFile(filepath.Join(n.state, "neo4j", "run", name))
	p, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return p
}

func (n *throwaway) consoleLog() string {
	b, _ := os.ReadFile(filepath.Join(n.state, "neo4j", "logs", "console.log"))
	return string(b)
}

// alive says whether process pid exists (and is not a zombie).
func alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(b), ") Z ")
}

// startThrowaway starts a Neo4j of its own with neo4j.sh (768 MiB heap)
// and stops it when the test ends, checking that stop leaves neither the
// JVM nor the watchdog behind and that nothing restarts it.
func startThrowaway(t *testing.T) *throwaway {
	t.Helper()
	n := &throwaway{t: t, state: t.TempDir(), bolt: freePort(t)}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KGEVAL_") {
			n.env = append(n.env, kv)
		}
	}
	n.env = append(n.env, "KGEVAL_STATE_DIR="+n.state, fmt.Sprintf("KGEVAL_NEO4J_BOLT_PORT=%d", n.bolt),
		fmt.Sprintf("KGEVAL_NEO4J_HTTP_PORT=%d", freePort(t)), "KGEVAL_NEO4J_HEAP=768m", "KGEVAL_NEO4J_PAGECACHE=64m",
		"KGEVAL_NEO4J_STOP_TIMEOUT=30")
	if m2 := os.Getenv("KGEVAL_M2_REPO"); m2 != "" {
		n.env = append(n.env, "KGEVAL_M2_REPO="+m2)
	}
	t0 := time.Now()
	out, err := n.run("start")
	if err != nil {
		n.run("stop")
		t.Fatalf("neo4j.sh start: %v\n%s", err, out)
	}
	t.Logf("neo4j.sh start (bolt %d, state %s): %.0f s", n.bolt, n.state, time.Since(t0).Seconds())
	t.Cleanup(func() {
		jvm, watchdog := n.pid("neo4j.pid"), n.pid("watchdog.pid")
		out, err := n.run("stop")
		t.Logf("neo4j.sh stop: %v: %s", err, strings.TrimSpace(out))
		time.Sleep(3 * time.Second) // a watchdog left behind would start a JVM again by now
		if alive(jvm) || alive(watchdog) || n.pid("neo4j.pid") != 0 {
			t.Errorf("after stop: JVM %d alive %v, watchdog %d alive %v, pid file %d", jvm, alive(jvm), watchdog, alive(watchdog), n.pid("neo4j.pid"))
			syscall.Kill(jvm, syscall.SIGKILL)
			syscall.Kill(watchdog, syscall.SIGKILL)
		}
		if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", n.bolt), time.Second); err == nil {
			conn.Close()
			t.Errorf("after stop something listens on the Bolt port %d", n.bolt)
		}
	})
	return n
}

// TestWatchdog checks that the bundled Neo4j outlives what kills its JVM
// and that kgeval serve says so while it is away (issue 49, point 2: one
// console query took the shared Neo4j down until someone restarted it).
// On a throwaway instance started by neo4j.sh, with the dashboard serving
// on it: the JVM is killed with SIGKILL; /healthz answers 503
// {"status":"unavailable"}, an admin's API call 503 saying Neo4j is down,
// the server logs it; the watchdog starts the JVM again on its own and
// /healthz answers 200, the server logs that Neo4j is back. Then the query
// of N1 (a COLLECT { } subquery of 200,000 strings of 19 KB, which Neo4j's
// memory guard does not count) runs straight over Bolt: Neo4j answers
// again afterwards, whether it refused the query or its JVM died of
// OutOfMemoryError and was restarted. Stop stops both JVM and watchdog.
func TestWatchdog(t *testing.T) {
	// make test runs it (Java is what the bundled Neo4j needs anyway):
	// a missing Java fails, it does not skip.
	java := os.Getenv("JAVA_HOME")
	if java == "" {
		java = "/usr/lib/jvm/java-17-openjdk-amd64"
	}
	if _, err := os.Stat(filepath.Join(java, "bin", "java")); err != nil {
		t.Fatalf("no Java 17 at %s (set JAVA_HOME; make test installs and uses it for Neo4j): %v", java, err)
	}
	n := startThrowaway(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pw, err := os.ReadFile(filepath.Join(n.state, "neo4j", "password"))
	if err != nil {
		t.Fatal(err)
	}
	uri := fmt.Sprintf("bolt://127.0.0.1:%d", n.bolt)
	db, err := graphstore.Open(ctx, graphstore.Config{URI: uri, User: "neo4j", Password: strings.TrimSpace(string(pw)), Database: "neo4j",
		ConnectTimeout: 5 * time.Second, QueryTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())

	// The dashboard, serving on the throwaway Neo4j.
	const token = "kgv_watchdog-test-admin-token"
	var log syncBuffer
	s, err := web.NewServer(web.Config{Version: "test", Logger: slog.New(slog.NewTextHandler(&log, nil)), HealthEvery: 500 * time.Millisecond,
		Auth: web.AuthConfig{Tokens: map[string]string{web.HashToken(token): "ci"}, Admins: map[string]bool{"token:ci": true},
			SessionKey: []byte(strings.Repeat("w", 64)), InsecureCookies: true}}, &graphstore.Health{DB: db}, db)
	if err != nil {
		t.Fatal(err)
	}
	pr, pwr := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0", pwr) }()
	defer func() {
		cancel()
		<-done
	}()
	lines := bufio.NewScanner(pr)
	base := ""
	for base == "" && lines.Scan() {
		if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(lines.Text()); m != "" {
			base = m
		}
	}
	go io.Copy(io.Discard, pr)
	get := func(path string, admin bool) (int, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		if admin {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/healthz", false); code != 200 || body != `{"status":"ok"}` {
		t.Fatalf("/healthz before: %d %s", code, body)
	}

	// waitBack polls until /healthz answers 200 again, from a JVM other
	// than old when one is needed, and returns how long it took from t0
	// and when it first answered 503 (0: never seen).
	waitBack := func(what string, t0 time.Time, old int, needNew bool) (back, firstDown time.Duration) {
		t.Helper()
		apiDown := false
		for time.Since(t0) < 5*time.Minute {
			code, body := get("/healthz", false)
			switch {
			case code == http.StatusServiceUnavailable:
				if body != `{"status":"unavailable"}` {
					t.Errorf("%s: anonymous /healthz while down: %s", what, body)
				}
				if firstDown == 0 {
					firstDown = time.Since(t0)
				}
				if !apiDown {
					if c, b := get("/api/runs", true); c == http.StatusServiceUnavailable {
						var e struct{ Error string }
						json.Unmarshal([]byte(b), &e)
						t.Logf("%s: GET /api/runs while Neo4j is down: %d %s", what, c, e.Error)
						apiDown = strings.HasPrefix(e.Error, "Neo4j is down or restarting")
						if !apiDown {
							t.Errorf("%s: the API's error while Neo4j is down: %s", what, b)
						}
					}
				}
			case code == 200 && (!needNew || (n.pid("neo4j.pid") != old && alive(n.pid("neo4j.pid")))):
				return time.Since(t0), firstDown
			}
			time.Sleep(250 * time.Millisecond)
		}
		st, _ := n.run("status")
		t.Fatalf("%s: Neo4j did not answer again within 5 minutes\n%s\n%s", what, st, tail(n.consoleLog(), 20))
		return 0, 0
	}

	// SIGKILL.
	old := n.pid("neo4j.pid")
	if !alive(old) || !alive(n.pid("watchdog.pid")) {
		t.Fatalf("JVM %d, watchdog %d: not both running", old, n.pid("watchdog.pid"))
	}
	t0 := time.Now()
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	back, down := waitBack("SIGKILL", t0, old, true)
	t.Logf("SIGKILL of the JVM (pid %d): /healthz 503 after %.1f s, 200 again after %.1f s (new JVM pid %d)",
		old, down.Seconds(), back.Seconds(), n.pid("neo4j.pid"))
	if down == 0 {
		t.Errorf("/healthz never said unavailable while the JVM was gone")
	}
	deadline := time.Now().Add(5 * time.Second) // the periodic check logs the return
	for !strings.Contains(log.String(), "neo4j answers again") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if l := log.String(); !strings.Contains(l, "neo4j is unavailable") || !strings.Contains(l, "neo4j answers again") {
		t.Errorf("the server's log does not say Neo4j went and came back:\n%s", l)
	}
	if st, _ := n.run("status"); !strings.Contains(st, "1 restarts since start") {
		t.Errorf("status after one restart:\n%s", st)
	}
	if !strings.Contains(n.consoleLog(), fmt.Sprintf("the JVM (pid %d) exited unexpectedly with status 137 (SIGKILL)", old)) {
		t.Errorf("console.log does not record the restart:\n%s", tail(n.consoleLog(), 10))
	}

	// The query of N1, over Bolt, as no console would let it through.
	old = n.pid("neo4j.pid")
	drv, err := neo4j.NewDriverWithContext(uri, neo4j.BasicAuth("neo4j", strings.TrimSpace(string(pw)), ""))
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close(context.Background())
	t0 = time.Now()
	// One auto-commit transaction: ExecuteQuery would retry it on the
	// restarted JVM (a dropped connection is retryable), and kill it again.
	sess := drv.NewSession(ctx, neo4j.SessionConfig{DatabaseName: "neo4j"})
	qctx, qcancel := context.WithTimeout(ctx, 3*time.Minute)
	res, qerr := sess.Run(qctx, "UNWIND [1] AS one WITH one, COLLECT { UNWIND range(1, 200000) AS i RETURN $x + i LIMIT 200000 } AS l RETURN last(l) IS NULL AS gone",
		map[string]any{"x": strings.Repeat("x", 19000)})
	if qerr == nil {
		_, qerr = res.Consume(qctx)
	}
	qcancel()
	sess.Close(context.Background())
	took := time.Since(t0)
	jvmDied := !alive(old)
	t.Logf("N1 query: error after %.1f s: %v; JVM %d died: %v", took.Seconds(), qerr, old, jvmDied)
	if qerr == nil {
		t.Errorf("the N1 query succeeded: 200,000 strings of 19 KB in a 768 MiB heap")
	}
	time.Sleep(time.Second) // a JVM that exits on OutOfMemoryError has gone by now
	back, _ = waitBack("N1", t0, old, !alive(old))
	// -XX:+ExitOnOutOfMemoryError exits with status 3.
	oom := strings.Contains(n.consoleLog(), fmt.Sprintf("the JVM (pid %d) exited unexpectedly with status 3 (OutOfMemoryError", old))
	t.Logf("N1 query: Neo4j answers again %.1f s after it was sent (JVM restarted %v, exited on OutOfMemoryError %v)", back.Seconds(), n.pid("neo4j.pid") != old, oom)
	if jvmDied && !oom {
		t.Errorf("the JVM died, not of OutOfMemoryError:\n%s", tail(n.consoleLog(), 20))
	}
	if st, _ := n.run("status"); jvmDied && !strings.Contains(st, "2 restarts since start") {
		t.Errorf("status after the N1 query: want 2 restarts (one JVM killed by it, not more):\n%s", st)
	}
	t.Logf("console.log:\n%s", tail(n.consoleLog(), 8))
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

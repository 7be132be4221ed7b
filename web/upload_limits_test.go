package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval/app"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset/datasettest"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/web"
)

const childToken = "upload-limits-token"

// TestServeChild is the child process of TestServer_UploadLimits: the
// dashboard of `kgeval serve` (app.NewServer: the real jobs, the
// configured limits and upload memory budget) on the test Neo4j, with the
// API token childToken, serving on a loopback port it prints.
func TestServeChild(t *testing.T) {
	dir := os.Getenv("KGEVAL_SERVE_CHILD")
	if dir == "" {
		t.Skip("the child process of TestServer_UploadLimits")
	}
	cfg, err := configs.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Job plumbing, not the claims' model check (make factcheck measures
	// that): no claim question waits on the shared model server.
	cfg.Scoring.Verify = "off"
	cfg.Neo4j.URI, cfg.Neo4j.Password = graphstoretest.URI(), graphstoretest.Password()
	cfg.Web.StateDir = dir
	cfg.Web.Tokens = []configs.WebToken{{Name: "ci", SHA256: web.HashToken(childToken)}}
	s, db, err := app.NewServer(context.Background(), cfg, "test", io.Discard, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("LISTEN %s\n", ln.Addr())
	http.Serve(ln, s.Handler())
}

// procStatus reads a size of /proc/PID/status in bytes.
func procStatus(pid int, key string) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// serveChild is the dashboard of `kgeval serve` in a child process
// (TestServeChild) with GOMEMLIMIT at 1 GiB, its address space capped
// (prlimit --as) some bytes over its size once started.
type serveChild struct {
	base                   string
	pid                    int
	cmd                    *exec.Cmd
	exited                 chan error
	stderr                 *bytes.Buffer
	idleAS, idleRSS, capAS int64
}

// startServeChild starts a serveChild on state directory dir, capped
// extra bytes over its size once started (0: no cap); it is killed when
// the test ends.
func startServeChild(t *testing.T, dir string, extra int64) *serveChild {
	t.Helper()
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Fatal("prlimit not found: the memory cap needs it (Debian package util-linux)")
	}
	graphstoretest.MustOpenDB(t) // fails, as every store test does, without Neo4j
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1", "-test.timeout=10m")
	cmd.Env = append(os.Environ(), "KGEVAL_SERVE_CHILD="+dir, "GOMEMLIMIT=1GiB")
	c := &serveChild{cmd: cmd, exited: make(chan error, 1), stderr: &bytes.Buffer{}}
	cmd.Stderr = c.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "LISTEN "); ok {
				addr <- a
			}
		}
		c.exited <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case a := <-addr:
		c.base = "http://" + a
	case err := <-c.exited:
		t.Fatalf("the server exited: %v\n%s", err, c.stderr.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("the server did not start in 2 minutes\n%s", c.stderr.String())
	}
	c.pid = cmd.Process.Pid
	c.idleAS, c.idleRSS = procStatus(c.pid, "VmPeak"), procStatus(c.pid, "VmHWM")
	if extra > 0 {
		c.capAS = c.idleAS + extra
		if out, err := exec.Command("prlimit", "--pid", strconv.Itoa(c.pid), fmt.Sprintf("--as=%d", c.capAS)).CombinedOutput(); err != nil {
			t.Fatalf("prlimit: %v %s", err, out)
		}
	}
	return c
}

// grew is how much the child's peak RSS grew since it started.
func (c *serveChild) grew() int64 { return procStatus(c.pid, "VmHWM") - c.idleRSS }

// alive fails the test when the child does not answer /healthz.
func (c *serveChild) alive(t *testing.T, when string) {
	t.Helper()
	if resp, err := http.Get(c.base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%s /healthz: %v %v\n%s", when, resp, err, c.stderr.String())
	}
}

// uploadResult is the answer to one upload.
type uploadResult struct {
	name   string
	status int
	retry  string
	body   map[string]any
	took   time.Duration
}

// postUpload uploads body as name to base with the token childToken.
func postUpload(base, name string, body io.Reader) uploadResult {
	req, _ := http.NewRequest("POST", base+"/api/uploads?name="+name, body)
	req.Header.Set("Authorization", "Bearer "+childToken)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return uploadResult{name: name, body: map[string]any{"error": err.Error()}}
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return uploadResult{name, resp.StatusCode, resp.Header.Get("Retry-After"), out, time.Since(start)}
}

// TestServer_UploadLimits posts three kinds of dataset bomb to the
// dashboard as `kgeval serve` runs it, in a child process with the default
// limits, GOMEMLIMIT at 1 GiB and its address space capped (prlimit --as)
// 1 GiB over its size once started: 16 Parquet bombs (a small file whose
// question decompresses to 512 MiB: about 15 exhausted the machine, 4
// crashed a 4 GiB server), 4 files of 16.3 million bad records and 4
// footer bombs (a 28-byte file whose footer claims 2 GiB) posted at once
// each get a 4xx with the reason, and then 6 valid 32 MiB uploads at once
// share the 512 MiB upload memory budget. The server stays up and its peak
// RSS grows by less than web.upload_memory_bytes.
func TestServer_UploadLimits(t *testing.T) {
	child := startServeChild(t, t.TempDir(), 1<<30)
	base, pid, idleRSS, capAS, idleAS, stderr := child.base, child.pid, child.idleRSS, child.capAS, child.idleAS, child.stderr
	const budget = 512 << 20 // web.upload_memory_bytes
	t.Logf("server pid %d: idle RSS %.1f MiB, address space capped at %.0f MiB (idle %.0f MiB + 1 GiB), GOMEMLIMIT 1 GiB",
		pid, float64(idleRSS)/(1<<20), float64(capAS)/(1<<20), float64(idleAS)/(1<<20))

	type result = uploadResult
	post := func(name string, data []byte) result { return postUpload(base, name, bytes.NewReader(data)) }
	all := func(files map[string][]byte, n int) []result {
		var mu sync.Mutex
		var wg sync.WaitGroup
		var res []result
		for name, data := range files {
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := post(fmt.Sprintf("%d-%s", i, name), data)
					mu.Lock()
					res = append(res, r)
					mu.Unlock()
				}()
			}
		}
		wg.Wait()
		return res
	}
	var bad bytes.Buffer
	io.Copy(&bad, datasettest.TinyBadRecords(16_300_000))

	start := time.Now()
	bombs := all(map[string][]byte{"bomb.parquet": datasettest.ParquetBomb(512<<20, false), "lying.parquet": datasettest.ParquetBomb(512<<20, true)}, 8)
	bombs = append(bombs, all(map[string][]byte{"bad.jsonl": bad.Bytes(), "footer.parquet": datasettest.FooterBomb()}, 4)...)
	t.Logf("%d hostile uploads at once: answered in %s", len(bombs), time.Since(start).Round(time.Millisecond))
	wants := map[string]struct {
		status int
		reason string
	}{
		"bomb.parquet":   {413, "its column chunks decompress to 536,870,943 bytes by its footer, more than 67,108,864 (dataset.max_decoded_bytes)"},
		"lying.parquet":  {413, "column question, page 1 decompresses to 536,870,916 bytes by its compressed data"},
		"bad.jsonl":      {413, "more than 100,000 records (dataset.max_records): stopped at record 100,001, after 100,000 records (0 valid, 100,000 rejected; first rejected: record 1: wrong type: a record must be a JSON object, got number)"},
		"footer.parquet": {400, "footer length 2,147,483,647 over the file's 28 bytes"},
	}
	seen := map[string]bool{}
	for _, r := range bombs {
		_, kind, _ := strings.Cut(r.name, "-")
		w := wants[kind]
		msg, _ := r.body["error"].(string)
		if r.status != w.status || !strings.Contains(msg, w.reason) || !strings.HasPrefix(msg, "dataset "+r.name+": ") {
			t.Errorf("%s: %d %v (%s), want %d with %q", r.name, r.status, r.body, r.took, w.status, w.reason)
		}
		if !seen[kind] {
			seen[kind] = true
			t.Logf("%s: %d in %s: %s", r.name, r.status, r.took.Round(time.Millisecond), msg)
		}
	}
	if resp, err := http.Get(base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("after the bombs /healthz: %v %v\n%s", resp, err, stderr.String())
	}
	t.Logf("after the bombs: peak RSS +%.1f MiB", float64(procStatus(pid, "VmHWM")-idleRSS)/(1<<20))

	// Valid uploads at the size limit: each reserves what it may hold
	// (about 153 MiB), so three are read at once and the others wait.
	var valid bytes.Buffer
	for i := 0; valid.Len() < 31<<20; i++ {
		fmt.Fprintf(&valid, `{"id": "%d", "question": "What does plant %d grow in?", "contexts": ["Plant %d grows in region %d, on moors and heaths where the soil is poor and acid.", "Region %d lies in the west; its moors flower purple in late summer, and its heaths are grazed by sheep and ponies."], "answer": "Region %d, on poor acid soil."}`+"\n", i, i, i, i, i, i)
	}
	start = time.Now()
	ok, busy := 0, 0
	for _, r := range all(map[string][]byte{"valid.jsonl": valid.Bytes()}, 6) {
		switch {
		case r.status == 200 && r.body["valid"] == r.body["records"]:
			ok++
		case r.status == 503 && r.retry == "10":
			busy++
			t.Logf("%s: 503 after %s, Retry-After %s: %s", r.name, r.took.Round(time.Millisecond), r.retry, r.body["error"])
		default:
			t.Errorf("%s: %d %v", r.name, r.status, r.body)
		}
	}
	t.Logf("6 valid uploads of %.1f MiB (%v records each) at once: %d read, %d told to retry, in %s",
		float64(valid.Len())/(1<<20), strings.Count(valid.String(), "\n"), ok, busy, time.Since(start).Round(time.Millisecond))
	if ok < 3 {
		t.Errorf("only %d of 6 valid uploads were read", ok)
	}
	if resp, err := http.Get(base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("after the valid uploads /healthz: %v %v\n%s", resp, err, stderr.String())
	}
	grew := procStatus(pid, "VmHWM") - idleRSS
	t.Logf("server alive; peak RSS +%.1f MiB over its idle %.1f MiB (budget %d MiB)", float64(grew)/(1<<20), float64(idleRSS)/(1<<20), budget>>20)
	if grew > budget {
		t.Errorf("peak RSS grew by %d MiB, over web.upload_memory_bytes (%d MiB)", grew>>20, budget>>20)
	}
}

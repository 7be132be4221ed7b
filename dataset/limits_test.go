package dataset_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/dataset/datasettest"
	"github.com/parquet-go/parquet-go"
)

// limits are the default limits of configs/kgeval.yaml for an upload:
// dataset.max_records, dataset.max_decoded_bytes, the structure caps
// (dataset.max_depth, max_values, max_file_values), and the rejections
// the dashboard lists.
var limits = dataset.Options{MaxTextChars: 200000, MaxLabelChars: 256, MaxRecords: 100000, MaxDecodedBytes: 64 << 20, MaxRejections: 1000,
	MaxDepth: 32, MaxValues: 20000, MaxFileValues: 2000000}

// memoryBudget is what loading any file within limits may add to a
// process's peak RSS; the load runs in a child process whose address
// space is capped this far above an idle child's.
const memoryBudget = 256 << 20

// childReport is what TestLoadChild prints about one load.
type childReport struct {
	Code          string  `json:"code"`
	Message       string  `json:"message"`
	Records       int     `json:"records"`
	Valid         int     `json:"valid"`
	Listed        int     `json:"listed"`
	RejectedTotal int     `json:"rejected_total"`
	FirstReason   string  `json:"first_reason"`
	PeakRSS       int64   `json:"peak_rss"` // VmHWM, bytes
	AddrSpace     int64   `json:"addr_space"`
	Seconds       float64 `json:"seconds"`
}

// TestLoadChild is the child process of loadCapped: it loads
// $KGEVAL_LOAD_CHILD with the options of $KGEVAL_LOAD_OPTIONS ("-": none,
// only its idle size) and prints a childReport.
func TestLoadChild(t *testing.T) {
	path := os.Getenv("KGEVAL_LOAD_CHILD")
	if path == "" {
		t.Skip("the child process of the memory-cap tests")
	}
	var rep childReport
	if path != "-" {
		var opt dataset.Options
		if err := json.Unmarshal([]byte(os.Getenv("KGEVAL_LOAD_OPTIONS")), &opt); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := dataset.Load(path, opt)
		rep.Seconds = time.Since(start).Seconds()
		if err != nil {
			rep.Code, rep.Message = kgeval.ErrorCode(err), kgeval.ErrorMessage(err)
		} else {
			rep.Records, rep.Valid, rep.Listed, rep.RejectedTotal = res.Records(), len(res.Samples), len(res.Rejected), res.RejectedTotal
			if len(res.Rejected) > 0 {
				rep.FirstReason = fmt.Sprintf("record %d: %s", res.Rejected[0].Record, res.Rejected[0].Reason)
			}
		}
	}
	rep.PeakRSS, rep.AddrSpace = procStatus("VmHWM"), procStatus("VmPeak")
	b, _ := json.Marshal(rep)
	fmt.Printf("CHILD %s\n", b)
}

// procStatus reads a size of /proc/self/status in bytes.
func procStatus(key string) int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// runChild runs TestLoadChild on path with opt, its address space capped
// at addrCap bytes (prlimit --as; 0: no cap) and GOMEMLIMIT at half the
// budget unless env sets it. It returns the report, or ok false with the
// child's output when the child died.
func runChild(t *testing.T, path string, opt *dataset.Options, addrCap int64, env ...string) (childReport, bool, string) {
	t.Helper()
	args := []string{os.Args[0], "-test.run=^TestLoadChild$", "-test.count=1"}
	if addrCap > 0 {
		if _, err := exec.LookPath("prlimit"); err != nil {
			t.Fatal("prlimit not found: the memory cap needs it (Debian package util-linux)")
		}
		args = append([]string{"prlimit", fmt.Sprintf("--as=%d", addrCap), "--"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	o, _ := json.Marshal(opt)
	// MALLOC_ARENA_MAX=1: the test binary links cgo, and glibc reserves a
	// 64 MiB malloc arena for each thread that calls malloc. How many
	// threads do depends on CPU load, so without it the same load reserved
	// 128-264 MiB of address space over an idle child (one run in eight
	// crossed the cap with peak RSS at +72 MiB); with it, 64-129 MiB.
	cmd.Env = append(os.Environ(), "KGEVAL_LOAD_CHILD="+path, "KGEVAL_LOAD_OPTIONS="+string(o), fmt.Sprintf("GOMEMLIMIT=%d", memoryBudget/2), "MALLOC_ARENA_MAX=1")
	cmd.Env = append(cmd.Env, env...)
	out, _ := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if j, ok := strings.CutPrefix(line, "CHILD "); ok {
			var rep childReport
			if err := json.Unmarshal([]byte(j), &rep); err != nil {
				t.Fatal(err)
			}
			return rep, true, string(out)
		}
	}
	return childReport{}, false, string(out)
}

// loadCapped loads path with opt in a child process whose address space is
// capped memoryBudget above an idle child's, and fails the test when the
// child dies or its peak RSS grows by more than memoryBudget. It returns
// the report with PeakRSS less the idle child's.
func loadCapped(t *testing.T, path string, opt dataset.Options) childReport {
	t.Helper()
	return loadCappedAt(t, path, opt, memoryBudget)
}

// loadCappedAt is loadCapped with the address space capped extra bytes
// over an idle child's, and env set in the child. (Address space is not
// RSS: without GOMEMLIMIT the Go heap reserves more than it touches.)
func loadCappedAt(t *testing.T, path string, opt dataset.Options, extra int64, env ...string) childReport {
	t.Helper()
	idle, ok, out := runChild(t, "-", nil, 0, env...)
	if !ok {
		t.Fatalf("idle child: %s", out)
	}
	rep, ok, out := runChild(t, path, &opt, idle.AddrSpace+extra, env...)
	if !ok {
		t.Fatalf("the load died under a cap of %d MiB over an idle child: %s\n%s", extra>>20, firstLine(out, "fatal error"), head(out, 1500))
	}
	grew := rep.PeakRSS - idle.PeakRSS
	t.Logf("%s: %.2f s, peak RSS +%.1f MiB over an idle child (%.1f MiB), address space capped at +%d MiB",
		filepath.Base(path), rep.Seconds, float64(grew)/(1<<20), float64(idle.PeakRSS)/(1<<20), extra>>20)
	if grew > memoryBudget {
		t.Errorf("peak RSS grew by %d MiB, over the budget of %d MiB", grew>>20, memoryBudget>>20)
	}
	rep.PeakRSS = grew
	return rep
}

func head(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// allocated returns the bytes fn allocates on the heap (in this process).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func writeFile(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoad_ParquetBomb loads a decompression bomb: a 17 KB Parquet file
// whose one question is 512 MiB of 'a' compressed with ZSTD cost 1.05 GB
// per load, and four at once crashed a server capped at 4 GiB. Its footer,
// or (when the headers lie) its compressed data, now refuses it before any
// page is decompressed: ETOOLARGE, a few KiB allocated, and a child process
// capped at 256 MiB over its idle size survives it. Without the limit the
// same child dies, so the cap is real.
func TestLoad_ParquetBomb(t *testing.T) {
	for _, c := range []struct {
		name string
		lie  bool
		want string
	}{
		{"honest", false, "its column chunks decompress to 536,870,943 bytes by its footer, more than 67,108,864 (dataset.max_decoded_bytes); refused before decompressing them"},
		{"lying", true, "column question, page 1 decompresses to 536,870,916 bytes by its compressed data, and the pages before it to 0: more than the 67,108,864 bytes a dataset may expand to (dataset.max_decoded_bytes); refused before decompressing it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bomb := datasettest.ParquetBomb(512<<20, c.lie)
			path := writeFile(t, "b.parquet", bomb)
			t.Logf("%d bytes on disk, 512 MiB question", len(bomb))
			var err error
			n := allocated(func() { _, err = dataset.Load(path, limits) })
			if kgeval.ErrorCode(err) != kgeval.ETOOLARGE || !strings.HasSuffix(kgeval.ErrorMessage(err), c.want) {
				t.Fatalf("err = %v (%s), want ETOOLARGE ending %q", err, kgeval.ErrorCode(err), c.want)
			}
			t.Logf("refused, %d KiB allocated: %s", n>>10, kgeval.ErrorMessage(err))
			if n > 1<<20 {
				t.Errorf("refusing it allocated %d KiB, want under 1 MiB", n>>10)
			}
			rep := loadCapped(t, path, limits)
			if rep.Code != kgeval.ETOOLARGE {
				t.Errorf("capped child: %+v", rep)
			}
		})
	}
	t.Run("WithoutLimit", func(t *testing.T) {
		path := writeFile(t, "b.parquet", datasettest.ParquetBomb(512<<20, false))
		idle, _, _ := runChild(t, "-", nil, 0)
		unbounded := limits
		unbounded.MaxDecodedBytes = 0
		rep, ok, out := runChild(t, path, &unbounded, idle.AddrSpace+memoryBudget)
		if ok {
			t.Fatalf("the bomb loaded under the cap without dataset.max_decoded_bytes: %+v", rep)
		}
		t.Logf("without dataset.max_decoded_bytes the capped child dies: %s", firstLine(out, "out of memory"))
	})
}

func firstLine(s, sub string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, sub) {
			return strings.TrimSpace(line)
		}
	}
	return tail(s, 300)
}

// TestLoad_FooterBomb loads a footer that lies: a 28-byte file whose footer
// length reads 0x7fffffff made the Parquet reader allocate 2 GiB before
// comparing it with the file's size. It is refused by that comparison.
func TestLoad_FooterBomb(t *testing.T) {
	path := writeFile(t, "f.parquet", datasettest.FooterBomb())
	var err error
	n := allocated(func() { _, err = dataset.Load(path, dataset.Options{}) })
	want := "footer length 2,147,483,647 over the file's 28 bytes"
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasSuffix(kgeval.ErrorMessage(err), want) {
		t.Fatalf("err = %v, want EINVALID ending %q", err, want)
	}
	t.Logf("refused, %d bytes allocated: %s", n, kgeval.ErrorMessage(err))
	if n > 64<<10 {
		t.Errorf("refusing it allocated %d KiB", n>>10)
	}
	if rep := loadCapped(t, path, dataset.Options{}); rep.Code != kgeval.EINVALID {
		t.Errorf("capped child: %+v", rep)
	}
}

// TestLoad_TinyBadRecords loads a flood of tiny bad records: 16.3 million
// lines "1" (31 MiB, within the upload limit) kept every rejection and
// crashed a capped server. With dataset.max_records the load stops at
// record 100,001 with ETOOLARGE saying what it read; without it, every
// record is counted but only the first 1,000 rejections are kept, and the
// memory stays flat.
func TestLoad_TinyBadRecords(t *testing.T) {
	const n = 16_300_000
	var b bytes.Buffer
	io.Copy(&b, datasettest.TinyBadRecords(n))
	path := writeFile(t, "bad.jsonl", b.Bytes())
	t.Logf("%d lines, %.1f MiB", n, float64(b.Len())/(1<<20))

	rep := loadCapped(t, path, limits)
	want := "more than 100,000 records (dataset.max_records): stopped at record 100,001, after 100,000 records (0 valid, 100,000 rejected; first rejected: record 1: wrong type: a record must be a JSON object, got number)"
	if rep.Code != kgeval.ETOOLARGE || !strings.HasSuffix(rep.Message, want) {
		t.Errorf("with dataset.max_records: %+v\nwant ETOOLARGE ending %q", rep, want)
	}

	all := limits
	all.MaxRecords = 0
	rep = loadCapped(t, path, all)
	if rep.Code != "" || rep.RejectedTotal != n || rep.Listed != 1000 || rep.Records != n || rep.Valid != 0 ||
		rep.FirstReason != "record 1: wrong type: a record must be a JSON object, got number" {
		t.Errorf("without dataset.max_records: %+v", rep)
	}
	t.Logf("without dataset.max_records: %s records rejected, first %d listed (%s)", fmtInt(rep.RejectedTotal), rep.Listed, rep.FirstReason)
}

func fmtInt(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestLoad_Limits checks dataset.max_records and dataset.max_decoded_bytes
// on each text format: the load stops at the first record or byte over,
// with ETOOLARGE saying what it read before; at the limit it loads.
func TestLoad_Limits(t *testing.T) {
	recs := []string{`{"id": "a", "question": "q1"}`, `{"id": "b", "question": ""}`, `{"id": "c", "question": "q3"}`, `{"id": "d", "question": "q4"}`, `{"id": "e", "question": "q5"}`}
	csvRecs := "id,question\na,q1\nb,\nc,q3\nd,q4\ne,q5\n"
	files := map[string]string{
		dataset.FormatJSONL: strings.Join(recs, "\n") + "\n",
		dataset.FormatJSON:  "[" + strings.Join(recs, ",") + "]",
		dataset.FormatCSV:   csvRecs,
	}
	for format, data := range files {
		t.Run(format, func(t *testing.T) {
			opt := dataset.Options{MaxRecords: 5}
			if res, err := dataset.Read(strings.NewReader(data), format, opt); err != nil || res.Records() != 5 {
				t.Fatalf("at the limit: %v, %+v", err, res)
			}
			opt.MaxRecords = 3
			_, err := dataset.Read(strings.NewReader(data), format, opt)
			want := "more than 3 records (dataset.max_records): stopped at record 4, after 3 records (2 valid, 1 rejected; first rejected: record 2: empty question)"
			if kgeval.ErrorCode(err) != kgeval.ETOOLARGE || kgeval.ErrorMessage(err) != want {
				t.Errorf("max_records 3: %v\nwant %q", err, want)
			}
			opt = dataset.Options{MaxDecodedBytes: int64(len(data))}
			if _, err := dataset.Read(strings.NewReader(data), format, opt); err != nil {
				t.Fatalf("at the byte limit: %v", err)
			}
			opt.MaxDecodedBytes = int64(len(data)) - 1
			_, err = dataset.Read(strings.NewReader(data), format, opt)
			if kgeval.ErrorCode(err) != kgeval.ETOOLARGE || !strings.HasPrefix(kgeval.ErrorMessage(err), fmt.Sprintf("the file holds more than %d bytes (dataset.max_decoded_bytes)", len(data)-1)) {
				t.Errorf("max_decoded_bytes %d: %v", len(data)-1, err)
			}
		})
	}
	t.Run("OneLongLine", func(t *testing.T) {
		// A line is cut at the limit, not read whole first.
		var err error
		line := strings.Repeat("a", 64<<20)
		n := allocated(func() {
			_, err = dataset.Read(io.MultiReader(strings.NewReader(`{"question": "`), strings.NewReader(line)), dataset.FormatJSONL, dataset.Options{MaxDecodedBytes: 1 << 20})
		})
		if kgeval.ErrorCode(err) != kgeval.ETOOLARGE || kgeval.ErrorMessage(err) != "the file holds more than 1,048,576 bytes (dataset.max_decoded_bytes)" {
			t.Errorf("err = %v", err)
		}
		if n > 8<<20 {
			t.Errorf("a 64 MiB line allocated %d MiB before the 1 MiB limit stopped it", n>>20)
		}
	})
	t.Run("Rejections", func(t *testing.T) {
		data := strings.Repeat("1\n", 2500)
		res, err := dataset.Read(strings.NewReader(data), dataset.FormatJSONL, dataset.Options{MaxRejections: 1000})
		if err != nil || res.RejectedTotal != 2500 || len(res.Rejected) != 1000 || res.Records() != 2500 || res.Rejected[999].Record != 1000 {
			t.Errorf("%v: total %d, listed %d, records %d", err, res.RejectedTotal, len(res.Rejected), res.Records())
		}
		res, _ = dataset.Read(strings.NewReader(data), dataset.FormatJSONL, dataset.Options{})
		if len(res.Rejected) != 2500 || res.RejectedTotal != 2500 {
			t.Errorf("without MaxRejections: listed %d of %d", len(res.Rejected), res.RejectedTotal)
		}
	})
}

// TestLoad_ParquetCounts checks the counts inside Parquet pages that the
// reader allocates by before reading what they count: each file is about
// 100 bytes and made the reader allocate 4 to 8 GiB (measured once with
// parquet-go v0.32.0 alone); they are refused as corrupt, allocating
// little.
func TestLoad_ParquetCounts(t *testing.T) {
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"DefinitionLevels", datasettest.LevelsBomb(), "column question, page 1: definition levels: runs of 2,147,483,647 values or more in a page of 1"},
		{"DictionaryIndexes", datasettest.IndexBomb(), "column question, page 2: dictionary indexes: runs of 2,147,483,647 values or more in a page of 1"},
		{"DeltaLengths", datasettest.DeltaBomb(), "column question, page 1: a delta header of 2,147,483,647 values in a page of 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "c.parquet", c.file)
			var err error
			n := allocated(func() { _, err = dataset.Load(path, dataset.Options{}) })
			if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasSuffix(kgeval.ErrorMessage(err), c.want) {
				t.Fatalf("%d bytes: err = %v, want EINVALID ending %q", len(c.file), err, c.want)
			}
			if n > 1<<20 {
				t.Errorf("refusing it allocated %d KiB", n>>10)
			}
		})
	}
}

// TestLoad_ParquetRows checks the rows' values against
// dataset.max_decoded_bytes: a dictionary page stores a 1 MiB value once,
// and 200 rows repeat it (200 MiB) in pages of a few KiB.
func TestLoad_ParquetRows(t *testing.T) {
	type row struct {
		Question string `parquet:"question,dict,zstd"`
	}
	big := strings.Repeat("heath ", 1<<20/6)
	rows := make([]row, 200)
	for i := range rows {
		rows[i].Question = big
	}
	path := filepath.Join(t.TempDir(), "d.parquet")
	if err := parquet.WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
	opt := dataset.Options{MaxDecodedBytes: 64 << 20}
	rep := loadCapped(t, path, opt)
	want := "its rows hold more than 67,108,864 bytes (dataset.max_decoded_bytes): stopped after 64 records (64 valid, 0 rejected)"
	if rep.Code != kgeval.ETOOLARGE || !strings.HasSuffix(rep.Message, want) {
		t.Errorf("%+v\nwant ETOOLARGE ending %q", rep, want)
	}
}

// TestMemoryBound loads files at the default limits, each in a child
// process without GOMEMLIMIT (as a server runs by default; its address
// space capped 512 MiB over an idle child's), and checks that the peak RSS
// stays within MemoryBound: what the dashboard reserves of its upload
// memory budget for each upload.
func TestMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MB of datasets")
	}
	r := rand.New(rand.NewPCG(1, 2))
	words := func(n int) string {
		w := []string{"heath", "plant", "grows", "in", "the", "region", "called", "Cornish", "Erica", "vagans", "is", "a", "shrub", "flower", "purple", "moor"}
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(w[r.IntN(len(w))])
			b.WriteByte(' ')
		}
		return b.String()[:n]
	}
	type rec struct {
		ID       string   `json:"id" parquet:"id,dict"`
		Question string   `json:"question" parquet:"question,dict"`
		Contexts []string `json:"contexts" parquet:"contexts,list"`
		Answer   string   `json:"answer" parquet:"answer,dict"`
	}
	small := func(i int) rec {
		return rec{ID: fmt.Sprint(i), Question: words(60), Contexts: []string{words(150), words(60)}, Answer: words(40)}
	}
	dir := t.TempDir()
	upload := int64(32 << 20) // web.upload_max_bytes
	var jsonl, array, big, csvFile bytes.Buffer
	var smallRows []rec
	array.WriteString("[")
	for i := 0; i < limits.MaxRecords; i++ {
		b, _ := json.Marshal(small(i))
		if int64(jsonl.Len()+len(b)+1) > upload {
			break
		}
		jsonl.Write(append(b, '\n'))
		if i > 0 {
			array.WriteString(",")
		}
		array.Write(b)
		smallRows = append(smallRows, small(i))
	}
	array.WriteString("]")
	cw := csv.NewWriter(&csvFile)
	cw.Write([]string{"id", "question", "contexts", "answer"})
	for _, s := range smallRows {
		ctx, _ := json.Marshal(s.Contexts)
		cw.Write([]string{s.ID, s.Question, string(ctx), s.Answer})
	}
	cw.Flush()
	var bigRows []rec // near dataset.max_decoded_bytes in Parquet, the first 32 MiB of them in JSONL
	for i := 0; len(bigRows)*190300 < 58<<20; i++ {
		x := rec{ID: fmt.Sprint(i), Question: words(100), Contexts: []string{words(190000)}, Answer: words(100)}
		bigRows = append(bigRows, x)
		if b, _ := json.Marshal(x); int64(big.Len()+len(b)+1) <= upload {
			big.Write(append(b, '\n'))
		}
	}
	os.WriteFile(filepath.Join(dir, "small.jsonl"), jsonl.Bytes(), 0o600)
	os.WriteFile(filepath.Join(dir, "small.json"), array.Bytes(), 0o600)
	os.WriteFile(filepath.Join(dir, "small.csv"), csvFile.Bytes()[:min(csvFile.Len(), int(upload))], 0o600)
	os.WriteFile(filepath.Join(dir, "big.jsonl"), big.Bytes(), 0o600)
	if err := parquet.WriteFile(filepath.Join(dir, "small.parquet"), smallRows, parquet.Compression(&parquet.Zstd)); err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(filepath.Join(dir, "big.parquet"), bigRows, parquet.Compression(&parquet.Zstd)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"small.jsonl", "small.json", "small.csv", "big.jsonl", "small.parquet", "big.parquet"} {
		path := filepath.Join(dir, name)
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		format, _ := dataset.FormatOf(name)
		bound := dataset.MemoryBound(format, st.Size(), limits)
		rep := loadCappedAt(t, path, limits, 2*memoryBudget, "GOMEMLIMIT=off")
		t.Logf("%s: %.1f MiB, %d records: peak RSS +%.1f MiB, MemoryBound %.1f MiB", name, float64(st.Size())/(1<<20), rep.Valid, float64(rep.PeakRSS)/(1<<20), float64(bound)/(1<<20))
		if rep.Code != "" || rep.Valid == 0 {
			t.Errorf("%s: %+v", name, rep)
		}
		if rep.PeakRSS > bound {
			t.Errorf("%s: peak RSS +%d MiB over MemoryBound %d MiB", name, rep.PeakRSS>>20, bound>>20)
		}
	}
}

// TestLoad_ParquetConformance loads every Parquet file of parquet-go's own
// test data (files of parquet-mr, Arrow, Impala, Spark...) with and
// without the checks: what parquet-go reads, Load reads to as many
// records, but for the encodings and codecs it refuses by design
// (DELTA_BYTE_ARRAY, LZ4, BROTLI).
func TestLoad_ParquetConformance(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/parquet-go/parquet-go").Output()
	if err != nil {
		t.Fatalf("go list parquet-go (make deps downloads it): %v", err)
	}
	root := strings.TrimSpace(string(out))
	var files []string
	filepath.Walk(filepath.Join(root, "testdata"), func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") && info.Size() < 20<<20 {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no parquet-go test data in " + root)
	}
	same, refused := 0, 0
	for _, p := range files {
		n, err := plainRows(p)
		if err != nil {
			continue // parquet-go itself does not read it
		}
		res, err := dataset.Load(p, dataset.Options{MaxRecords: 1 << 20, MaxDecodedBytes: 1 << 30})
		name := strings.TrimPrefix(p, root+"/")
		switch {
		case err != nil && regexp.MustCompile(`DELTA_BYTE_ARRAY|LZ4|BROTLI`).MatchString(err.Error()):
			refused++
			t.Logf("%s: refused by design: %s", name, kgeval.ErrorMessage(err))
		case err != nil:
			t.Errorf("%s: parquet-go reads %d rows, Load: %v", name, n, err)
		case res.Records() != n:
			t.Errorf("%s: parquet-go reads %d rows, Load %d", name, n, res.Records())
		default:
			same++
		}
	}
	t.Logf("%d files: %d read alike, %d refused by design", len(files), same, refused)
}

// plainRows reads every row of path with parquet-go alone.
func plainRows(path string) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return 0, err
	}
	r := parquet.NewReader(pf)
	for {
		m := map[string]any{}
		if err := r.Read(&m); errors.Is(err, io.EOF) {
			return n, nil
		} else if err != nil {
			return n, err
		}
		n++
	}
}

// TestLoad_NotAnObject checks the reasons of records that are JSON but not
// objects, which are given without the decoder, against the decoder's.
func TestLoad_NotAnObject(t *testing.T) {
	for line, kind := range map[string]string{`1`: "number", ` -2.5e3 `: "number", `"x"`: "string", `[1, {"a": 2}]`: "array", `true`: "bool", `false`: "bool", `null`: "null"} {
		res, err := dataset.Read(strings.NewReader(line+"\n"), dataset.FormatJSONL, limits)
		if err != nil {
			t.Fatal(err)
		}
		if want := "wrong type: a record must be a JSON object, got " + kind; len(res.Rejected) != 1 || res.Rejected[0].Reason != want {
			t.Errorf("%s: %+v, want %q", line, res.Rejected, want)
		}
	}
	res, _ := dataset.Read(strings.NewReader("{\"a\": \n[1,\n"), dataset.FormatJSONL, limits)
	if got := rejections(res); !strings.HasPrefix(got[1], "invalid JSON") || !strings.HasPrefix(got[2], "invalid JSON") {
		t.Errorf("invalid JSON: %v", got)
	}
}

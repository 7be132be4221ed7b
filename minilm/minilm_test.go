package minilm

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/kgeval/kgeval/configs/configstest"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The tests need the real model files; they fail (never skip) when the files
// are missing, with the command that fetches them.

var (
	modelOnce sync.Once
	testModel *Model
	modelErr  error
)

func loadTestModel(t testing.TB) *Model {
	t.Helper()
	modelOnce.Do(func() { testModel, modelErr = Load(configstest.EncoderDir(t)) })
	if modelErr != nil {
		t.Fatalf("loading %s failed: %v\nrun scripts/fetch-minilm.sh (or `make models`) to download the model files (embedding.models_dir, KGEVAL_EMBEDDING_MODELS_DIR, selects the directory)", configstest.EncoderDir(t), modelErr)
	}
	return testModel
}

type reference struct {
	MaxSeqLength    int         `json:"max_seq_length"`
	Versions        any         `json:"versions"`
	Texts           []string    `json:"texts"`
	TokenIDs        [][]int32   `json:"token_ids"`
	Tokens          [][]string  `json:"tokens"`
	Vectors         [][]float32 `json:"vectors"`
	TokenEmbeddings []struct {
		Index   int         `json:"index"`
		Vectors [][]float32 `json:"vectors"`
	} `json:"token_embeddings"`
}

func loadReference(t testing.TB) *reference {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "reference.json"))
	if err != nil {
		t.Fatalf("reading reference (produced by scripts/minilm_reference.py): %v", err)
	}
	var r reference
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	var texts []string
	b, err = os.ReadFile(filepath.Join("testdata", "texts.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &texts); err != nil {
		t.Fatal(err)
	}
	if len(texts) != len(r.Texts) || len(r.Vectors) != len(texts) || len(r.TokenIDs) != len(texts) {
		t.Fatalf("reference.json is stale: %d texts in texts.json, %d/%d/%d in reference; rerun scripts/minilm_reference.py", len(texts), len(r.Texts), len(r.Vectors), len(r.TokenIDs))
	}
	for i := range texts {
		if texts[i] != r.Texts[i] {
			t.Fatalf("reference.json is stale at text %d; rerun scripts/minilm_reference.py", i)
		}
	}
	if len(texts) < 50 {
		t.Fatalf("only %d reference texts", len(texts))
	}
	return &r
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func short(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

func TestModelInfo(t *testing.T) {
	m := loadTestModel(t)
	if m.Name() != "all-MiniLM-L6-v2" || m.Dim() != 384 || m.MaxSeqLength() != 256 {
		t.Fatalf("Name=%q Dim=%d MaxSeqLength=%d", m.Name(), m.Dim(), m.MaxSeqLength())
	}
	t.Logf("backend %s", m.Backend())
}

func TestTokenizerMatchesReference(t *testing.T) {
	m := loadTestModel(t)
	ref := loadReference(t)
	bad := 0
	for i, text := range ref.Texts {
		got := m.Tokenizer().Encode(text)
		want := ref.TokenIDs[i]
		if fmt.Sprint(got) != fmt.Sprint(want) {
			bad++
			toks := make([]string, len(got))
			for j, id := range got {
				toks[j] = m.Tokenizer().Token(id)
			}
			t.Errorf("text %d %q:\n got  %v %v\n want %v %v", i, short(text), got, toks, want, ref.Tokens[i])
		}
	}
	t.Logf("tokenizer: %d/%d texts identical to the HF tokenizer", len(ref.Texts)-bad, len(ref.Texts))
}

func TestTokenizerTruncation(t *testing.T) {
	m := loadTestModel(t)
	long := strings.Repeat("heath ", 1000)
	ids := m.Tokenizer().Encode(long)
	if len(ids) != 256 || ids[0] != 101 || ids[255] != 102 {
		t.Fatalf("len=%d first=%d last=%d", len(ids), ids[0], ids[len(ids)-1])
	}
}

func TestEmbedMatchesReference(t *testing.T) {
	m := loadTestModel(t)
	ref := loadReference(t)
	got, err := m.Embed(context.Background(), ref.Texts)
	if err != nil {
		t.Fatal(err)
	}
	minCos, minIdx := 2.0, -1
	for i, v := range got {
		if len(v) != 384 {
			t.Fatalf("text %d: dim %d", i, len(v))
		}
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(math.Sqrt(n)-1) > 1e-5 {
			t.Errorf("text %d: norm %v", i, math.Sqrt(n))
		}
		c := cosine(v, ref.Vectors[i])
		if c < minCos {
			minCos, minIdx = c, i
		}
		if c < 0.999 {
			t.Errorf("text %d %q: cosine to sentence-transformers %.6f < 0.999", i, short(ref.Texts[i]), c)
		}
	}
	t.Logf("min cosine over %d texts: %.9f (1-cos = %.2g; text %d %q)", len(got), minCos, 1-minCos, minIdx, short(ref.Texts[minIdx]))
}

func TestEmbedTokensMatchesReference(t *testing.T) {
	m := loadTestModel(t)
	ref := loadReference(t)
	if len(ref.TokenEmbeddings) == 0 {
		t.Fatal("reference has no token embeddings")
	}
	texts := make([]string, len(ref.TokenEmbeddings))
	for i, te := range ref.TokenEmbeddings {
		texts[i] = ref.Texts[te.Index]
	}
	got, err := m.EmbedTokens(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	sent, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	minCos := 2.0
	for i, te := range ref.TokenEmbeddings {
		g := got[i]
		wantToks := ref.Tokens[te.Index]
		wantToks = wantToks[1 : len(wantToks)-1] // without [CLS]/[SEP]
		if fmt.Sprint(g.Tokens) != fmt.Sprint(wantToks) {
			t.Errorf("text %q: tokens %v, want %v", texts[i], g.Tokens, wantToks)
			continue
		}
		if len(g.Vectors) != len(te.Vectors)-2 || len(g.IDs) != len(g.Tokens) {
			t.Fatalf("text %q: %d vectors, reference has %d (with [CLS]/[SEP])", texts[i], len(g.Vectors), len(te.Vectors))
		}
		for j, v := range g.Vectors {
			c := cosine(v, te.Vectors[j+1])
			minCos = math.Min(minCos, c)
			if c < 0.999 {
				t.Errorf("text %q token %d %q: cosine %.6f", texts[i], j, g.Tokens[j], c)
			}
			var d float64
			for k := range v {
				d = math.Max(d, math.Abs(float64(v[k]-te.Vectors[j+1][k])))
			}
			if d > 1e-2 {
				t.Errorf("text %q token %d: max abs diff %g", texts[i], j, d)
			}
		}
		if c := cosine(g.Sentence, sent[i]); c < 0.9999999 {
			t.Errorf("text %q: TokenEmbedding.Sentence differs from Embed (cos %v)", texts[i], c)
		}
	}
	t.Logf("min token-vector cosine: %.9f (1-cos = %.2g)", minCos, 1-minCos)
}

// Results must not depend on batching, packing or threading.
func TestBatchingInvariance(t *testing.T) {
	m := loadTestModel(t)
	ref := loadReference(t)
	all, err := m.Embed(context.Background(), ref.Texts)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{BatchSize: 1, Threads: 1}, {BatchSize: 7, Threads: 2}, {MaxBatchTokens: 300, Threads: 3}} {
		m2 := *m
		m2.opts = o
		m2.pool = new(sync.Pool)
		got, err := m2.Embed(context.Background(), ref.Texts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if c := cosine(got[i], all[i]); c < 0.99999 {
				t.Errorf("options %+v text %d: cosine %v to the default batching", o, i, c)
			}
		}
	}
	one, err := m.Embed(context.Background(), []string{ref.Texts[0]})
	if err != nil {
		t.Fatal(err)
	}
	if c := cosine(one[0], all[0]); c < 0.99999 {
		t.Errorf("single-text call differs from batched call: cosine %v", c)
	}
}

func TestConcurrentUse(t *testing.T) {
	m := loadTestModel(t)
	ref := loadReference(t)
	want, err := m.Embed(context.Background(), ref.Texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			texts := ref.Texts[g*3:]
			got, err := m.Embed(context.Background(), texts)
			if err != nil {
				errs <- err
				return
			}
			for i := range got {
				if c := cosine(got[i], want[g*3+i]); c < 0.99999 {
					errs <- fmt.Errorf("goroutine %d text %d: cosine %v", g, i, c)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestEmptyInput(t *testing.T) {
	m := loadTestModel(t)
	v, err := m.Embed(context.Background(), nil)
	if err != nil || len(v) != 0 {
		t.Fatalf("Embed(nil) = %v, %v", v, err)
	}
	te, err := m.EmbedTokens(context.Background(), []string{""})
	if err != nil || len(te) != 1 || len(te[0].Tokens) != 0 || len(te[0].Vectors) != 0 || len(te[0].Sentence) != 384 {
		t.Fatalf("EmbedTokens([\"\"]) = %+v, %v", te, err)
	}
}

func TestLoadMissingFiles(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.Contains(err.Error(), "make models") {
		t.Fatalf("Load of a missing dir: %v (want a hint to run make models)", err)
	}
}

func TestFloat16(t *testing.T) {
	for _, c := range []struct {
		h uint16
		f float32
	}{{0x3c00, 1}, {0xc000, -2}, {0x3555, 0.33325195}, {0x0001, 5.9604645e-08}, {0x7bff, 65504}, {0x0000, 0}} {
		if got := float16ToFloat32(c.h); got != c.f {
			t.Errorf("float16ToFloat32(%#x) = %v, want %v", c.h, got, c.f)
		}
	}
}

// TestEmbed_SameBitsOnEveryMachine embeds the first reference texts with
// every micro-kernel this CPU has and compares the vectors' bits with the
// ones committed here: a replay recomputes its label vectors, and a last
// bit that depends on the CPU or the architecture moved its scores, and
// with them the win rates of the committed validity reports
// (docs/VALIDITY.md).
func TestEmbed_SameBitsOnEveryMachine(t *testing.T) {
	// sha256 of the little-endian float32 bits of the first 16 reference
	// texts' vectors. An intended change of the encoder's arithmetic changes
	// it: then refresh the replay goldens (cmd/kgeval TestEvaluate_ReplayGolden
	// -update) and the reports (make validity).
	const wantBits = "2c2b0f3b98cba0fd43a12c591ba9cd514b8c52c7b90720589101f1c00f308e1c"
	m := loadTestModel(t)
	texts := loadReference(t).Texts[:16]
	isas := [][2]bool{{false, false}}
	switch kernelISA {
	case "avx512":
		isas = append(isas, [2]bool{false, true}, [2]bool{true, false})
	case "avx2":
		isas = append(isas, [2]bool{false, true})
	}
	defer selectKernel(useKernelFlags())
	for _, isa := range isas {
		selectKernel(isa[0], isa[1])
		vecs, err := m.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, v := range vecs {
			for _, x := range v {
				_ = binary.Write(h, binary.LittleEndian, math.Float32bits(x))
			}
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != wantBits {
			t.Errorf("kernel %s on %s: vector bits %s, want %s", kernelISA, runtime.GOARCH, got, wantBits)
		}
	}
}

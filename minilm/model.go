// Package minilm runs all-MiniLM-L6-v2 in process, in Go, from the standard
// Hugging Face model files (config.json, tokenizer.json or vocab.txt,
// model.safetensors, and sentence-transformers' sentence_bert_config.json /
// modules.json / 1_Pooling/config.json when present). No Python is needed at
// run time.
//
// It reproduces sentence-transformers' output for the model: BERT WordPiece
// tokenization (as BertTokenizerFast), truncation to max_seq_length (256),
// the 6-layer BERT encoder, mean pooling over the tokens of each text
// ([CLS] and [SEP] included, as the attention mask selects them) and L2
// normalisation. Model.EmbedTokens also returns the contextual token vectors
// (the last hidden state), which BERTScore uses.
//
// Texts are tokenized, sorted by length and run in batches. A batch is
// packed without padding: the dense layers run over the concatenated tokens
// of all texts and attention runs per text and head, which is exactly what a
// padded batch with an attention mask computes, without the wasted work.
//
// Matrix products use a pure-Go engine by default: packed weight panels and
// AVX-512 / AVX2+FMA micro-kernels written in Go assembly (no cgo), with a
// portable Go kernel on other CPUs. Build with -tags purego to use only the
// portable Go kernel, or with -tags openblas (cgo, needs libopenblas-dev:
// apt-get install -y libopenblas-dev) to use OpenBLAS's cblas_sgemm instead.
// Work is spread over Options.Threads goroutines (default GOMAXPROCS).
//
// The pure-Go engine gives the same bits on every CPU and architecture, with
// any batching and thread count: every kernel sums each product in order
// with a fused multiply-add (the portable one emulates it, fma32, about 7
// times slower than before on amd64 CPUs without AVX2 and FMA; arm64 uses
// the instruction), and the Go code around them rounds every product it
// adds (math32.go). A replay recomputes its label vectors, so its scores
// depend on this (TestEmbed_SameBitsOnEveryMachine). OpenBLAS sums in its
// own order: its vectors differ in the last bits.
//
// The model files are fetched by scripts/fetch-minilm.sh (make models) into
// embedding.models_dir/all-MiniLM-L6-v2 (configs: ~/.cache/kgeval/models,
// KGEVAL_EMBEDDING_MODELS_DIR); Load takes the directory, and reads no
// configuration of its own.
package minilm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/kgeval/kgeval"
)

// ModelName is the sentence-transformers name of the model.
const ModelName = "all-MiniLM-L6-v2"

// Options tune batching and parallelism. Zero values select the defaults.
type Options struct {
	// BatchSize is the maximum number of texts per forward pass (default 128).
	BatchSize int
	// MaxBatchTokens caps the tokens of one forward pass (default 16384),
	// which bounds the working memory (~14 KiB per token).
	MaxBatchTokens int
	// Threads is the number of goroutines used for one call (default
	// runtime.GOMAXPROCS(0)).
	Threads int
	// MaxSeqLength overrides max_seq_length from sentence_bert_config.json
	// (256 for this model); at most max_position_embeddings.
	MaxSeqLength int
}

// TokenEmbedding is kgeval.TokenEmbedding: a text's WordPiece tokens and
// their contextual vectors.
type TokenEmbedding = kgeval.TokenEmbedding

var (
	_ kgeval.Embedder      = (*Model)(nil)
	_ kgeval.TokenEmbedder = (*Model)(nil)
)

type bertConfig struct {
	ModelType             string  `json:"model_type"`
	HiddenSize            int     `json:"hidden_size"`
	NumHiddenLayers       int     `json:"num_hidden_layers"`
	NumAttentionHeads     int     `json:"num_attention_heads"`
	IntermediateSize      int     `json:"intermediate_size"`
	MaxPositionEmbeddings int     `json:"max_position_embeddings"`
	TypeVocabSize         int     `json:"type_vocab_size"`
	VocabSize             int     `json:"vocab_size"`
	LayerNormEps          float64 `json:"layer_norm_eps"`
	HiddenAct             string  `json:"hidden_act"`
	PositionEmbeddingType string  `json:"position_embedding_type"`
}

type layer struct {
	qkv, attnOut, inter, out linear
	ln1g, ln1b, ln2g, ln2b   []float32
}

// Model is a loaded all-MiniLM-L6-v2. It is immutable after Load and safe
// for concurrent use.
type Model struct {
	cfg     bertConfig
	tok     *Tokenizer
	eng     engine
	opts    Options
	dim     int
	heads   int
	headDim int
	eps     float32

	wordEmb, posEmb, typeEmb []float32
	embLNg, embLNb           []float32
	layers                   []layer

	pool *sync.Pool // *workspace
}

// MissingFile returns the first of the model files (config.json,
// model.safetensors, vocab.txt) that dir lacks, "" when it has them all.
func MissingFile(dir string) string {
	for _, f := range []string{"config.json", "model.safetensors", "vocab.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return f
		}
	}
	return ""
}

// Load reads the model from dir (configs.Config.EncoderDir) with default Options.
func Load(dir string) (*Model, error) { return LoadWithOptions(dir, Options{}) }

// LoadWithOptions reads the model from dir.
func LoadWithOptions(dir string, opts Options) (*Model, error) {
	for _, f := range []string{"config.json", "model.safetensors"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, missingFiles(dir, err)
		}
	}
	_, errJSON := os.Stat(filepath.Join(dir, "tokenizer.json"))
	_, errVocab := os.Stat(filepath.Join(dir, "vocab.txt"))
	if errJSON != nil && errVocab != nil {
		return nil, missingFiles(dir, errVocab)
	}

	m := &Model{opts: opts, eng: defaultEngine(), pool: new(sync.Pool)}
	if err := readJSON(filepath.Join(dir, "config.json"), &m.cfg); err != nil {
		return nil, err
	}
	c := &m.cfg
	if c.ModelType != "" && c.ModelType != "bert" {
		return nil, fmt.Errorf("minilm: %s: model_type %q is not bert", dir, c.ModelType)
	}
	if c.HiddenAct != "" && c.HiddenAct != "gelu" {
		return nil, fmt.Errorf("minilm: %s: hidden_act %q not supported (want gelu)", dir, c.HiddenAct)
	}
	if c.PositionEmbeddingType != "" && c.PositionEmbeddingType != "absolute" {
		return nil, fmt.Errorf("minilm: %s: position_embedding_type %q not supported", dir, c.PositionEmbeddingType)
	}
	if c.HiddenSize <= 0 || c.NumAttentionHeads <= 0 || c.HiddenSize%c.NumAttentionHeads != 0 ||
		c.NumHiddenLayers <= 0 || c.IntermediateSize <= 0 || c.MaxPositionEmbeddings <= 0 || c.VocabSize <= 0 {
		return nil, fmt.Errorf("minilm: %s: implausible config %+v", dir, *c)
	}
	if c.LayerNormEps == 0 {
		c.LayerNormEps = 1e-12
	}
	if c.TypeVocabSize == 0 {
		c.TypeVocabSize = 2
	}
	m.dim = c.HiddenSize
	m.heads = c.NumAttentionHeads
	m.headDim = c.HiddenSize / c.NumAttentionHeads
	m.eps = float32(c.LayerNormEps)

	if err := checkPooling(dir); err != nil {
		return nil, err
	}
	maxLen := opts.MaxSeqLength
	if maxLen <= 0 {
		var sb struct {
			MaxSeqLength int `json:"max_seq_length"`
		}
		if err := readJSON(filepath.Join(dir, "sentence_bert_config.json"), &sb); err == nil && sb.MaxSeqLength > 0 {
			maxLen = sb.MaxSeqLength
		} else {
			maxLen = 256 // all-MiniLM-L6-v2's max_seq_length
		}
	}
	if maxLen > c.MaxPositionEmbeddings {
		maxLen = c.MaxPositionEmbeddings
	}
	tok, err := LoadTokenizer(dir, maxLen)
	if err != nil {
		return nil, fmt.Errorf("minilm: tokenizer: %w", err)
	}
	if tok.VocabSize() > c.VocabSize {
		return nil, fmt.Errorf("minilm: tokenizer has %d entries, model vocab_size is %d", tok.VocabSize(), c.VocabSize)
	}
	m.tok = tok

	st, err := readSafetensors(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		return nil, fmt.Errorf("minilm: %w", err)
	}
	if err := m.loadWeights(st); err != nil {
		return nil, fmt.Errorf("minilm: %w", err)
	}
	return m, nil
}

func missingFiles(dir string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("minilm: model files not found in %s (%v): run `make models` (scripts/fetch-minilm.sh)", dir, err)
	}
	return fmt.Errorf("minilm: %w", err)
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// checkPooling verifies that the sentence-transformers pipeline, when
// described, is Transformer → mean Pooling (→ Normalize).
func checkPooling(dir string) error {
	var pc map[string]any
	err := readJSON(filepath.Join(dir, "1_Pooling", "config.json"), &pc)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if v, ok := pc["pooling_mode_mean_tokens"].(bool); ok && !v {
		return fmt.Errorf("minilm: %s: only mean-token pooling is supported", dir)
	}
	for _, k := range []string{"pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens"} {
		if v, ok := pc[k].(bool); ok && v {
			return fmt.Errorf("minilm: %s: %s is not supported", dir, k)
		}
	}
	return nil
}

func (m *Model) loadWeights(st *safetensorsFile) error {
	c := m.cfg
	h, inter := c.HiddenSize, c.IntermediateSize
	prefix := ""
	if _, ok := st.tensors["embeddings.word_embeddings.weight"]; !ok {
		if _, ok := st.tensors["bert.embeddings.word_embeddings.weight"]; ok {
			prefix = "bert."
		} else {
			return fmt.Errorf("%s: no BERT embeddings found (tensors: %s…)", st.path, strings.Join(first(st.names(), 5), ", "))
		}
	}
	var err error
	get := func(name string, shape ...int) []float32 {
		if err != nil {
			return nil
		}
		var t []float32
		t, err = st.float32s(prefix+name, shape...)
		return t
	}
	m.wordEmb = get("embeddings.word_embeddings.weight", c.VocabSize, h)
	m.posEmb = get("embeddings.position_embeddings.weight", c.MaxPositionEmbeddings, h)
	m.typeEmb = get("embeddings.token_type_embeddings.weight", c.TypeVocabSize, h)
	m.embLNg = get("embeddings.LayerNorm.weight", h)
	m.embLNb = get("embeddings.LayerNorm.bias", h)
	m.layers = make([]layer, c.NumHiddenLayers)
	for i := range m.layers {
		p := fmt.Sprintf("encoder.layer.%d.", i)
		L := &m.layers[i]
		qw := get(p+"attention.self.query.weight", h, h)
		qb := get(p+"attention.self.query.bias", h)
		kw := get(p+"attention.self.key.weight", h, h)
		kb := get(p+"attention.self.key.bias", h)
		vw := get(p+"attention.self.value.weight", h, h)
		vb := get(p+"attention.self.value.bias", h)
		if err != nil {
			return err
		}
		// Fused QKV projection: rows of W are output features.
		L.qkv = linear{in: h, out: 3 * h,
			w: append(append(append(make([]float32, 0, 3*h*h), qw...), kw...), vw...),
			b: append(append(append(make([]float32, 0, 3*h), qb...), kb...), vb...)}
		L.attnOut = linear{in: h, out: h, w: get(p+"attention.output.dense.weight", h, h), b: get(p+"attention.output.dense.bias", h)}
		L.ln1g = get(p+"attention.output.LayerNorm.weight", h)
		L.ln1b = get(p+"attention.output.LayerNorm.bias", h)
		L.inter = linear{in: h, out: inter, w: get(p+"intermediate.dense.weight", inter, h), b: get(p+"intermediate.dense.bias", inter)}
		L.out = linear{in: inter, out: h, w: get(p+"output.dense.weight", h, inter), b: get(p+"output.dense.bias", h)}
		L.ln2g = get(p+"output.LayerNorm.weight", h)
		L.ln2b = get(p+"output.LayerNorm.bias", h)
		if err != nil {
			return err
		}
		for _, l := range []*linear{&L.qkv, &L.attnOut, &L.inter, &L.out} {
			m.eng.prepare(l)
		}
	}
	return err
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Name returns "all-MiniLM-L6-v2".
func (m *Model) Name() string { return ModelName }

// Dim returns the embedding dimension (384).
func (m *Model) Dim() int { return m.dim }

// MaxSeqLength is the truncation length in tokens, [CLS] and [SEP] included.
func (m *Model) MaxSeqLength() int { return m.tok.MaxLen }

// Tokenizer returns the model's tokenizer.
func (m *Model) Tokenizer() *Tokenizer { return m.tok }

// Backend names the matrix-multiplication engine in use, e.g. "go-avx512",
// "go-avx2", "go-go" (portable) or "openblas".
func (m *Model) Backend() string { return m.eng.name() }

func (m *Model) threads() int {
	if m.opts.Threads > 0 {
		return m.opts.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// Embed returns the L2-normalised mean-pooled embedding of each text, as
// sentence-transformers' model.encode(texts, normalize_embeddings=True).
// The empty string yields the embedding of "[CLS] [SEP]". ctx is checked
// before the model runs.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	err := m.run(texts, func(idx int, ids []int32, hidden []float32) {
		out[idx] = m.pool1(hidden, len(ids))
	})
	return out, err
}

// EmbedTokens returns, for each text, its WordPiece tokens and their
// contextual vectors (see TokenEmbedding), plus the sentence vector. ctx
// is checked before the model runs.
func (m *Model) EmbedTokens(ctx context.Context, texts []string) ([]TokenEmbedding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]TokenEmbedding, len(texts))
	h := m.dim
	err := m.run(texts, func(idx int, ids []int32, hidden []float32) {
		n := len(ids) - 2
		te := TokenEmbedding{
			Tokens:   make([]string, n),
			IDs:      append([]int32(nil), ids[1:len(ids)-1]...),
			Vectors:  make([][]float32, n),
			Sentence: m.pool1(hidden, len(ids)),
		}
		flat := make([]float32, n*h)
		copy(flat, hidden[h:(n+1)*h])
		for i := 0; i < n; i++ {
			te.Tokens[i] = m.tok.Token(te.IDs[i])
			te.Vectors[i] = flat[i*h : (i+1)*h : (i+1)*h]
		}
		out[idx] = te
	})
	return out, err
}

// pool1 mean-pools n token rows and L2-normalises the result.
func (m *Model) pool1(hidden []float32, n int) []float32 {
	h := m.dim
	acc := make([]float64, h)
	for t := 0; t < n; t++ {
		row := hidden[t*h : (t+1)*h]
		for j, v := range row {
			acc[j] += float64(v)
		}
	}
	var norm float64
	for j := range acc {
		acc[j] /= float64(n)
		norm += float64(acc[j] * acc[j]) // rounded, not fused (math32.go)
	}
	norm = math.Sqrt(norm)
	if norm < 1e-12 { // torch.nn.functional.normalize's eps
		norm = 1e-12
	}
	v := make([]float32, h)
	for j := range acc {
		v[j] = float32(acc[j] / norm)
	}
	return v
}

// run tokenizes texts, sorts them by length, runs them in batches and calls
// emit(index, ids, hidden) for each text with its last hidden state
// (len(ids) rows of Dim() floats, valid during the call only). emit may be
// called from several goroutines but never twice for one index.
func (m *Model) run(texts []string, emit func(idx int, ids []int32, hidden []float32)) error {
	if len(texts) == 0 {
		return nil
	}
	threads := m.threads()
	ids := make([][]int32, len(texts))
	if len(texts) >= 64 && threads > 1 {
		chunk := (len(texts) + 4*threads - 1) / (4 * threads)
		parallelFor((len(texts)+chunk-1)/chunk, threads, func(c int) {
			for i := c * chunk; i < (c+1)*chunk && i < len(texts); i++ {
				ids[i] = m.tok.Encode(texts[i])
			}
		})
	} else {
		for i, t := range texts {
			ids[i] = m.tok.Encode(t)
		}
	}
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(ids[order[a]]) > len(ids[order[b]]) })

	bs := m.opts.BatchSize
	if bs <= 0 {
		bs = 128
	}
	maxTok := m.opts.MaxBatchTokens
	if maxTok <= 0 {
		maxTok = 16384
	}
	ws, _ := m.pool.Get().(*workspace)
	if ws == nil {
		ws = new(workspace)
	}
	defer m.pool.Put(ws)
	for start := 0; start < len(order); {
		end, tokens := start, 0
		for end < len(order) && end-start < bs && (end == start || tokens+len(ids[order[end]]) <= maxTok) {
			tokens += len(ids[order[end]])
			end++
		}
		batch := make([][]int32, end-start)
		for i := range batch {
			batch[i] = ids[order[start+i]]
		}
		hidden, offs := m.forward(batch, ws, threads)
		h := m.dim
		for i, seq := range batch {
			emit(order[start+i], seq, hidden[offs[i]*h:(offs[i]+len(seq))*h])
		}
		start = end
	}
	return nil
}

// workspace holds the activations of one forward pass, reused across calls.
type workspace struct {
	x, qkv, ctx, tmp, inter []float32
	offs                    []int
}

// forward runs the encoder over the packed batch and returns the last hidden
// state (rows of all sequences concatenated) and each sequence's first row.
func (m *Model) forward(batch [][]int32, ws *workspace, threads int) ([]float32, []int) {
	h := m.dim
	T := 0
	ws.offs = ws.offs[:0]
	for _, s := range batch {
		ws.offs = append(ws.offs, T)
		T += len(s)
	}
	ws.x = grow(ws.x, T*h)
	ws.qkv = grow(ws.qkv, T*3*h)
	ws.ctx = grow(ws.ctx, T*h)
	ws.tmp = grow(ws.tmp, T*h)
	ws.inter = grow(ws.inter, T*m.cfg.IntermediateSize)
	x, qkv, ctx, tmp, inter := ws.x, ws.qkv, ws.ctx, ws.tmp, ws.inter

	// Embeddings: word + position + token type 0, then LayerNorm.
	typ0 := m.typeEmb[:h]
	for si, s := range batch {
		for p, id := range s {
			row := x[(ws.offs[si]+p)*h : (ws.offs[si]+p+1)*h]
			we := m.wordEmb[int(id)*h : int(id+1)*h]
			pe := m.posEmb[p*h : (p+1)*h]
			for j := range row {
				row[j] = we[j] + pe[j] + typ0[j]
			}
		}
	}
	m.layerNormRows(x, nil, T, m.embLNg, m.embLNb, threads)

	scale := float32(1 / math.Sqrt(float64(m.headDim)))
	for li := range m.layers {
		L := &m.layers[li]
		linearForward(m.eng, &L.qkv, x, T, qkv, threads)
		m.attention(batch, ws.offs, qkv, ctx, scale, threads)
		linearForward(m.eng, &L.attnOut, ctx, T, tmp, threads)
		m.layerNormRows(x, tmp, T, L.ln1g, L.ln1b, threads) // x = LN(x + tmp)
		linearForward(m.eng, &L.inter, x, T, inter, threads)
		m.geluRows(inter, T, threads)
		linearForward(m.eng, &L.out, inter, T, tmp, threads)
		m.layerNormRows(x, tmp, T, L.ln2g, L.ln2b, threads)
	}
	return x[:T*h], ws.offs
}

// attention runs multi-head self-attention for every sequence and head.
func (m *Model) attention(batch [][]int32, offs []int, qkv, ctx []float32, scale float32, threads int) {
	h, dh, nh := m.dim, m.headDim, m.heads
	ld := 3 * h
	// Longest sequences first (the batch is sorted), heads inner.
	parallelFor(len(batch)*nh, threads, func(t int) {
		si, hd := t/nh, t%nh
		L := len(batch[si])
		base := offs[si] * ld
		s := attnScratchPool.Get().(*attnScratch)
		m.eng.attention(qkv[base+hd*dh:], qkv[base+h+hd*dh:], qkv[base+2*h+hd*dh:], ld, L, dh,
			ctx[offs[si]*h+hd*dh:], h, scale, s)
		attnScratchPool.Put(s)
	})
}

// layerNormRows sets x = LayerNorm(x + res) row-wise (res may be nil).
func (m *Model) layerNormRows(x, res []float32, T int, g, b []float32, threads int) {
	h := m.dim
	eps := float64(m.eps)
	chunk := 64
	parallelFor((T+chunk-1)/chunk, threadsFor(T*h, threads), func(c int) {
		for t := c * chunk; t < (c+1)*chunk && t < T; t++ {
			row := x[t*h : (t+1)*h]
			if res != nil {
				r := res[t*h : (t+1)*h]
				for j := range row {
					row[j] += r[j]
				}
			}
			var mean float64
			for _, v := range row {
				mean += float64(v)
			}
			mean /= float64(h)
			var vr float64
			for _, v := range row {
				d := float64(v) - mean
				vr += float64(d * d) // rounded, not fused (math32.go)
			}
			vr /= float64(h)
			inv := float32(1 / math.Sqrt(vr+eps))
			mf := float32(mean)
			for j, v := range row {
				row[j] = float32((v-mf)*inv*g[j]) + b[j] // rounded, not fused (math32.go)
			}
		}
	})
}

func (m *Model) geluRows(a []float32, T int, threads int) {
	w := m.cfg.IntermediateSize
	chunk := 32
	parallelFor((T+chunk-1)/chunk, threadsFor(T*w, threads), func(c int) {
		lo, hi := c*chunk*w, (c+1)*chunk*w
		if hi > T*w {
			hi = T * w
		}
		geluSlice(a[lo:hi])
	})
}

// threadsFor uses one goroutine for small element-wise jobs.
func threadsFor(elems, threads int) int {
	if elems < 1<<15 {
		return 1
	}
	return threads
}

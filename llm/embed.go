package llm

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"

	"github.com/kgeval/kgeval"
	openai "github.com/sashabaranov/go-openai"
)

// Embedder calls an OpenAI-compatible /v1/embeddings endpoint. Vectors are
// L2-normalised. It shares the chat client's retries and accounting.
type Embedder struct {
	Client    *Client
	Model     string
	BatchSize int
}

var _ kgeval.Embedder = (*Embedder)(nil)

// Name returns the model name.
func (e *Embedder) Name() string { return e.Model }

// Embed returns one vector per text.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	bs := e.BatchSize
	if bs <= 0 {
		bs = 64
	}
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += bs {
		part := texts[lo:min(lo+bs, len(texts))]
		vecs, err := e.batch(ctx, part)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) batch(ctx context.Context, texts []string) ([][]float32, error) {
	c := e.Client
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	var out [][]float32
	err := c.withRetries(ctx, e.Model, func(actx context.Context) error {
		resp, err := c.api.CreateEmbeddings(actx, openai.EmbeddingRequestStrings{Input: texts, Model: openai.EmbeddingModel(e.Model)})
		if err != nil {
			return err
		}
		c.ptok.Add(int64(resp.Usage.PromptTokens))
		if len(resp.Data) != len(texts) {
			return badAnswer(fmt.Sprintf("embeddings endpoint returned %d vectors for %d texts", len(resp.Data), len(texts)))
		}
		out = make([][]float32, len(texts))
		for _, d := range resp.Data {
			if d.Index < 0 || d.Index >= len(texts) {
				return badAnswer(fmt.Sprintf("embeddings endpoint returned index %d", d.Index))
			}
			out[d.Index] = Normalize(d.Embedding)
		}
		return nil
	})
	if err != nil {
		if !errors.Is(err, ErrNotCached) {
			c.failures.Add(1)
		}
		return nil, err
	}
	return out, nil
}

// Normalize scales v to unit length (a zero vector stays zero).
func Normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(n))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}

// CachedEmbedder embeds through Next and keeps every vector in Cache, keyed
// by model and text, so a label is embedded once across runs and people.
type CachedEmbedder struct {
	Next  kgeval.Embedder
	Cache kgeval.Cache
	// Hits and Misses count texts served from the cache and embedded anew.
	Hits, Misses int
}

var _ kgeval.Embedder = (*CachedEmbedder)(nil)

// Name returns the wrapped model's name.
func (e *CachedEmbedder) Name() string { return e.Next.Name() }

func (e *CachedEmbedder) key(text string) string {
	h := sha256.Sum256([]byte(e.Next.Name() + "\x00" + text))
	return "embed:" + hex.EncodeToString(h[:])
}

// Embed returns one vector per text, embedding only those not cached.
func (e *CachedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	keys := make([]string, len(texts))
	for i, t := range texts {
		keys[i] = e.key(t)
	}
	got, err := e.Cache.Get(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	var pending []string
	pendingIdx := map[string][]int{}
	for i, k := range keys {
		if b, ok := got[k]; ok {
			if v, err := decodeVector(b); err == nil {
				out[i] = v
				e.Hits++
				continue
			}
		}
		if _, seen := pendingIdx[texts[i]]; !seen {
			pending = append(pending, texts[i])
		}
		pendingIdx[texts[i]] = append(pendingIdx[texts[i]], i)
	}
	if len(pending) == 0 {
		return out, nil
	}
	vecs, err := e.Next.Embed(ctx, pending)
	if err != nil {
		return nil, err
	}
	put := make(map[string][]byte, len(pending))
	for j, t := range pending {
		for _, i := range pendingIdx[t] {
			out[i] = vecs[j]
		}
		put[e.key(t)] = encodeVector(vecs[j])
		e.Misses++
	}
	return out, e.Cache.Put(ctx, put)
}

// encodeVector stores a vector as base64 of little-endian float32s: exact,
// and a quarter of the size of JSON text.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return []byte(base64.StdEncoding.EncodeToString(b))
}

func decodeVector(s []byte) ([]float32, error) {
	b, err := base64.StdEncoding.DecodeString(string(s))
	if err != nil || len(b)%4 != 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "bad cached vector")
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

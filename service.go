package kgeval

import "context"

// The services below are what the use cases (package pipeline) depend on;
// package readmodel holds the readers of stored runs. Package graphstore
// implements the storage ones on Neo4j, packages llm, minilm and judge the
// model ones, package scoring and graphstore's GDS the KG engines. Every
// method returns *Error values with the codes its comment names; any other
// failure is EINTERNAL, and EUNAVAILABLE always means the backing service
// cannot be reached.

// RunService stores the records of runs.
type RunService interface {
	// CreateRun records a new run. Errors: ECONFLICT when the name is
	// taken.
	CreateRun(ctx context.Context, r Run) error
	// GetRun reads one run. Errors: ENOTFOUND.
	GetRun(ctx context.Context, name string) (Run, error)
	// ListRuns returns every run, newest first.
	ListRuns(ctx context.Context) ([]Run, error)
	// UpdateRun sets the fields of a run's record that u sets.
	UpdateRun(ctx context.Context, name string, u RunUpdate) error
	// DeleteRun deletes a run: its record, samples, pair graphs and scores,
	// and its name from the cache entries it used (the shared cache stays).
	// Errors: ENOTFOUND.
	DeleteRun(ctx context.Context, name string) error
}

// SampleService stores the samples of runs (readmodel.SampleReader reads
// them back with their scores).
type SampleService interface {
	// WriteSamples stores the samples of a run; rewriting replaces.
	WriteSamples(ctx context.Context, run string, samples []Sample) error
	// WriteGrounding stores the grounding check of each sample's texts.
	WriteGrounding(ctx context.Context, run string, gs []Grounding) error
}

// ScoreService stores KG scores and other metric values
// (readmodel.ScoreReader reads them back as rows).
type ScoreService interface {
	// WriteKGResults stores KG scores with their explanations under a
	// variant; rewriting replaces.
	WriteKGResults(ctx context.Context, run, variant, engine string, p GraphParams, results []KGResult) error
	// ScoredGraphs returns the pair graphs of a run that have scores of a
	// variant, keyed by JoinKey(sample, pair); graphs left null because a
	// text could not be extracted are not included (a resume retries them).
	ScoredGraphs(ctx context.Context, run, variant string) (map[string]bool, error)
	// WriteMetricScores stores per-sample metric values; rewriting
	// replaces.
	WriteMetricScores(ctx context.Context, run string, scores []MetricScore) error
	// MetricsDone returns, per sample of a run, the metrics stored.
	MetricsDone(ctx context.Context, run string) (map[string]map[string]bool, error)
}

// PairGraphService stores pair graphs.
type PairGraphService interface {
	// WritePairGraphs stores the pair graphs of a run; a graph stored
	// before is replaced. It returns how many rows it wrote.
	WritePairGraphs(ctx context.Context, run string, graphs []*PairGraph) (int, error)
}

// StoreInfo describes the database server: its version and edition, and
// the version of its Graph Data Science library ("" when missing).
type StoreInfo struct {
	Version    string
	Edition    string
	GDSVersion string
}

// Embedder turns texts into L2-normalised vectors.
type Embedder interface {
	// Name identifies the model, for cache keys and run records.
	Name() string
	// Embed returns one vector per text, in order. Errors: EUNAVAILABLE when
	// the model cannot be reached or loaded, EINVALID for bad input.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// KGEngine computes the KG scores of pair graphs. Both engines compute raw
// results (paths, communities, verdict matches) and let scoring.Score
// assemble them, so that they share one definition of every score.
type KGEngine interface {
	// Name is "gds" or "native".
	Name() string
	// Score computes multihop and community scores for each graph, in order.
	// Errors: EUNAVAILABLE when the engine's backend cannot be reached.
	Score(ctx context.Context, run string, graphs []*PairGraph, p GraphParams) ([]KGResult, error)
}

// ExtractRequest is one text to extract triplets from. Question is shown
// as context for answers and references (SPEC §2). Asked marks a question:
// it is extracted as the facts it asks for (SPEC §4c).
type ExtractRequest struct {
	Text, Question string
	Asked          bool
}

// Extraction is the outcome of one ExtractRequest: its triplets, whether
// they came from the cache, or the text's own error.
type Extraction struct {
	Triplets []Triplet
	Cached   bool
	Err      error
}

// Extractor extracts triplets from texts with a model, caching every
// answer.
type Extractor interface {
	// Extract returns one Extraction per request, in order; a text's own
	// failure is its Extraction's Err. progress, if not nil, is told how
	// many model requests are done. Errors: EUNAVAILABLE when the cache
	// cannot be reached, and the context's error when it is cancelled.
	Extract(ctx context.Context, reqs []ExtractRequest, progress func(done, total int)) ([]Extraction, error)
}

// Judge computes the LLM-judged metrics (SPEC §6, §7) of one sample.
type Judge interface {
	// Judge returns a value of each named metric, in order; a model
	// failure is a null value with its reason. Errors: EUNAVAILABLE when
	// the cache cannot be reached, and the context's error when it is
	// cancelled.
	Judge(ctx context.Context, s Sample, names []string) ([]MetricScore, error)
}

// TokenEmbedding holds the contextual token vectors of one text.
type TokenEmbedding struct {
	// Tokens are the WordPiece tokens of the (truncated) text, without
	// [CLS] and [SEP]; continuation pieces keep their "##" prefix.
	Tokens []string
	// IDs are the vocabulary ids of Tokens.
	IDs []int32
	// Vectors[i] is the last hidden state (not normalised) of Tokens[i].
	// The vectors of [CLS] and [SEP] are left out, as BERTScore ignores
	// them; they still take part in attention and in Sentence.
	Vectors [][]float32
	// Sentence is the L2-normalised mean-pooled sentence vector, the same
	// as Embed returns.
	Sentence []float32
}

// TokenEmbedder gives contextual token vectors (bert_score_f1).
type TokenEmbedder interface {
	// EmbedTokens returns one TokenEmbedding per text, in order, leaving
	// out [CLS] and [SEP]. Errors: EUNAVAILABLE when the model cannot be
	// loaded, and the context's error when it is cancelled.
	EmbedTokens(ctx context.Context, texts []string) ([]TokenEmbedding, error)
}

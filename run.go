package kgeval

import (
	"strings"
	"time"
)

// Run statuses.
const (
	RunRunning = "running"
	RunDone    = "done"
	RunFailed  = "failed"
	// RunInterrupted is a run stopped by SIGINT or SIGTERM; `evaluate
	// --resume` finishes it. A killed process leaves RunRunning.
	RunInterrupted = "interrupted"
)

// DefaultVariant names the KG scores computed with the run's own
// parameters; sweeps store other variants beside it ("tau=0.6,delta=0.3").
const DefaultVariant = "default"

// Run is one evaluation of a dataset, as recorded in the store. The store
// decodes the record once, when it reads it: the typed fields below are the
// contract between the commands, the dashboard and the store.
type Run struct {
	Name        string `json:"name"`
	Dataset     string `json:"dataset"`
	Fingerprint string `json:"fingerprint"` // sha256 of the dataset file
	// Config is the configuration in force, JSON with secrets redacted, as
	// recorded; Settings is its scoring section (nil when it has none).
	Config   string       `json:"config"`
	Settings *RunSettings `json:"-"`
	LLM      string       `json:"llm"` // endpoint#model
	Encoder  string       `json:"encoder"`
	Engine   string       `json:"engine"`
	Status   string       `json:"status"`
	Error    string       `json:"error,omitempty"`
	Samples  int          `json:"samples"`
	Rejected int          `json:"rejected"`
	Resumes  int          `json:"resumes"` // how many times --resume continued it
	// Shards is n for a run that n workers evaluate (evaluate --shard
	// i/n), 0 for a run of one process.
	Shards   int       `json:"shards,omitempty"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitempty"`
	// Stages holds seconds per stage, Calls the model-call accounting of
	// all attempts; nil until recorded.
	Stages Stages `json:"stages,omitempty"`
	Calls  *Calls `json:"calls,omitempty"`
	// Ledger is the model's cost per stage and pair (every attempt's).
	Ledger Ledger `json:"ledger,omitempty"`
	// Texts counts the distinct texts sent to extraction by kind, with the
	// bound of 4 per sample + 1 per distinct passage; nil until recorded.
	Texts *TextCounts `json:"texts,omitempty"`
	// Grounding counts the triplets the grounding check kept and dropped
	// per text kind; nil until recorded (or with the check off).
	Grounding *GroundingCounts `json:"grounding,omitempty"`
}

// KGEngine says which engine scored the run's KG metrics and, for gds, how
// it found communities: "gds, scoring.communities batch", or "native".
func (r Run) KGEngine() string {
	if r.Engine != "gds" {
		return r.Engine
	}
	var s RunSettings
	if r.Settings != nil {
		s = *r.Settings
	}
	return "gds, scoring.communities " + s.CommunityMode()
}

// ModelOf returns the model of a run's LLM identity "endpoint#model" (the
// endpoint differs between machines, the model does not).
func ModelOf(llm string) string {
	if i := strings.LastIndexByte(llm, '#'); i >= 0 {
		return llm[i+1:]
	}
	return llm
}

// RunSettings are the scoring settings of a run: the scoring section of the
// configuration (scoring.* keys), recorded with the run so that a resume,
// a sweep, an export and the dashboard use the run's own.
type RunSettings struct {
	Engine string `mapstructure:"engine"`
	// Communities is how the GDS engine runs its community detection:
	// batch (the default: one Leiden call per batch of pair
	// graphs, each graph's communities its own whatever the batch holds;
	// docs/SPEC-NOTES.md §4), louvain-per-graph (SPEC §4, one Louvain call
	// per pair graph: the default before) or leiden-per-graph. Runs
	// recorded before the key existed ran louvain-per-graph: CommunityMode
	// reads them so, and a resumed run keeps its mode.
	Communities string   `mapstructure:"communities"`
	Tau         float64  `mapstructure:"tau"`
	TauRel      float64  `mapstructure:"tau_rel"`
	Verify      string   `mapstructure:"verify"`
	VerifyPairs []string `mapstructure:"verify_pairs"`
	// VerifyForms are the question forms each claim is asked with
	// verify prob (ClaimForms: claim, context, threeway, claimfirst); empty: claim.
	VerifyForms []string `mapstructure:"verify_forms" json:",omitempty"`
	// Evidence is how a claim's evidence window is chosen (graph, cosine
	// or whole; SPEC §4d) and EvidenceTokens its budget in estimated tokens.
	Evidence       string `mapstructure:"evidence"`
	EvidenceTokens int    `mapstructure:"evidence_tokens"`
	// EvidenceAggregate is how a claim's P(supported) is read from the
	// chunks its evidence took (EvidenceAggregates: max, the best chunk's;
	// mean; top2, the mean of the two best); empty: max.
	EvidenceAggregate string `mapstructure:"evidence_aggregate" json:",omitempty"`
	// AtomicWords, when > 0, splits each claim of at least that many words
	// into atomic facts (one more request per claim), asked one by one; the
	// claim's P(supported) is its least supported fact's. 0: off.
	AtomicWords      int      `mapstructure:"atomic_words" json:",omitempty"`
	Delta            float64  `mapstructure:"delta"`
	StructuralWeight float64  `mapstructure:"structural_weight"`
	StructuralCost   float64  `mapstructure:"structural_cost"`
	Directed         bool     `mapstructure:"directed"`
	EmptyAsZero      bool     `mapstructure:"empty_as_zero"`
	Seed             int64    `mapstructure:"seed"`
	Pairs            []Pair   `mapstructure:"pairs"`
	Metrics          []string `mapstructure:"metrics"`
}

// CommunityMode returns s.Communities, louvain-per-graph when unset (a run
// recorded before the key existed).
func (s RunSettings) CommunityMode() string {
	if s.Communities == "" {
		return CommunitiesLouvainPerGraph
	}
	return s.Communities
}

// GraphParams returns the pair-graph and scoring parameters of s.
func (s RunSettings) GraphParams() GraphParams {
	return GraphParams{Tau: s.Tau, Delta: s.Delta, StructuralWeight: s.StructuralWeight, StructuralCost: s.StructuralCost,
		Directed: s.Directed, EmptyAsZero: s.EmptyAsZero, TauRel: s.TauRel}
}

// Claim-check modes of scoring.verify that ask the model about claims:
// prob asks about every claim, cascade only about those inside the
// calibration's band (the rest keep the score without the model).
const (
	VerifyProb    = "prob"
	VerifyCascade = "cascade"
)

// AsksClaims reports whether scoring.verify mode asks the model about
// claims (prob or cascade).
func AsksClaims(mode string) bool { return mode == VerifyProb || mode == VerifyCascade }

// EvidenceAggregates are the values of scoring.evidence_aggregate
// (RunSettings.EvidenceAggregate).
var EvidenceAggregates = []string{"max", "mean", "top2"}

// Community modes of the GDS engine (RunSettings.Communities).
const (
	CommunitiesLouvainPerGraph = "louvain-per-graph"
	CommunitiesBatch           = "batch"
	CommunitiesLeidenPerGraph  = "leiden-per-graph"
)

// Stages holds the seconds each stage of an evaluation took, added up over
// all attempts (extract, ground, embed, store, score, verify, metrics).
type Stages map[string]float64

// Calls is the model-call accounting of an evaluation or of one model
// client. All fields are totals.
type Calls struct {
	Calls     int64 `json:"calls"`     // requests that got an answer or failed on their own
	Cancelled int64 `json:"cancelled"` // requests abandoned by the caller (interrupted run)
	Failures  int64 `json:"failures"`
	Retries   int64 `json:"retries"`
	Repairs   int64 `json:"repairs"`
	CacheHits int64 `json:"cache_hits"`
	// Refused counts requests a cache-only client stopped before the
	// endpoint.
	Refused          int64         `json:"refused,omitempty"`
	PromptTokens     int64         `json:"prompt_tokens"`
	CompletionTokens int64         `json:"completion_tokens"`
	Latency          time.Duration `json:"latency_ns"`
}

// Add returns the sum of c and o (a resumed run adds the accounting of the
// processes that worked on it).
func (c Calls) Add(o Calls) Calls {
	return Calls{Calls: c.Calls + o.Calls, Cancelled: c.Cancelled + o.Cancelled, Failures: c.Failures + o.Failures, Retries: c.Retries + o.Retries,
		Repairs: c.Repairs + o.Repairs, CacheHits: c.CacheHits + o.CacheHits, Refused: c.Refused + o.Refused, PromptTokens: c.PromptTokens + o.PromptTokens,
		CompletionTokens: c.CompletionTokens + o.CompletionTokens, Latency: c.Latency + o.Latency}
}

// TextCounts counts the distinct texts an evaluation sent to extraction,
// by kind, and the bound 4 per sample + 1 per distinct passage.
type TextCounts struct {
	Answer    int `json:"answer"`
	Bound     int `json:"bound"`
	Contexts  int `json:"contexts"`
	Question  int `json:"question"`
	Reference int `json:"reference"`
	Total     int `json:"total"`
}

// GroundingCounts are the triplets the grounding check (SPEC §2b) kept and
// dropped, per text kind, in extraction.grounding mode Mode.
type GroundingCounts struct {
	Dropped map[Text]int `json:"dropped"`
	Kept    map[Text]int `json:"kept"`
	Mode    string       `json:"mode"`
}

// ShardState is what one worker of a sharded run (Run.Shards) recorded
// about its shard: its status and the accounting of all its attempts. The
// run becomes done, with the sums of its shards' stages and calls, when
// every shard is done.
type ShardState struct {
	Status  string
	Error   string
	Resumes int
	Stages  Stages
	Calls   *Calls
}

// RunUpdate changes fields of a run's record; nil fields stay as they are.
type RunUpdate struct {
	Status    *string
	Error     *string
	Samples   *int
	Rejected  *int
	Resumes   *int
	Finished  *time.Time
	Stages    Stages
	Calls     *Calls
	Texts     *TextCounts
	Grounding *GroundingCounts
	Ledger    Ledger
}

// UploadDataset is what a run of the dashboard upload id records as its
// dataset (Run.Dataset): "uploads/ID", the upload's place in
// web.state_dir, not the server's path to it.
func UploadDataset(id string) string { return "uploads/" + id }

// UploadOf returns the upload id of a Run.Dataset that UploadDataset made,
// and whether it is one.
func UploadOf(dataset string) (string, bool) {
	id, ok := strings.CutPrefix(dataset, "uploads/")
	return id, ok && id != "" && !strings.ContainsAny(id, `/\`)
}

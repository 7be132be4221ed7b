package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/minilm"
)

// StoreAdmin is what Doctor asks of the store.
type StoreAdmin interface {
	// Info returns the server's versions. Errors: EUNAVAILABLE without GDS.
	Info(ctx context.Context) (kgeval.StoreInfo, error)
	// Database names the database every query runs against.
	Database() string
	// MissingSchema lists the constraints and indexes Migrate would create.
	MissingSchema(ctx context.Context) ([]string, error)
	// Migrate creates them.
	Migrate(ctx context.Context) error
	// The stored runs' records, which the runs check cleans (RunRecords).
	RunRecords
}

// Check is one line of a doctor's report.
type Check struct {
	Name     string
	OK       bool
	Required bool
	Detail   string
	// Err is the error the check failed on (Detail holds its message); a
	// caller that advises on errors renders it again.
	Err error
}

// DoctorOptions are what Doctor checks and with what.
type DoctorOptions struct {
	// Store is the open store, or nil with StoreErr why it could not be
	// opened; URI is where it was looked for. Fix creates a missing schema.
	Store    StoreAdmin
	StoreErr error
	URI      string
	Fix      bool
	// CleanRun, if set, is what the runs check holds every stored run's
	// record to (configs.Config.CleanRun); Fix rewrites those it would
	// change (CleanRunRecords).
	CleanRun CleanRun
	// The model endpoint (llm.*); Required makes its absence a failure.
	LLMBaseURL, LLMKey, LLMModel string
	LLMRequired                  bool
	// LLMUses names the settings that ask the model
	// (configs.Config.ModelUses); none makes an unreachable endpoint fine.
	LLMUses []string
	// The encoder (embedding.*): an OpenAI-compatible endpoint, or a
	// local model in ModelDir.
	EmbeddingProvider, EmbeddingBaseURL, EmbeddingKey, EmbeddingModel, ModelDir string
}

// Doctor checks, one line each, that the store answers, that the Graph
// Data Science procedures are installed, that kgeval's schema is in place
// (creating it with Fix) and that the model endpoints are reachable.
func Doctor(ctx context.Context, o DoctorOptions) []Check {
	out := []Check{{Name: "config", OK: true, Required: true, Detail: "valid"}}
	if o.Store == nil {
		out = append(out, Check{Name: "neo4j", Required: true, Detail: kgeval.ErrorMessage(o.StoreErr), Err: o.StoreErr},
			Check{Name: "gds", Required: true, Detail: "not checked: Neo4j is not reachable"},
			Check{Name: "schema", Required: true, Detail: "not checked: Neo4j is not reachable"})
	} else {
		info, err := o.Store.Info(ctx)
		out = append(out, Check{Name: "neo4j", OK: info.Version != "", Required: true,
			Detail: fmt.Sprintf("Neo4j %s %s at %s, database %q", info.Version, info.Edition, o.URI, o.Store.Database())})
		if info.GDSVersion != "" {
			out = append(out, Check{Name: "gds", OK: true, Required: true, Detail: "Graph Data Science " + info.GDSVersion})
		} else {
			out = append(out, Check{Name: "gds", Required: true, Detail: kgeval.ErrorMessage(err), Err: err})
		}
		out = append(out, schemaCheck(ctx, o))
		if o.CleanRun != nil {
			out = append(out, runsCheck(ctx, o))
		}
	}
	return append(out, llmCheck(ctx, o), embeddingCheck(ctx, o))
}

func llmCheck(ctx context.Context, o DoctorOptions) Check {
	ch := Check{Name: "llm", Required: o.LLMRequired}
	if o.LLMBaseURL == "" {
		ch.Detail = "no endpoint configured (llm.base_url or OPENAI_BASE_URL)"
		return ch
	}
	if err := llm.Probe(ctx, o.LLMBaseURL, o.LLMKey); err != nil {
		if len(o.LLMUses) == 0 && !o.LLMRequired {
			ch.OK, ch.Detail = true, fmt.Sprintf("not needed: this configuration asks the model nothing (%s not running; `make llm-start` for scoring.verify cascade or prob, model extraction or the LLM-judged metrics)", o.LLMBaseURL)
			return ch
		}
		ch.Detail = fmt.Sprintf("%s not reachable: %v (start the local server with `make llm-start`; asked by %s)", o.LLMBaseURL, err, strings.Join(o.LLMUses, ", "))
		return ch
	}
	ch.OK, ch.Detail = true, fmt.Sprintf("model %s at %s", o.LLMModel, o.LLMBaseURL)
	return ch
}

func schemaCheck(ctx context.Context, o DoctorOptions) Check {
	missing, err := o.Store.MissingSchema(ctx)
	if err != nil {
		return Check{Name: "schema", Required: true, Detail: kgeval.ErrorMessage(err), Err: err}
	}
	if len(missing) > 0 && o.Fix {
		if err := o.Store.Migrate(ctx); err != nil {
			return Check{Name: "schema", Required: true, Detail: kgeval.ErrorMessage(err), Err: err}
		}
		if missing, err = o.Store.MissingSchema(ctx); err != nil {
			return Check{Name: "schema", Required: true, Detail: kgeval.ErrorMessage(err), Err: err}
		}
		if len(missing) == 0 {
			return Check{Name: "schema", OK: true, Required: true, Detail: "created kgeval's constraints and indexes"}
		}
	}
	if len(missing) > 0 {
		return Check{Name: "schema", Required: true, Detail: fmt.Sprintf("missing %s (run `kgeval doctor --fix`)", strings.Join(missing, ", "))}
	}
	return Check{Name: "schema", OK: true, Required: true, Detail: "constraints and indexes in place"}
}

// runsCheck reports the stored runs whose records hold more than a run
// records now (issue 49: every user's password hash and token sha256, the
// server's paths) and, with Fix, rewrites them. A warning, not a failure:
// kgeval serve cleans them at start too.
func runsCheck(ctx context.Context, o DoctorOptions) Check {
	c, err := CleanRunRecords(ctx, o.Store, o.CleanRun, !o.Fix)
	switch {
	case err != nil:
		return Check{Name: "runs", Detail: kgeval.ErrorMessage(err), Err: err}
	case c.Dirty == 0:
		return Check{Name: "runs", OK: true, Detail: fmt.Sprintf("%d run records hold only the configuration's allowlist and no server path", c.Runs)}
	case !o.Fix:
		return Check{Name: "runs", Detail: fmt.Sprintf("%d of %d run records hold more of the configuration than its allowlist (web users' password hashes, tokens, paths) or a server path: run `kgeval doctor --fix`", c.Dirty, c.Runs)}
	}
	return Check{Name: "runs", OK: true, Detail: fmt.Sprintf("rewrote %d of %d run records to the configuration's allowlist, without server paths", c.Cleaned, c.Runs)}
}

func embeddingCheck(ctx context.Context, o DoctorOptions) Check {
	ch := Check{Name: "embedding", Required: true}
	if o.EmbeddingProvider == "openai" {
		base := o.EmbeddingBaseURL
		if base == "" {
			base = o.LLMBaseURL
		}
		if err := llm.Probe(ctx, base, o.EmbeddingKey); err != nil {
			ch.Detail = fmt.Sprintf("%s not reachable: %v", base, err)
			return ch
		}
		ch.OK, ch.Detail = true, fmt.Sprintf("model %s at %s", o.EmbeddingModel, base)
		return ch
	}
	if f := minilm.MissingFile(o.ModelDir); f != "" {
		ch.Detail = fmt.Sprintf("local model %s missing %s in %s (run `make models`)", o.EmbeddingModel, f, o.ModelDir)
		return ch
	}
	ch.OK, ch.Detail = true, fmt.Sprintf("local %s in %s", o.EmbeddingModel, o.ModelDir)
	return ch
}

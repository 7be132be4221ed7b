package readmodel

import (
	"context"

	"github.com/kgeval/kgeval"
)

// The readers below are what the read models (package analysis), the
// dashboard (package web) and the CLI read runs back with; package
// graphstore implements them on Neo4j, beside the storage services of
// package kgeval. Every method returns *kgeval.Error values with the codes
// its comment names; any other failure is EINTERNAL, and EUNAVAILABLE
// always means the backing service cannot be reached.

// Reader is every read of the store.
type Reader interface {
	RunReader
	SampleReader
	ScoreReader
	GraphReader
}

// RunReader reads aggregates of stored runs.
type RunReader interface {
	// RunSummary is the number of scored graphs and the mean KG scores of
	// each pair of a run's variant (an aggregate the store computes).
	RunSummary(ctx context.Context, run, variant string) ([]PairSummary, error)
	// RunSystems lists the systems of a run's samples with their counts.
	RunSystems(ctx context.Context, run string) ([]SystemCount, error)
	// Variants lists the scoring variants stored for a run:
	// kgeval.DefaultVariant and one per sweep grid point.
	Variants(ctx context.Context, run string) ([]Variant, error)
	// RunSweep returns each pair's mean KG scores under every sweep
	// variant of a run (not kgeval.DefaultVariant), ordered by tau, delta
	// and pair; none when the run was never swept.
	RunSweep(ctx context.Context, run string) ([]VariantMeans, error)
}

// SampleReader reads the samples of runs back with their scores.
type SampleReader interface {
	// SampleGrounding reads the grounding check stored for one sample (nil
	// when none was). Errors: ENOTFOUND for an unknown sample.
	SampleGrounding(ctx context.Context, run, sample string) ([]kgeval.Grounding, error)
	// ListSamples returns a page of a run's samples, filtered and sorted,
	// each with its scores for every one of pairs. Errors: EINVALID for a
	// bad sort, metric or page.
	ListSamples(ctx context.Context, q SampleQuery, pairs []kgeval.Pair) (*SamplePage, error)
	// SampleOrder returns every sample q selects, in q's order, without
	// scores (q's Offset and Limit are ignored). Errors: EINVALID as
	// ListSamples.
	SampleOrder(ctx context.Context, q SampleQuery) ([]SampleRow, error)
	// SampleScores fills the Scores of rows (samples of run) for every one
	// of pairs, and their Metrics for every metric named in metrics.
	SampleScores(ctx context.Context, run, variant string, rows []SampleRow, pairs []kgeval.Pair, metrics []string) error
	// GetSample reads one sample with its scores and triplet verdicts for
	// every one of pairs, the triplets and best paths of its pair graphs,
	// its other metric values with their explanations and its grounding
	// check. Errors: ENOTFOUND.
	GetSample(ctx context.Context, run, id, variant string, pairs []kgeval.Pair) (*SampleDetail, error)
}

// ScoreReader reads KG scores and other metric values back as rows.
type ScoreReader interface {
	// ReadKGScore reads the stored scores and verdicts of one pair graph.
	// Errors: ENOTFOUND when none are stored.
	ReadKGScore(ctx context.Context, run, sample, pair, variant string) (StoredScore, error)
	// ReadMetricScores returns the metric values of one sample with their
	// explanations, in family then name order.
	ReadMetricScores(ctx context.Context, run, sample string) ([]kgeval.MetricScore, error)
	// RunScores returns one row per sample of a run, in record order, with
	// the KG scores of a variant and the other metric values.
	RunScores(ctx context.Context, run, variant string) ([]SampleScores, error)
	// RunKGScores returns the rows of RunScores with their KG scores only
	// (Metrics empty).
	RunKGScores(ctx context.Context, run, variant string) ([]SampleScores, error)
	// MetricExplanations returns, per sample of a run, the stored
	// explanations (JSON) of the named metrics.
	MetricExplanations(ctx context.Context, run string, metrics []string) (map[string]map[string][]byte, error)
	// RunClaims returns the claim checks of every KG score of a run's
	// variant that has them, by sample id and pair name.
	RunClaims(ctx context.Context, run, variant string) (map[string]map[string][]kgeval.ClaimCheck, error)
	// RunScoreRows returns every KG score of a run's variant with its
	// sample's system.
	RunScoreRows(ctx context.Context, run, variant string) ([]SystemScore, error)
	// RunMetricGroups returns a run's metric values grouped by metric and
	// by the system of their sample.
	RunMetricGroups(ctx context.Context, run string) ([]MetricGroup, error)
	// RunNullReasons returns why a run's metric values are null: per
	// metric its reasons with counts, most frequent first.
	RunNullReasons(ctx context.Context, run string) ([]ReasonCount, error)
}

// GraphReader reads stored pair graphs with their explanations.
type GraphReader interface {
	// ReadPairGraph reads one stored pair graph. Errors: ENOTFOUND.
	ReadPairGraph(ctx context.Context, run, sample, pair string) (*kgeval.PairGraph, error)
	// ReadRunGraphs reads every stored pair graph of a run, keyed by
	// kgeval.GraphID; graphs without any node are not stored.
	ReadRunGraphs(ctx context.Context, run string) (map[string]*kgeval.PairGraph, error)
	// ReadGraphExplanation reads a stored pair graph with its
	// communities and best paths. Errors: ENOTFOUND.
	ReadGraphExplanation(ctx context.Context, run, sample, pair string) (*GraphExplanation, error)
}

// Services is what the use cases and the dashboard read and write: the
// domain's storage services and the readers above (graphstore implements
// them on Neo4j). It is declared once, here, for package pipeline and
// package web alike.
type Services interface {
	kgeval.RunService
	kgeval.SampleService
	kgeval.ScoreService
	kgeval.PairGraphService
	Reader
}

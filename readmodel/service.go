package readmodel

import "context"

// The readers below are what the read models (package analysis), the
// dashboard (package web) and the CLI read runs back with; package
// graphstore implements them on Neo4j, beside the storage services of
// package kgeval. Every method returns *kgeval.Error values with the codes
// its comment names; any other failure is EINTERNAL, and EUNAVAILABLE
// always means the backing service cannot be reached.

// Reader is every read of the store.
type Reader interface {
	RunReader
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

// GraphReader reads stored pair graphs with their explanations.
type GraphReader interface {
	// ReadGraphExplanation reads a stored pair graph with its
	// communities and best paths. Errors: ENOTFOUND.
	ReadGraphExplanation(ctx context.Context, run, sample, pair string) (*GraphExplanation, error)
}

// Package readmodel is the read side of the domain: what the store returns
// when the CLI, the read models (package analysis) and the dashboard read
// runs back (sample pages and details, score rows, run summaries, sweep
// means, explained pair graphs), and the reader interfaces that return
// them. The root package kgeval holds what an evaluation writes (samples,
// triplets, pair graphs, KG results, metric values, run records) and the
// services that store it; this package builds on those types, and the root
// never imports it. Package graphstore implements both on Neo4j.
package readmodel

// Package kgeval is the domain of a knowledge-graph based evaluator for
// retrieval-augmented generation (RAG) systems: the types an evaluation
// writes, its one metric registry and the services that store them.
//
// A Sample is one RAG interaction: a question, the passages a retriever
// returned (contexts), the generated answer and optionally a reference. An
// Extractor turns each text into (subject, relation, object) Triplets. For
// a Pair of texts (question↔contexts, answer↔contexts, answer↔reference,
// question↔answer) the triplets of both sides become one PairGraph: entity
// nodes per side, a relation node per triplet, structural edges
// head→relation→tail, and SIMILAR edges from input entities to context
// entities whose label embeddings have cosine >= tau. A KGEngine scores it
// (arXiv 2510.02549): multihop, the share of input entities that reach a
// context entity by a path of cost <= delta (Dijkstra), and the Louvain
// community overlap and coverage; scoring.AssembleVerdicts turns the matches
// of an engine into a TripletVerdict per input triplet (support, contradiction,
// recall, F1, slot coverage). Each answer (or reference) is also split into
// claims (ClaimCheck): each gets an evidence window chosen by its pair graph,
// the model's P(supported) (ClaimVerifier, on by default), and a calibrated
// probability fitted across datasets; their mean is the pair's headline
// score. A Run records one
// evaluation of a dataset: its RunSettings, Stages and Calls. docs/SPEC-NOTES.md lists every
// interpretation of the SPEC.
//
// # Map
//
//	kgeval (this package)  domain types (KGResult keyed by the registry in
//	                       metricreg); service.go, cache.go, the services
//	                       with the error codes they return; error.go, the
//	                       application error and its codes
//	readmodel              the read side: sample pages and details, score
//	                       rows, run aggregates, the console's results and
//	                       the readers of them; Services, what the use cases
//	                       and the dashboard read and write
//	metricreg              the metric registry, a leaf (names, families,
//	                       directions, scales, meanings, validity types,
//	                       each KG metric's place in a KGResult's JSON)
//	pipeline               use cases: Evaluate (the run policy: start / resume /
//	                       replace, call accounting; it returns the scores it
//	                       holds), Sweep, Sensitivity, ExportCache, ImportCache,
//	                       Doctor; the Evaluator runs one
//	                       evaluation as stages (load, extract, ground,
//	                       rules, embed, build, score, verify, claims, store,
//	                       metrics, judge), each a method testable alone, in
//	                       a file of its own when it calls the scoring room
//	analysis               read models over stored rows (Reader caches a
//	                       finished run's views for the CLI and the dashboard):
//	                       statistics, correlations, comparisons, sweeps
//	analysis/check         the checks a run is held to: the validity report
//	                       (win rates with intervals) and the CI gate
//	analysis/fit           the claim verdicts measured on labelled data
//	                       (factcheck, the training mix left out one dataset
//	                       at a time) and the fits of claims.Calibration
//	stats                  the statistics (tested against SciPy)
//	scoring                the scoring room (pure, on domain types): grounding
//	                       and rule facts, pair-graph construction, the native
//	                       engine, the assembly of both engines' raw results
//	                       into scores and verdicts, sentence evidence, the
//	                       per-sample metrics
//	metrics, lexical       the deterministic metric formulas; the text library
//	                       under scoring, llm and metrics (literals by kind,
//	                       atoms, asked clauses, claims, sentence windows)
//	scoring/claims         claim checks (SPEC §4d): claims, the graph-chosen
//	                       evidence window, conflicts, features and the
//	                       calibrated claim score (calibration.json)
//	graphstore             Neo4j: storage of every node type, the GDS engine;
//	                       graphstoretest for tests
//	graphstore/console     the dashboard's read-only Cypher console: a query's
//	                       parse tree against an allowlist; its own connection
//	cypher                 every query, one per file, values as parameters;
//	                       cypher/parser, the console's Cypher 5 parser (ANTLR)
//	llm, minilm, judge     the model adapters: OpenAI-compatible client,
//	                       extractor and verifier; the local encoder; the judge
//	dataset, cachefile,    file formats: datasets (bounded while read), cache
//	export, traces         snapshots, score exports, OpenInference/OTLP traces
//	web                    the dashboard and JSON API (Gin): a handler parses,
//	                       makes one call (analysis.Reader, a service) and
//	                       renders
//	render                 the CLI's tables, reports and plots
//	configs                the configuration and its loading (defaults, file,
//	                       KGEVAL_* environment, flags)
//	runner                 the one Runner, built once from configs: store,
//	                       encoder, engines, each evaluation's model clients;
//	                       Evaluate(ctx, Request) for every caller
//	jobs                   the dashboard's jobs on the Runner: uploads, quotas,
//	                       owners, slots, the queue; Caller is who asks
//	app                    the dashboard's wiring: server, console, jobs
//	cmd/kgeval             the CLI: parses flags, asks runner, pipeline, analysis
//	                       and render, and adds its flag advice to errors
//	python                 the Python package of the wheel; it drives the binary
//
// Dependencies point inwards: the adapters import this package (and the
// pure scoring packages), not each other, except judge, which asks its
// questions through the llm client; web and pipeline know the services and
// readers, not graphstore; only runner and app build concrete adapters. This package imports the standard library, metricreg and
// golang.org/x/text (Unicode NFKC for label keys, Key), never readmodel.
// What computes over its types for one or two packages lives with them
// (the triplets of a built graph in scoring, the upload quota in jobs,
// Cosine in metrics); a method stays here when several do. docs/ARCHITECTURE.md
// draws these floors and the one way an evaluation travels through them.
package kgeval

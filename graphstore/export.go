package graphstore

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// kgeval.SampleScores is one exported row: a sample and its KG scores per pair.
type SampleScores struct {
	ID     string
	Record int
	System string
	// Question groups the answers of several systems to one question;
	// Human is the sample's human labels as stored (JSON, "null" if none).
	Question, Human string
	// Scores maps pair name to that pair's result (no explanation).
	Scores map[string]kgeval.KGResult
	// Metrics maps metric name to the sample's other metric values (no
	// explanation).
	Metrics map[string]kgeval.MetricScore
}

// ExportScores returns one row per sample of run, in record order, with the
// scores of variant, in one query. Its per-sample lookups grow with the
// square of the run's size: commands use RunScores, and tests use this one
// as an independent check of it.
func (db *DB) ExportScores(ctx context.Context, run, variant string) ([]kgeval.SampleScores, error) {
	recs, err := db.read(ctx, cypher.MustGet("export_scores"), map[string]any{"run": run, "variant": variant})
	if err != nil {
		return nil, mapError(err, "export scores")
	}
	out := make([]kgeval.SampleScores, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		row := kgeval.SampleScores{ID: asString(m["id"]), Record: int(asInt(m["record"])), System: asString(m["system"]),
			Question: asString(m["question"]), Human: asString(m["human"]), Scores: map[string]kgeval.KGResult{}, Metrics: map[string]kgeval.MetricScore{}}
		ms, _ := m["metrics"].([]any)
		for _, x := range ms {
			p, _ := x.(map[string]any)
			if p == nil {
				continue
			}
			s := kgeval.MetricScore{Sample: row.ID, Metric: asString(p["metric"]), Family: asString(p["family"]), Reason: asString(p["reason"])}
			if v, ok := p["value"].(float64); ok {
				s.Value = &v
			}
			row.Metrics[s.Metric] = s
		}
		scores, _ := m["scores"].([]any)
		for _, x := range scores {
			p, _ := x.(map[string]any)
			if p == nil {
				continue
			}
			r := kgResultFrom(row.ID, p)
			row.Scores[r.Pair] = r
		}
		out = append(out, row)
	}
	return out, nil
}

// kgeval.GraphExplanation is a stored pair graph with its explanation: each node's
// community, and each input entity's best cost, path and verdict.
type GraphExplanation struct {
	*kgeval.PairGraph
	Communities []*int                       `json:"communities"`
	Paths       map[int]kgeval.ExplainedPath `json:"paths"`
}

// kgeval.ExplainedPath is one input entity's multihop explanation.
type ExplainedPath struct {
	Cost   *float64 `json:"cost"`
	Path   []int    `json:"path"`
	Passed bool     `json:"passed"`
}

// ReadGraphExplanation reads a stored pair graph with its explanation.
// Errors: ENOTFOUND.
func (db *DB) ReadGraphExplanation(ctx context.Context, run, sample, pair string) (*kgeval.GraphExplanation, error) {
	g, recs, err := db.readPairGraph(ctx, run, sample, pair)
	if err != nil {
		return nil, err
	}
	ex := &kgeval.GraphExplanation{PairGraph: g, Communities: make([]*int, len(g.Nodes)), Paths: map[int]kgeval.ExplainedPath{}}
	for i, r := range recs {
		m := r.AsMap()
		if c, ok := m["community"].(int64); ok {
			v := int(c)
			ex.Communities[i] = &v
		}
		if g.Nodes[i].Kind != kgeval.KindEntity || g.Nodes[i].Side != kgeval.SideInput || m["passed"] == nil {
			continue
		}
		ep := kgeval.ExplainedPath{Passed: m["passed"] == true}
		if c, ok := m["best_cost"].(float64); ok {
			ep.Cost = &c
		}
		ids, _ := m["best_path"].([]any)
		for _, id := range ids {
			ep.Path = append(ep.Path, int(asInt(id)))
		}
		ex.Paths[i] = ep
	}
	return ex, nil
}

// kgeval.Variant is one stored scoring variant of a run.
type Variant struct {
	Name       string
	Tau, Delta float64
	Scores     int
}

// Variants lists the scoring variants stored for run: "default" and one
// per sweep grid point.
func (db *DB) Variants(ctx context.Context, run string) ([]kgeval.Variant, error) {
	recs, err := db.read(ctx, cypher.MustGet("run_variants"), map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "list variants")
	}
	out := make([]kgeval.Variant, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, kgeval.Variant{Name: asString(m["variant"]), Tau: asFloat(m["tau"]), Delta: asFloat(m["delta"]), Scores: int(asInt(m["scores"]))})
	}
	return out, nil
}

package graphstore

import (
	"context"
	"encoding/json"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// kgeval.DefaultVariant names the scores computed with the run's own parameters;
// sweeps store other variants beside it.
const DefaultVariant = "default"

// WriteKGResults stores KG scores with their explanations: one PairScore node
// per graph and variant, and, for the default variant, each node's community
// and each input entity's best cost, path and verdict on the stored nodes.
// Rewriting replaces.
func (db *DB) WriteKGResults(ctx context.Context, run, variant, engine string, p kgeval.GraphParams, results []kgeval.KGResult) error {
	var scores, ents, rels, verdicts []any
	for _, r := range results {
		gid := kgeval.GraphID(run, r.Sample, r.Pair)
		row := map[string]any{
			"uid": kgeval.JoinKey(gid, variant), "graph": gid, "run": run, "sample": r.Sample, "pair": r.Pair,
			"variant": variant, "engine": engine, "tau": p.Tau, "delta": p.Delta, "tau_rel": p.TauRel, "reason": r.Reason,
			"reasons": jsonText(r.Reasons), "verdicts": jsonText(r.Verdicts),
		}
		for _, m := range kgeval.KGMetricNames {
			row[m] = optional(r.Value(m))
		}
		scores = append(scores, row)
		if variant == kgeval.DefaultVariant {
			for _, v := range r.Verdicts {
				ev := any(nil)
				if v.Evidence != nil {
					ev = int64(v.Evidence.Node)
				}
				verdicts = append(verdicts, map[string]any{"uid": nodeUID(gid, v.Node), "verdict": v.Verdict, "evidence": ev, "model": v.Model})
			}
		}
		if variant != kgeval.DefaultVariant || r.Communities == nil {
			continue
		}
		input := map[int]kgeval.EntityPath{}
		for _, ep := range r.Paths {
			input[ep.Node] = ep
		}
		for nid, c := range r.Communities {
			if ep, ok := input[nid]; ok {
				path := make([]any, len(ep.PathIDs))
				for i, id := range ep.PathIDs {
					path[i] = int64(id)
				}
				ents = append(ents, map[string]any{"uid": nodeUID(gid, nid), "community": int64(c), "cost": optional(ep.Cost), "path": path, "passed": ep.Passed})
			} else {
				// Context entities and relation nodes: only the community. The
				// same row shape goes to both queries; each matches its label.
				ents = append(ents, map[string]any{"uid": nodeUID(gid, nid), "community": int64(c), "cost": nil, "path": nil, "passed": nil})
				rels = append(rels, map[string]any{"uid": nodeUID(gid, nid), "community": int64(c)})
			}
		}
	}
	for _, st := range []struct {
		q    string
		rows []any
	}{{"kgscore_write", scores}, {"kgscore_explain_entities", ents}, {"kgscore_explain_relations", rels}, {"kgscore_explain_verdicts", verdicts}} {
		for lo := 0; lo < len(st.rows); lo += 5000 {
			if _, err := db.write(ctx, cypher.MustGet(st.q), map[string]any{"rows": st.rows[lo:min(lo+5000, len(st.rows))]}); err != nil {
				return mapError(err, "write KG scores")
			}
		}
	}
	return nil
}

// kgeval.StoredScore is a pair graph's stored KG scores and what explains them.
type StoredScore struct {
	kgeval.KGResult
	Engine string
	// Explained counts entity nodes with a stored community; WithCost the
	// input entities with a stored best path cost.
	Explained, WithCost int
}

// ReadKGScore reads the stored scores of one pair graph and variant. Errors:
// ENOTFOUND when none are stored.
func (db *DB) ReadKGScore(ctx context.Context, run, sample, pair, variant string) (kgeval.StoredScore, error) {
	var st kgeval.StoredScore
	recs, err := db.read(ctx, cypher.MustGet("kgscore_read"), map[string]any{"uid": kgeval.JoinKey(kgeval.GraphID(run, sample, pair), variant)})
	if err != nil {
		return st, mapError(err, "read KG scores")
	}
	if len(recs) == 0 {
		return st, kgeval.Errorf(kgeval.ENOTFOUND, "no %s scores for sample %q pair %s in run %q", variant, sample, pair, run)
	}
	m := recs[0].AsMap()
	score, _ := m["score"].(map[string]any)
	r := kgResultFrom(sample, score)
	r.Pair = pair
	decodeJSONText(score["verdicts"], &r.Verdicts)
	return kgeval.StoredScore{KGResult: r, Engine: asString(score["engine"]), Explained: int(asInt(m["explained"])), WithCost: int(asInt(m["with_cost"]))}, nil
}

// kgResultFrom decodes a PairScore map projection (the queries return
// p {.pair, .multihop, ..., .reason, .reasons}) into a KGResult.
func kgResultFrom(sample string, x any) kgeval.KGResult {
	m, _ := x.(map[string]any)
	r := kgeval.KGResult{Sample: sample, Pair: asString(m["pair"]), Reason: asString(m["reason"])}
	for _, name := range kgeval.KGMetricNames {
		r.SetValue(name, optFloat(m[name]))
	}
	decodeJSONText(m["reasons"], &r.Reasons)
	return r
}

// jsonText encodes an explanation for a string property ("" for none).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" || string(b) == "{}" || string(b) == "[]" {
		return ""
	}
	return string(b)
}

// decodeJSONText decodes a property jsonText wrote; an empty or bad value
// leaves out unchanged.
func decodeJSONText(v any, out any) {
	if s, ok := v.(string); ok && s != "" {
		_ = json.Unmarshal([]byte(s), out)
	}
}

func optional(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

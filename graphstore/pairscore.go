package graphstore

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// Queries, resolved when the package loads.
var (
	qKgscoreRead             = statement("kgscore_read")
	qKgscoreScored           = statement("kgscore_scored")
	qKgscoreByUid            = statement("kgscore_by_uid")
	qKgscoreVerdictsByUid    = statement("kgscore_verdicts_by_uid")
	qKgscoreWithSystem       = statement("kgscore_with_system")
	qKgscoreWrite            = statement("kgscore_write")
	qKgscoreExplainEntities  = statement("kgscore_explain_entities")
	qKgscoreExplainRelations = statement("kgscore_explain_relations")
	qKgscoreExplainVerdicts  = statement("kgscore_explain_verdicts")
	qKgscoreClaimsRun        = statement("kgscore_claims_run")
)

// PairScore nodes: the KG scores of each pair graph and variant.

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
			"atoms": jsonText(r.Atoms), "typed_slots": jsonText(r.TypedSlots), "claims": jsonText(r.Claims),
		}
		for _, m := range metricreg.KGMetricNames {
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
		q    cypher.Statement
		rows []any
	}{{qKgscoreWrite, scores}, {qKgscoreExplainEntities, ents}, {qKgscoreExplainRelations, rels}, {qKgscoreExplainVerdicts, verdicts}} {
		for lo := 0; lo < len(st.rows); lo += 5000 {
			if _, err := db.write(ctx, st.q, map[string]any{"rows": st.rows[lo:min(lo+5000, len(st.rows))]}); err != nil {
				return mapError(err, "write KG scores")
			}
		}
	}
	return nil
}

// ReadKGScore reads the stored scores of one pair graph and variant. Errors:
// ENOTFOUND when none are stored.
func (db *DB) ReadKGScore(ctx context.Context, run, sample, pair, variant string) (readmodel.StoredScore, error) {
	var st readmodel.StoredScore
	recs, err := db.read(ctx, qKgscoreRead, map[string]any{"uid": kgeval.JoinKey(kgeval.GraphID(run, sample, pair), variant)})
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
	decodeJSONText(score["atoms"], &r.Atoms)
	decodeJSONText(score["typed_slots"], &r.TypedSlots)
	decodeJSONText(score["claims"], &r.Claims)
	return readmodel.StoredScore{KGResult: r, Engine: asString(score["engine"]), Explained: int(asInt(m["explained"])), WithCost: int(asInt(m["with_cost"]))}, nil
}

// kgResultFrom decodes a PairScore map projection (the queries return
// p {.pair, .multihop, ..., .reason, .reasons}) into a KGResult.
func kgResultFrom(sample string, x any) kgeval.KGResult {
	m, _ := x.(map[string]any)
	r := kgeval.KGResult{Sample: sample, Pair: asString(m["pair"]), Reason: asString(m["reason"])}
	for _, name := range metricreg.KGMetricNames {
		r.SetValue(name, optFloat(m[name]))
	}
	decodeJSONText(m["reasons"], &r.Reasons)
	return r
}

// ScoredGraphs returns the (sample, pair) pairs of run that have scores of
// variant, keyed by kgeval.JoinKey(sample, pair). Graphs left null because a text
// could not be extracted (reason kgeval.ReasonExtractionFailed...) are not
// included: a resumed run tries them again.
func (db *DB) ScoredGraphs(ctx context.Context, run, variant string) (map[string]bool, error) {
	recs, err := db.read(ctx, qKgscoreScored, map[string]any{"run": run, "variant": variant, "retry": kgeval.ReasonExtractionFailed})
	if err != nil {
		return nil, mapError(err, "read scored graphs")
	}
	out := make(map[string]bool, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out[kgeval.JoinKey(asString(m["sample"]), asString(m["pair"]))] = true
	}
	return out, nil
}
func (db *DB) scoresByUID(ctx context.Context, uids []any) ([]readmodel.StoredScore, error) {
	if len(uids) == 0 {
		return nil, nil
	}
	recs, err := db.read(ctx, qKgscoreByUid, map[string]any{"uids": uids})
	if err != nil {
		return nil, mapError(err, "read scores")
	}
	out := make([]readmodel.StoredScore, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, readmodel.StoredScore{
			KGResult: kgResultFrom(asString(m["sample"]), m["score"]),
			Engine:   asString(m["engine"]), Tau: floatOrNil(m["tau"]), Delta: floatOrNil(m["delta"]),
		})
	}
	return out, nil
}

// readVerdicts fills the Verdicts of the scores of byPair (by pair name)
// from the PairScores of uids; the sample lists leave them out.
func (db *DB) readVerdicts(ctx context.Context, uids []any, byPair map[string]*readmodel.StoredScore) error {
	if len(uids) == 0 {
		return nil
	}
	recs, err := db.read(ctx, qKgscoreVerdictsByUid, map[string]any{"uids": uids})
	if err != nil {
		return mapError(err, "read verdicts")
	}
	for _, r := range recs {
		m := r.AsMap()
		if s := byPair[asString(m["pair"])]; s != nil {
			decodeJSONText(m["verdicts"], &s.Verdicts)
			decodeJSONText(m["atoms"], &s.Atoms)
			decodeJSONText(m["typed_slots"], &s.TypedSlots)
			decodeJSONText(m["claims"], &s.Claims)
		}
	}
	return nil
}

// RunClaims returns the claim checks of every KG score of a run's variant
// that has them, by sample id and pair name (one scan).
func (db *DB) RunClaims(ctx context.Context, run, variant string) (map[string]map[string][]kgeval.ClaimCheck, error) {
	if variant == "" {
		variant = kgeval.DefaultVariant
	}
	recs, err := db.read(ctx, qKgscoreClaimsRun, map[string]any{"run": run, "variant": variant})
	if err != nil {
		return nil, mapError(err, "read claims")
	}
	out := map[string]map[string][]kgeval.ClaimCheck{}
	for _, r := range recs {
		m := r.AsMap()
		var cs []kgeval.ClaimCheck
		decodeJSONText(m["claims"], &cs)
		sample := asString(m["sample"])
		if out[sample] == nil {
			out[sample] = map[string][]kgeval.ClaimCheck{}
		}
		out[sample][asString(m["pair"])] = cs
	}
	return out, nil
}

// RunScoreRows returns every KG score of a run's variant with its sample's
// system (the verdicts left out).
func (db *DB) RunScoreRows(ctx context.Context, run, variant string) ([]readmodel.SystemScore, error) {
	if variant == "" {
		variant = kgeval.DefaultVariant
	}
	recs, err := db.read(ctx, qKgscoreWithSystem, map[string]any{"run": run, "variant": variant, "sep": kgeval.KeySep})
	if err != nil {
		return nil, mapError(err, "read run scores")
	}
	out := make([]readmodel.SystemScore, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, readmodel.SystemScore{System: asString(m["system"]), Score: kgResultFrom("", m["score"])})
	}
	return out, nil
}

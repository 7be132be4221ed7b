package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metrics"
	"github.com/kgeval/kgeval/lexical"
)

// tsPairs are the query and candidate texts of each triplet-similarity
// metric (SPEC §5).
var tsPairs = map[string][2]kgeval.Text{
	kgeval.MetricTSContextRelevancy: {kgeval.TextQuestion, kgeval.TextContexts},
	kgeval.MetricTSGroundedness:     {kgeval.TextAnswer, kgeval.TextContexts},
	kgeval.MetricTSCompleteness:     {kgeval.TextContexts, kgeval.TextAnswer},
	kgeval.MetricTSAnswerRelevancy:  {kgeval.TextQuestion, kgeval.TextAnswer},
}

// splitMetrics sorts the requested metric names into triplet-similarity
// base names, encoder metrics, word-overlap baselines and judge metrics.
func splitMetrics(names []string) (ts, enc, base, judge []string) {
	for _, n := range names {
		switch f := kgeval.MetricFamily(n); {
		case f == kgeval.FamilyKG || f == "":
		case f == kgeval.FamilyTS:
			for base := range tsPairs {
				if len(n) > len(base) && n[:len(base)] == base && !slices.Contains(ts, base) {
					ts = append(ts, base)
				}
			}
		case slices.Contains(kgeval.EncoderMetricNames, n):
			enc = append(enc, n)
		case f == kgeval.FamilyBaseline:
			base = append(base, n)
		default:
			judge = append(judge, n)
		}
	}
	slices.Sort(ts)
	return ts, enc, base, judge
}

// otherMetrics computes the triplet-similarity, encoder and baseline metrics
// of the samples (one batch of embeddings, cached by the embedder; each
// passage prepared once for the baselines).
func (e *Evaluator) otherMetrics(ctx context.Context, samples []kgeval.Sample, tri []kgeval.SampleTriplets, failed []map[kgeval.Text]string) ([]kgeval.MetricScore, error) {
	ts, enc, base, _ := splitMetrics(e.Metrics)
	_, _, prepared := e.lookups(samples)
	var out []kgeval.MetricScore
	null := func(sample, metric, reason string) {
		out = append(out, kgeval.MetricScore{Sample: sample, Metric: metric, Family: kgeval.MetricFamily(metric), Reason: reason})
	}
	// Every distinct text to embed: triplet texts and, for
	// semantic_similarity, whole answers and references.
	var texts []string
	seen := map[string]bool{}
	want := func(s string) {
		if !seen[s] {
			seen[s] = true
			texts = append(texts, s)
		}
	}
	side := func(si int, t kgeval.Text) []kgeval.Triplet {
		ts, _ := tri[si].Triplets(t)
		ts, _ = kgeval.CleanTriplets(ts, 0)
		return ts
	}
	for si, s := range samples {
		if len(ts) > 0 {
			for _, t := range []kgeval.Text{kgeval.TextQuestion, kgeval.TextAnswer, kgeval.TextContexts} {
				for _, x := range side(si, t) {
					want(x.Text())
				}
			}
		}
		if slices.Contains(enc, kgeval.MetricSemanticSimilarity) && s.Answer != "" && s.Reference != "" {
			want(s.Answer)
			want(s.Reference)
		}
	}
	vec := map[string][]float32{}
	for lo := 0; lo < len(texts); lo += 256 {
		part := texts[lo:min(lo+256, len(texts))]
		vs, err := e.Embedder.Embed(ctx, part)
		if err != nil {
			return nil, fmt.Errorf("embed triplets and answers: %w", err)
		}
		for i, t := range part {
			vec[t] = vs[i]
		}
	}
	for si, s := range samples {
		for _, base := range ts {
			q, c := tsPairs[base][0], tsPairs[base][1]
			if msg, bad := failed[si][q]; bad {
				for _, a := range kgeval.TSAggregates {
					null(s.ID, base+"_"+a, kgeval.ReasonExtractionFailed+string(q)+" failed: "+msg)
				}
				continue
			}
			if msg, bad := failed[si][c]; bad {
				for _, a := range kgeval.TSAggregates {
					null(s.ID, base+"_"+a, kgeval.ReasonExtractionFailed+string(c)+" failed: "+msg)
				}
				continue
			}
			mk := func(t kgeval.Text) metrics.Side {
				x := metrics.Side{Name: string(t), Triplets: side(si, t)}
				for _, tr := range x.Triplets {
					x.Vectors = append(x.Vectors, vec[tr.Text()])
				}
				return x
			}
			res, err := metrics.TripletSimilarity(mk(q), mk(c))
			if err != nil {
				return nil, err
			}
			expl, _ := json.Marshal(map[string]any{"query": q, "candidates": c, "matches": res.Matches})
			for _, a := range []struct {
				name string
				v    metrics.Value
			}{{"avg", res.Avg}, {"weighted", res.Weighted}, {"minimax", res.Minimax}} {
				out = append(out, kgeval.MetricScore{Sample: s.ID, Metric: base + "_" + a.name, Family: kgeval.FamilyTS,
					Value: a.v.V, Reason: a.v.Reason, Explanation: expl})
			}
		}
		for _, m := range base { // k_precision, the one baseline
			contexts := make([]*lexical.Text, len(s.Contexts))
			for i, c := range s.Contexts {
				contexts[i] = prepared(c)
			}
			v, missing := metrics.KPrecisionMissing(s.Answer, contexts)
			var expl json.RawMessage
			if v.V != nil {
				expl, _ = json.Marshal(map[string]any{"not_in_contexts": append([]string{}, missing...)})
			}
			out = append(out, kgeval.MetricScore{Sample: s.ID, Metric: m, Family: kgeval.FamilyBaseline, Value: v.V, Reason: v.Reason, Explanation: expl})
		}
		for _, m := range enc {
			switch {
			case s.Reference == "":
				null(s.ID, m, "no reference")
				continue
			case s.Answer == "":
				null(s.ID, m, "empty answer")
				continue
			}
			switch m {
			case kgeval.MetricSemanticSimilarity:
				v, err := metrics.SemanticSimilarity(vec[s.Answer], vec[s.Reference])
				if err != nil {
					return nil, err
				}
				out = append(out, kgeval.MetricScore{Sample: s.ID, Metric: m, Family: kgeval.FamilyRAGAS, Value: v.V, Reason: v.Reason})
			case kgeval.MetricBERTScoreF1:
				r, err := metrics.BERTScore(ctx, e.Tokens, s.Answer, s.Reference)
				if err != nil {
					return nil, fmt.Errorf("BERTScore of sample %s: %w", s.ID, err)
				}
				expl, _ := json.Marshal(map[string]float64{"precision": r.Precision, "recall": r.Recall, "f1": r.F1})
				out = append(out, kgeval.MetricScore{Sample: s.ID, Metric: m, Family: kgeval.FamilyRAGAS, Value: r.Score.V, Reason: r.Score.Reason, Explanation: expl})
			}
		}
	}
	return out, nil
}

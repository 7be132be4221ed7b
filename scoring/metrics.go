package scoring

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
)

// tsPairs are the query and candidate texts of each triplet-similarity
// metric (SPEC §5).
var tsPairs = map[string][2]kgeval.Text{
	metricreg.MetricTSContextRelevancy: {kgeval.TextQuestion, kgeval.TextContexts},
	metricreg.MetricTSGroundedness:     {kgeval.TextAnswer, kgeval.TextContexts},
	metricreg.MetricTSCompleteness:     {kgeval.TextContexts, kgeval.TextAnswer},
	metricreg.MetricTSAnswerRelevancy:  {kgeval.TextQuestion, kgeval.TextAnswer},
}

// SplitMetrics sorts the requested metric names into triplet-similarity
// base names, encoder metrics, word-overlap baselines and judge metrics.
func SplitMetrics(names []string) (ts, enc, base, judge []string) {
	for _, n := range names {
		switch f := metricreg.MetricFamily(n); {
		case f == metricreg.FamilyKG || f == "":
		case f == metricreg.FamilyTS:
			for base := range tsPairs {
				if len(n) > len(base) && n[:len(base)] == base && !slices.Contains(ts, base) {
					ts = append(ts, base)
				}
			}
		case slices.Contains(metricreg.EncoderMetricNames, n):
			enc = append(enc, n)
		case f == metricreg.FamilyBaseline:
			base = append(base, n)
		default:
			judge = append(judge, n)
		}
	}
	slices.Sort(ts)
	return ts, enc, base, judge
}

// MetricInput is what SampleMetrics computes the per-sample metrics from.
type MetricInput struct {
	Samples  []kgeval.Sample
	Triplets []kgeval.SampleTriplets
	// Failed maps, per sample, each text whose extraction failed to its
	// error: the triplet-similarity metrics that read it are null.
	Failed []map[kgeval.Text]string
	// TS, Encoder and Baseline are the metrics to compute (SplitMetrics):
	// triplet-similarity base names, encoder metrics and baselines.
	TS, Encoder, Baseline []string
	// Vectors holds the embedding of every text of MetricTexts.
	Vectors map[string][]float32
	// Tokens gives contextual token vectors for bert_score_f1 (nil: the
	// metric is null).
	Tokens kgeval.TokenEmbedder
	// Prepared returns a passage prepared for the lexical checks (the
	// caller's cache: a passage shared by many samples is prepared once).
	Prepared func(string) *lexical.Text
}

// side returns the cleaned triplets of text t of sample si.
func (in *MetricInput) side(si int, t kgeval.Text) []kgeval.Triplet {
	ts, _ := in.Triplets[si].Triplets(t)
	ts, _ = kgeval.CleanTriplets(ts, 0)
	return ts
}

// MetricTexts returns every distinct text that SampleMetrics needs
// embedded, in order of first appearance: triplet texts (for the
// triplet-similarity metrics) and, for semantic_similarity, whole answers
// and references. Only in's Samples, Triplets, TS and Encoder are read.
func MetricTexts(in *MetricInput) []string {
	var texts []string
	seen := map[string]bool{}
	want := func(s string) {
		if !seen[s] {
			seen[s] = true
			texts = append(texts, s)
		}
	}
	for si, s := range in.Samples {
		if len(in.TS) > 0 {
			for _, t := range []kgeval.Text{kgeval.TextQuestion, kgeval.TextAnswer, kgeval.TextContexts} {
				for _, x := range in.side(si, t) {
					want(x.Text())
				}
			}
		}
		if slices.Contains(in.Encoder, metricreg.MetricSemanticSimilarity) && s.Answer != "" && s.Reference != "" {
			want(s.Answer)
			want(s.Reference)
		}
	}
	return texts
}

// SampleMetrics computes the triplet-similarity, baseline and encoder
// metrics of every sample, in that order per sample.
func SampleMetrics(ctx context.Context, in *MetricInput) ([]kgeval.MetricScore, error) {
	var out []kgeval.MetricScore
	for si, s := range in.Samples {
		for _, base := range in.TS {
			ms, err := in.tripletSimilarity(si, base)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
		for _, m := range in.Baseline { // k_precision, the one baseline
			out = append(out, in.kPrecision(s, m))
		}
		for _, m := range in.Encoder {
			ms, err := in.encoderMetric(ctx, s, m)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
	}
	return out, nil
}

// nullScore is metric's null value for sample, with the reason.
func nullScore(sample, metric, reason string) kgeval.MetricScore {
	return kgeval.MetricScore{Sample: sample, Metric: metric, Family: metricreg.MetricFamily(metric), Reason: reason}
}

// tripletSimilarity computes the three aggregates of triplet-similarity
// metric base for sample si (SPEC §5); null when a text it reads failed
// extraction.
func (in *MetricInput) tripletSimilarity(si int, base string) ([]kgeval.MetricScore, error) {
	id := in.Samples[si].ID
	q, c := tsPairs[base][0], tsPairs[base][1]
	for _, t := range []kgeval.Text{q, c} {
		if msg, bad := in.Failed[si][t]; bad {
			var out []kgeval.MetricScore
			for _, a := range metricreg.TSAggregates {
				out = append(out, nullScore(id, base+"_"+a, kgeval.ReasonExtractionFailed+string(t)+" failed: "+msg))
			}
			return out, nil
		}
	}
	mk := func(t kgeval.Text) metrics.Side {
		x := metrics.Side{Name: string(t), Triplets: in.side(si, t)}
		for _, tr := range x.Triplets {
			x.Vectors = append(x.Vectors, in.Vectors[tr.Text()])
		}
		return x
	}
	res, err := metrics.TripletSimilarity(mk(q), mk(c))
	if err != nil {
		return nil, err
	}
	expl, _ := json.Marshal(map[string]any{"query": q, "candidates": c, "matches": res.Matches})
	var out []kgeval.MetricScore
	for _, a := range []struct {
		name string
		v    metrics.Value
	}{{"avg", res.Avg}, {"weighted", res.Weighted}, {"minimax", res.Minimax}} {
		out = append(out, kgeval.MetricScore{Sample: id, Metric: base + "_" + a.name, Family: metricreg.FamilyTS,
			Value: a.v.V, Reason: a.v.Reason, Explanation: expl})
	}
	return out, nil
}

// kPrecision computes baseline metric m (k_precision) of sample s, with
// the answer's words the contexts lack as its explanation.
func (in *MetricInput) kPrecision(s kgeval.Sample, m string) kgeval.MetricScore {
	contexts := make([]*lexical.Text, len(s.Contexts))
	for i, c := range s.Contexts {
		contexts[i] = in.Prepared(c)
	}
	v, missing := metrics.KPrecisionMissing(s.Answer, contexts)
	var expl json.RawMessage
	if v.V != nil {
		expl, _ = json.Marshal(map[string]any{"not_in_contexts": append([]string{}, missing...)})
	}
	return kgeval.MetricScore{Sample: s.ID, Metric: m, Family: metricreg.FamilyBaseline, Value: v.V, Reason: v.Reason, Explanation: expl}
}

// encoderMetric computes encoder metric m of sample s: semantic_similarity
// from the answer's and reference's vectors, bert_score_f1 from in.Tokens;
// null without a reference or an answer.
func (in *MetricInput) encoderMetric(ctx context.Context, s kgeval.Sample, m string) ([]kgeval.MetricScore, error) {
	switch {
	case s.Reference == "":
		return []kgeval.MetricScore{nullScore(s.ID, m, "no reference")}, nil
	case s.Answer == "":
		return []kgeval.MetricScore{nullScore(s.ID, m, "empty answer")}, nil
	}
	switch m {
	case metricreg.MetricSemanticSimilarity:
		v, err := metrics.SemanticSimilarity(in.Vectors[s.Answer], in.Vectors[s.Reference])
		if err != nil {
			return nil, err
		}
		return []kgeval.MetricScore{{Sample: s.ID, Metric: m, Family: metricreg.FamilyRAGAS, Value: v.V, Reason: v.Reason}}, nil
	case metricreg.MetricBERTScoreF1:
		r, err := metrics.BERTScore(ctx, in.Tokens, s.Answer, s.Reference)
		if err != nil {
			return nil, fmt.Errorf("BERTScore of sample %s: %w", s.ID, err)
		}
		expl, _ := json.Marshal(map[string]float64{"precision": r.Precision, "recall": r.Recall, "f1": r.F1})
		return []kgeval.MetricScore{{Sample: s.ID, Metric: m, Family: metricreg.FamilyRAGAS, Value: r.Score.V, Reason: r.Score.Reason, Explanation: expl}}, nil
	}
	return nil, nil // not an encoder metric (SplitMetrics gives none)
}

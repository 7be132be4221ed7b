package pipeline

import (
	"context"
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/scoring"
)

// metrics computes and stores the triplet similarity and encoder metrics
// in one batch (Report.Metrics).
func (v *evaluation) metrics(ctx context.Context) error {
	ms, err := v.otherMetrics(ctx)
	if err != nil {
		return err
	}
	if err := v.e.Store.WriteMetricScores(ctx, v.run, ms); err != nil {
		return err
	}
	v.rep.Metrics = ms
	return nil
}

// otherMetrics computes the triplet-similarity, encoder and baseline metrics
// of the samples (scoring.SampleMetrics) after one batch of embeddings
// (cached by the embedder).
func (v *evaluation) otherMetrics(ctx context.Context) ([]kgeval.MetricScore, error) {
	e := v.e
	in := &scoring.MetricInput{Samples: v.samples, Triplets: v.tri, Failed: v.failed, TS: v.fam.ts, Encoder: v.fam.enc, Baseline: v.fam.base,
		Vectors: map[string][]float32{}, Tokens: e.Tokens, Prepared: v.idx.prepared}
	texts := scoring.MetricTexts(in)
	for lo := 0; lo < len(texts); lo += 256 {
		part := texts[lo:min(lo+256, len(texts))]
		vs, err := e.Embedder.Embed(ctx, part)
		if err != nil {
			return nil, fmt.Errorf("embed triplets and answers: %w", err)
		}
		for i, t := range part {
			in.Vectors[t] = vs[i]
		}
	}
	return scoring.SampleMetrics(ctx, in)
}

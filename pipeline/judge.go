package pipeline

import (
	"context"
	"fmt"
	"sync"

	"github.com/kgeval/kgeval"
	"golang.org/x/sync/errgroup"
)

// judge computes the judge's metrics, JudgeConcurrency samples at a time,
// each stored as it comes (a killed run keeps what was judged; the answers
// are cached anyway).
func (v *evaluation) judge(ctx context.Context) error {
	if len(v.fam.judged) == 0 {
		return nil
	}
	return v.e.judgeAll(ctx, v.run, v.samples, v.fam.judged, v.fam.judgedFamily, v.rep, v.progress("judge"))
}

// judgeAll judges samples on metrics names (family: each one's family),
// JudgeConcurrency at a time, and stores each sample's values as soon as
// they come (a killed run keeps what was judged).
// The first error stops the samples not yet started.
func (e *Evaluator) judgeAll(ctx context.Context, run string, samples []kgeval.Sample, names []string, family map[string]string, rep *Report, progress func(int, int)) error {
	progress(0, len(samples))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(e.JudgeConcurrency, 1))
	var mu sync.Mutex
	done := 0
	for _, s := range samples {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			var got []kgeval.MetricScore
			if e.Judge == nil {
				for _, m := range names {
					got = append(got, kgeval.MetricScore{Sample: s.ID, Metric: m, Family: family[m], Reason: "no LLM judge configured"})
				}
			} else {
				var err error
				if got, err = e.Judge.Judge(gctx, s, names); err != nil {
					return fmt.Errorf("judge sample %s: %w", s.ID, err)
				}
			}
			// A finished judgement is stored even when the stage is
			// stopping (an interrupt, another sample's failure).
			mu.Lock()
			defer mu.Unlock()
			if err := e.Store.WriteMetricScores(context.WithoutCancel(gctx), run, got); err != nil {
				return err
			}
			rep.Metrics = append(rep.Metrics, got...)
			done++
			progress(done, len(samples))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/kgeval/kgeval/configs/configstest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/scoring"
)

// slowJudge stands in for the LLM judge to observe scheduling and inject a
// fault: it holds each sample for a while, records how many samples it holds
// at once, and fails on the sample named failOn. (The real judge is tested end
// to end against the local model in package judge.)
type slowJudge struct {
	mu           sync.Mutex
	now, maxSeen int
	judged       []string
	failOn       string
}

func (j *slowJudge) Judge(ctx context.Context, s kgeval.Sample, names []string) ([]kgeval.MetricScore, error) {
	j.mu.Lock()
	j.now++
	j.maxSeen = max(j.maxSeen, j.now)
	j.mu.Unlock()
	defer func() { j.mu.Lock(); j.now--; j.mu.Unlock() }()
	select {
	case <-time.After(150 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if s.ID == j.failOn {
		return nil, kgeval.Errorf(kgeval.EUNAVAILABLE, "injected: cache unreachable")
	}
	j.mu.Lock()
	j.judged = append(j.judged, s.ID)
	j.mu.Unlock()
	v := float64(len(s.ID))
	out := make([]kgeval.MetricScore, len(names))
	for i, n := range names {
		out[i] = kgeval.MetricScore{Sample: s.ID, Metric: n, Family: metricreg.MetricFamily(n), Value: &v}
	}
	return out, nil
}

// TestEvaluate_JudgeConcurrency judges 12 samples 3 at a time: every sample
// is judged once and stored, never more than 3 at once; a failing sample
// ends the stage with its error and the samples not started are left.
func TestEvaluate_JudgeConcurrency(t *testing.T) {
	res, err := dataset.Load(filepath.Join("..", "testdata", "triplets.jsonl"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var samples []kgeval.Sample
	for i := range 4 {
		for _, s := range res.Samples {
			s.ID = fmt.Sprintf("%s-%d", s.ID, i)
			samples = append(samples, s)
		}
	}
	m, err := minilm.Load(configstest.EncoderDir(t))
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	names := []string{"ragas_faithfulness", "factual_accuracy"}
	evaluator := func(j kgeval.Judge) *pipeline.Evaluator {
		return &pipeline.Evaluator{Extractor: noExtraction{t}, Embedder: m, Store: db, Engine: &scoring.Native{Seed: 42},
			Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs(), Metrics: names, Judge: j, JudgeConcurrency: 3}
	}

	t.Run("AllOnce", func(t *testing.T) {
		run := fmt.Sprintf("test-judgeconc-%d", time.Now().UnixNano())
		t.Cleanup(func() { db.DeleteRunGraphs(context.Background(), run) })
		j := &slowJudge{}
		rep, err := evaluator(j).Evaluate(ctx, run, samples)
		if err != nil {
			t.Fatal(err)
		}
		if j.maxSeen != 3 {
			t.Errorf("at most %d samples judged at once, want 3", j.maxSeen)
		}
		seen := map[string]int{}
		for _, id := range j.judged {
			seen[id]++
		}
		if len(j.judged) != len(samples) || len(seen) != len(samples) {
			t.Errorf("%d judgements of %d distinct samples, want %d once each", len(j.judged), len(seen), len(samples))
		}
		if len(rep.Metrics) != len(samples)*len(names) {
			t.Errorf("%d metric values, want %d", len(rep.Metrics), len(samples)*len(names))
		}
		stored, err := db.ReadMetricScores(ctx, run, samples[7].ID)
		if err != nil || len(stored) != len(names) || stored[0].Value == nil || *stored[0].Value != float64(len(samples[7].ID)) {
			t.Errorf("stored values of %s: %+v, %v", samples[7].ID, stored, err)
		}
	})

	t.Run("FaultStops", func(t *testing.T) {
		run := fmt.Sprintf("test-judgefault-%d", time.Now().UnixNano())
		t.Cleanup(func() { db.DeleteRunGraphs(context.Background(), run) })
		j := &slowJudge{failOn: samples[1].ID}
		_, err := evaluator(j).Evaluate(ctx, run, samples)
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || !strings.Contains(err.Error(), "judge sample "+samples[1].ID) {
			t.Fatalf("err = %v (%s), want EUNAVAILABLE naming %s", err, kgeval.ErrorCode(err), samples[1].ID)
		}
		if errors.Is(err, context.Canceled) {
			t.Errorf("err %v reads as an interrupt", err)
		}
		if len(j.judged) >= len(samples)-1 {
			t.Errorf("%d samples judged after the fault, want the unstarted ones left", len(j.judged))
		}
		for _, id := range j.judged {
			if got, err := db.ReadMetricScores(ctx, run, id); err != nil || len(got) != len(names) {
				t.Errorf("judged sample %s: %d values stored, %v", id, len(got), err)
			}
		}
		t.Logf("fault at %s: %d of %d samples judged and stored", samples[1].ID, len(j.judged), len(samples))
	})
}

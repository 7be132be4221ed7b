package llm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
)

func facts(nonce string) []kgeval.FactCheck {
	ev := []string{"It is Scheduled to get launched on Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC from Satish Dhawan Space Centre." + nonce}
	return []kgeval.FactCheck{
		{Subject: "PSLV-C56", Relation: "is launched on", Object: "30 July 2023", Evidence: ev},
		{Subject: "PSLV-C56", Relation: "is launched on", Object: "5 August 2023", Evidence: ev},
	}
}

// TestVerifier_Faults: an answer with a verdict missing is repaired, a
// model that never answers in shape is that batch's error (not a crash,
// not a silent verdict), and an answer is asked once: the second time it
// comes from the cache.
func TestVerifier_Faults(t *testing.T) {
	cache := MustCache(t)
	ctx := context.Background()
	t.Run("RepairThenCache", func(t *testing.T) {
		one := `{"verdicts": [{"id": 1, "verdict": "supported", "reason": "same date"}]}`
		two := `{"verdicts": [{"id": 1, "verdict": "supported", "reason": "same date"}, {"id": 2, "verdict": "contradicted", "reason": "other date"}]}`
		srv, n := faultServer(t, answer(one), answer(two))
		v := &llm.Verifier{Client: newClient(srv.URL), Cache: cache}
		batch := [][]kgeval.FactCheck{facts(fmt.Sprint(time.Now().UnixNano()))}
		got, errs, err := v.Verify(ctx, batch, nil)
		if err != nil || errs[0] != nil {
			t.Fatalf("err %v, batch err %v", err, errs[0])
		}
		if len(got[0]) != 2 || got[0][0].Verdict != kgeval.VerdictSupported || got[0][1].Verdict != kgeval.VerdictContradicted || n.Load() != 2 {
			t.Fatalf("verdicts %+v after %d requests, want supported and contradicted after a repair (2 requests)", got[0], n.Load())
		}
		again, _, err := v.Verify(ctx, batch, nil)
		if err != nil || n.Load() != 2 || len(again[0]) != 2 || again[0][1].Reason != "other date" {
			t.Errorf("second Verify: %+v, err %v, requests %d; want the cached answer and no request", again[0], err, n.Load())
		}
	})
	t.Run("Garbage", func(t *testing.T) {
		srv, _ := faultServer(t, answer(`{"verdicts": [{"id": 1, "verdict": "maybe", "reason": ""}]}`))
		v := &llm.Verifier{Client: newClient(srv.URL), Cache: cache}
		got, errs, err := v.Verify(ctx, [][]kgeval.FactCheck{facts(fmt.Sprint(time.Now().UnixNano()))}, nil)
		if err != nil || errs[0] == nil || got[0] != nil {
			t.Errorf("verdicts %v, batch err %v, err %v: want the batch's error and no verdict", got[0], errs[0], err)
		}
	})
}

// TestVerifier_EndToEnd asks the local model one real batch and checks the
// answer's shape, that it is cached, and logs the verdicts. A plumbing test:
// the verdicts are not asserted, because the bundled 1.5B model does not
// get this case right. Of 4 runs, one answered 30 July
// supported and 5 August contradicted; three answered 30 July not_found
// and 5 August supported (with the reason "contradicted"). How well the
// verifier judges lives in `make validity` and `make factcheck`.
func TestVerifier_EndToEnd(t *testing.T) {
	client := MustLocalLLM(t)
	v := &llm.Verifier{Client: client, Cache: MustCache(t)}
	batch := [][]kgeval.FactCheck{facts(fmt.Sprintf(" [test %d]", time.Now().UnixNano()))}
	start := time.Now()
	got, errs, err := v.Verify(context.Background(), batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	if errs[0] != nil {
		// The 1.5B model sometimes miscounts its verdicts even after the
		// repairs (11 of 131 WikiEval-50 batches; one ci-local run here):
		// that batch alone fails, as a model-format failure after every
		// repair was asked, and nothing is cached. The transport, the
		// repairs and the validation ran end to end; which verdicts a
		// small model gives is measured by make validity, not here.
		st := client.Stats()
		if !strings.Contains(errs[0].Error(), "gave no valid JSON") || st.Calls < 3 {
			t.Fatalf("batch err %v after %d calls: want only a model-format failure after the repairs", errs[0], st.Calls)
		}
		if _, errs2, _ := v.Verify(context.Background(), batch, nil); errs2[0] != nil && client.Stats().Calls == st.Calls {
			t.Errorf("a failed batch was answered from the cache: %v", errs2[0])
		}
		t.Logf("model-format failure (not cached; asked again): %v; stats %+v", errs[0], client.Stats())
		return
	}
	if len(got[0]) != 2 {
		t.Fatalf("%d verdicts for 2 facts", len(got[0]))
	}
	t.Logf("verdicts in %v: %+v; stats %+v", time.Since(start).Round(time.Second), got[0], client.Stats())
	calls := client.Stats().Calls
	if _, _, err := v.Verify(context.Background(), batch, nil); err != nil || client.Stats().Calls != calls {
		t.Errorf("second Verify made %d calls (err %v); want the cache", client.Stats().Calls-calls, err)
	}
}

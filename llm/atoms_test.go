package llm_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
)

// TestAtomicVerifier splits long claims into facts, asks each, and reads a
// claim as its least supported fact; short claims, single-fact splits,
// added words and garbage answers leave the claim as it is; an endpoint
// that keeps failing is the claim's error, not the batch's.
func TestAtomicVerifier(t *testing.T) {
	n := nonce()
	var splits atomic.Int32
	rec, url := claimServer(t, func(r claimRequest) (int, string, string, []top) {
		u := r.user()
		if first := r.Messages[1].Content; strings.HasPrefix(first, "Sentence: ") {
			u = first
			splits.Add(1)
			claim := strings.TrimPrefix(u, "Sentence: ")
			switch {
			case strings.Contains(claim, "overloaded"):
				return http.StatusServiceUnavailable, `{"error":"busy"}`, "", nil
			case strings.Contains(claim, "garbage"):
				return 0, "", "not json at all", nil
			case strings.Contains(claim, "single"):
				return 0, "", `{"facts": ["` + claim + `"]}`, nil
			case strings.Contains(claim, "invents"):
				return 0, "", `{"facts": ["Zebras graze quietly beside rivers everywhere.", "Wholly unrelated statements appear suddenly."]}`, nil
			}
			return 0, "", `{"facts": ["The bridge opened in 1937.", "The bridge spans 2500 metres.", "The bridge spans 2500 metres."]}`, nil
		}
		// A fact with 2500 in it is not stated; everything else is.
		if strings.Contains(u, "Claim: The bridge spans 2500") {
			return 0, "", "No", []top{{"No", -0.05}, {"Yes", -3}, {"Unknown", -4}}
		}
		return 0, "", "Yes", []top{{"Yes", -0.05}, {"No", -3}, {"Unknown", -4}}
	})
	cv := claimVerifier(t, url, llm.Config{MaxRepairs: 1})
	cv.Forms = []string{llm.FormThreeWay}
	forget(t, cv, rec)
	v := &llm.AtomicVerifier{Inner: cv, Words: 10}
	doc := []string{"The bridge opened in 1937 and spans 1280 metres." + n}
	long := "The bridge, which opened in 1937, spans 2500 metres across the strait" + n
	qs := []kgeval.ClaimQuery{
		{Evidence: doc, Claim: long},
		{Evidence: doc, Claim: "The bridge opened in 1937." + n}, // short: asked as it is
		{Evidence: doc, Claim: "This single sentence states only one thing, really" + n},
		{Evidence: doc, Claim: "The model invents facts this long sentence never states" + n},
		{Evidence: doc, Claim: "The model returns garbage for this long sentence here" + n},
		{Evidence: doc, Claim: "The endpoint is overloaded for this long sentence here" + n},
	}
	var last [2]int
	ps, errs, err := v.CheckClaims(context.Background(), qs, func(done, total int) { last = [2]int{done, total} })
	if err != nil {
		t.Fatal(err)
	}
	// 5 splits, then 6 questions: the long claim's 2 facts and 4 claims.
	if last != [2]int{11, 11} {
		t.Errorf("last progress %v; want [11 11] (5 splits, 6 questions)", last)
	}
	if errs[0] != nil || len(ps[0].Atoms) != 2 || len(ps[0].AtomP) != 2 {
		t.Fatalf("long claim: err %v, %+v; want 2 distinct facts", errs[0], ps[0])
	}
	if ps[0].P >= 0.5 || ps[0].P != min(ps[0].AtomP[0], ps[0].AtomP[1]) || ps[0].AtomP[0] < 0.5 || ps[0].Forms[llm.FormThreeWay] != ps[0].P {
		t.Errorf("long claim: P %.3f, facts %v: want the least supported fact's (<0.5)", ps[0].P, ps[0].AtomP)
	}
	if ps[0].Contradicted == nil || *ps[0].Contradicted < 0.5 || ps[0].Chunks != 2 {
		t.Errorf("long claim: P(contradicted) %v, chunks %d: want the most contradicted fact's and 2 requests", ps[0].Contradicted, ps[0].Chunks)
	}
	for i := 1; i <= 4; i++ {
		if errs[i] != nil || len(ps[i].Atoms) != 0 || ps[i].P < 0.5 {
			t.Errorf("query %d (%q): err %v, %+v; want the claim asked as it is", i, qs[i].Claim, errs[i], ps[i])
		}
	}
	if errs[5] == nil || !strings.Contains(errs[5].Error(), "atomic facts") {
		t.Errorf("overloaded endpoint: err %v; want the split's error on that claim", errs[5])
	}
	if got := splits.Load(); got < 5 {
		t.Errorf("%d split requests; want one for each long claim (5, and retries)", got)
	}
	calls := cv.Client.Stats().Calls
	again, errs, err := v.CheckClaims(context.Background(), qs[:5], nil)
	if err != nil || errs[0] != nil || cv.Client.Stats().Calls != calls || again[0].P != ps[0].P || !again[0].Cached {
		t.Errorf("again: %+v, err %v %v, %d calls; want the cached splits and answers", again[0], err, errs, cv.Client.Stats().Calls-calls)
	}
}

// TestAtomicVerifier_EndToEnd splits two long claims with the local model:
// one whose every fact the document states, and one with a wrong length.
// The split is asserted to give several facts in the claim's words, and
// the claim with the wrong fact to come out below the one without it and
// below 0.5 (the bundled 1.5B model, greedy: 3 facts each, P 0.913 with
// every fact stated, 0.045 with the wrong length; the other two facts
// 0.970 and 0.913 in both).
func TestAtomicVerifier_EndToEnd(t *testing.T) {
	client, _ := mustTappedLLM(t, 5*time.Minute)
	cv := &llm.ClaimVerifier{Client: client, Cache: MustCache(t), Forms: []string{llm.FormThreeWay}}
	v := &llm.AtomicVerifier{Inner: cv, Words: 12}
	doc := []string{"The Golden Gate Bridge opened in 1937. Its main span is 1,280 metres long. It crosses the Golden Gate strait." + nonce()}
	qs := []kgeval.ClaimQuery{
		{Evidence: doc, Claim: "The Golden Gate Bridge, which opened in 1937, has a main span of 1,280 metres and crosses the Golden Gate strait."},
		{Evidence: doc, Claim: "The Golden Gate Bridge, which opened in 1937, has a main span of 2,500 metres and crosses the Golden Gate strait."},
	}
	ps, errs, err := v.CheckClaims(context.Background(), qs, nil)
	if err != nil || errs[0] != nil || errs[1] != nil {
		t.Fatalf("err %v, %v", err, errs)
	}
	for i, p := range ps {
		t.Logf("claim %d: P %.3f, facts %q, their P %.3f", i, p.P, p.Atoms, p.AtomP)
		if len(p.Atoms) < 2 {
			t.Errorf("claim %d: %d facts; want the claim split", i, len(p.Atoms))
		}
	}
	if ps[1].P >= 0.5 || ps[1].P >= ps[0].P {
		t.Errorf("P(supported) with a wrong length %.3f, all stated %.3f: want < 0.5 and below", ps[1].P, ps[0].P)
	}
}

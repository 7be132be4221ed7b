package kgeval_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// fullKGResult sets every KG metric (to values whose encoding/json forms
// differ: integers, fractions, tiny and huge values) and every explanation,
// with strings that HTML escaping changes.
func fullKGResult() kgeval.KGResult {
	r := kgeval.KGResult{Sample: "s<1>&", Pair: "faithfulness",
		Reason:      "a <reason> & more",
		Reasons:     map[string]string{"recall": "n/a: only against the reference", "f1": "n/a: only against the reference"},
		Paths:       []kgeval.EntityPath{{Node: 1, Label: "Paris", Cost: kgeval.Float(0.25), Path: []string{"Paris", "France"}, PathIDs: []int{1, 2}, Passed: true}, {Node: 3, Label: "x"}},
		Communities: []int{0, 0, 1},
		Verdicts: []kgeval.TripletVerdict{{Node: 4, Subject: "Paris", Relation: "capital of", Object: "France", Verdict: "supported",
			Evidence: &kgeval.Evidence{Node: 7, Subject: "Paris", Relation: "is capital of", Object: "France", Passage: -1, Weight: 1}}},
		Atoms:      []kgeval.AtomCheck{{Text: "1889", Kind: "date", Start: 3, End: 7, Stated: true, Evidence: &kgeval.Evidence{Node: -1, Passage: 0, Start: 1, End: 20}}},
		Claims:     []kgeval.ClaimCheck{{Text: "Paris is the capital.", End: 21, Features: map[string]float64{"overlap": 0.5}, Score: 0.75, Verdict: "supported"}},
		TypedSlots: []kgeval.TypedSlotCheck{{Clause: "when was it built", Want: "date", Answered: true, Value: "1889"}},
	}
	for m, v := range map[string]float64{
		metricreg.MetricMultihop: 2.0 / 3, metricreg.MetricCommunityOverlap: 1e-7, metricreg.MetricCommunityCoverage: 123456789,
		metricreg.MetricClaimScore: 1, metricreg.MetricClaimScoreMin: 0, metricreg.MetricPSupported: 0.5, metricreg.MetricClaimContradiction: 1.0 / 3,
		metricreg.MetricSupport: 0.25, metricreg.MetricContradiction: 0.125, metricreg.MetricRecall: 1e21, metricreg.MetricF1: 0.1,
		metricreg.MetricSlotCoverage: 0.2, metricreg.MetricSupportText: 0.3, metricreg.MetricSlotCoverageText: 0.6, metricreg.MetricContradictionText: 0.4,
		metricreg.MetricAtomSupport: 0.7, metricreg.MetricTypedSlotCoverage: 0.8, metricreg.MetricSupportVerified: 0.9, metricreg.MetricContradictionVerified: 0.05,
	} {
		r.SetValue(m, kgeval.Float(v))
	}
	return r
}

// The JSON of a KGResult is the contract of the dashboard API, the stored
// fixtures and the tests: these strings are what the struct with one field
// per metric wrote before the scores were keyed by the metric registry,
// and must not change. StoredScore adds engine, tau and delta after them.
const (
	wantFullJSON        = `{"sample":"s\u003c1\u003e\u0026","pair":"faithfulness","multihop":0.6666666666666666,"community_overlap":1e-7,"community_coverage":123456789,"score":1,"score_min":0,"p_supported":0.5,"claim_contradiction":0.3333333333333333,"support":0.25,"contradiction":0.125,"recall":1e+21,"f1":0.1,"slot_coverage":0.2,"support_text":0.3,"slot_coverage_text":0.6,"contradiction_text":0.4,"atom_support":0.7,"typed_slot_coverage":0.8,"support_verified":0.9,"contradiction_verified":0.05,"reason":"a \u003creason\u003e \u0026 more","reasons":{"f1":"n/a: only against the reference","recall":"n/a: only against the reference"},"paths":[{"node":1,"label":"Paris","cost":0.25,"path":["Paris","France"],"path_ids":[1,2],"passed":true},{"node":3,"label":"x","cost":null,"passed":false}],"communities":[0,0,1],"verdicts":[{"node":4,"subject":"Paris","relation":"capital of","object":"France","verdict":"supported","evidence":{"node":7,"subject":"Paris","relation":"is capital of","object":"France","passage":-1,"weight":1}}],"atoms":[{"text":"1889","kind":"date","start":3,"end":7,"stated":true,"evidence":{"node":-1,"subject":"","relation":"","object":"","passage":0,"start":1,"end":20,"weight":0}}],"claims":[{"text":"Paris is the capital.","start":0,"end":21,"features":{"overlap":0.5},"score":0.75,"verdict":"supported"}],"typed_slots":[{"clause":"when was it built","want":"date","answered":true,"value":"1889"}]}`
	wantEmptyJSON       = `{"sample":"","pair":"","multihop":null,"community_overlap":null,"community_coverage":null,"score":null,"score_min":null,"p_supported":null,"claim_contradiction":null,"support":null,"contradiction":null,"recall":null,"f1":null,"slot_coverage":null,"support_text":null,"slot_coverage_text":null,"contradiction_text":null,"atom_support":null,"typed_slot_coverage":null,"support_verified":null,"contradiction_verified":null}`
	wantStoredJSON      = `{"sample":"s\u003c1\u003e\u0026","pair":"faithfulness","multihop":0.6666666666666666,"community_overlap":1e-7,"community_coverage":123456789,"score":1,"score_min":0,"p_supported":0.5,"claim_contradiction":0.3333333333333333,"support":0.25,"contradiction":0.125,"recall":1e+21,"f1":0.1,"slot_coverage":0.2,"support_text":0.3,"slot_coverage_text":0.6,"contradiction_text":0.4,"atom_support":0.7,"typed_slot_coverage":0.8,"support_verified":0.9,"contradiction_verified":0.05,"reason":"a \u003creason\u003e \u0026 more","reasons":{"f1":"n/a: only against the reference","recall":"n/a: only against the reference"},"paths":[{"node":1,"label":"Paris","cost":0.25,"path":["Paris","France"],"path_ids":[1,2],"passed":true},{"node":3,"label":"x","cost":null,"passed":false}],"communities":[0,0,1],"verdicts":[{"node":4,"subject":"Paris","relation":"capital of","object":"France","verdict":"supported","evidence":{"node":7,"subject":"Paris","relation":"is capital of","object":"France","passage":-1,"weight":1}}],"atoms":[{"text":"1889","kind":"date","start":3,"end":7,"stated":true,"evidence":{"node":-1,"subject":"","relation":"","object":"","passage":0,"start":1,"end":20,"weight":0}}],"claims":[{"text":"Paris is the capital.","start":0,"end":21,"features":{"overlap":0.5},"score":0.75,"verdict":"supported"}],"typed_slots":[{"clause":"when was it built","want":"date","answered":true,"value":"1889"}],"engine":"gds","tau":0.7,"delta":0.5}`
	wantStoredEmptyJSON = `{"sample":"","pair":"","multihop":null,"community_overlap":null,"community_coverage":null,"score":null,"score_min":null,"p_supported":null,"claim_contradiction":null,"support":null,"contradiction":null,"recall":null,"f1":null,"slot_coverage":null,"support_text":null,"slot_coverage_text":null,"contradiction_text":null,"atom_support":null,"typed_slot_coverage":null,"support_verified":null,"contradiction_verified":null}`
	// wantNoEscapeJSON is an encoder without HTML escaping (as cachefile
	// and dataset use): a KGResult inside a map, a pointer and a slice.
	wantNoEscapeJSON = `{"l":[{"sample":"","pair":"<p>","multihop":null,"community_overlap":null,"community_coverage":null,"score":null,"score_min":null,"p_supported":null,"claim_contradiction":null,"support":null,"contradiction":null,"recall":null,"f1":null,"slot_coverage":null,"support_text":null,"slot_coverage_text":null,"contradiction_text":null,"atom_support":null,"typed_slot_coverage":null,"support_verified":null,"contradiction_verified":null}],"r":{"sample":"s<1>&","pair":"faithfulness","multihop":0.6666666666666666,"community_overlap":1e-7,"community_coverage":123456789,"score":1,"score_min":0,"p_supported":0.5,"claim_contradiction":0.3333333333333333,"support":0.25,"contradiction":0.125,"recall":1e+21,"f1":0.1,"slot_coverage":0.2,"support_text":0.3,"slot_coverage_text":0.6,"contradiction_text":0.4,"atom_support":0.7,"typed_slot_coverage":0.8,"support_verified":0.9,"contradiction_verified":0.05,"reason":"a <reason> & more","reasons":{"f1":"n/a: only against the reference","recall":"n/a: only against the reference"},"paths":[{"node":1,"label":"Paris","cost":0.25,"path":["Paris","France"],"path_ids":[1,2],"passed":true},{"node":3,"label":"x","cost":null,"passed":false}],"communities":[0,0,1],"verdicts":[{"node":4,"subject":"Paris","relation":"capital of","object":"France","verdict":"supported","evidence":{"node":7,"subject":"Paris","relation":"is capital of","object":"France","passage":-1,"weight":1}}],"atoms":[{"text":"1889","kind":"date","start":3,"end":7,"stated":true,"evidence":{"node":-1,"subject":"","relation":"","object":"","passage":0,"start":1,"end":20,"weight":0}}],"claims":[{"text":"Paris is the capital.","start":0,"end":21,"features":{"overlap":0.5},"score":0.75,"verdict":"supported"}],"typed_slots":[{"clause":"when was it built","want":"date","answered":true,"value":"1889"}]},"s":{"sample":"s<1>&","pair":"faithfulness","multihop":0.6666666666666666,"community_overlap":1e-7,"community_coverage":123456789,"score":1,"score_min":0,"p_supported":0.5,"claim_contradiction":0.3333333333333333,"support":0.25,"contradiction":0.125,"recall":1e+21,"f1":0.1,"slot_coverage":0.2,"support_text":0.3,"slot_coverage_text":0.6,"contradiction_text":0.4,"atom_support":0.7,"typed_slot_coverage":0.8,"support_verified":0.9,"contradiction_verified":0.05,"reason":"a <reason> & more","reasons":{"f1":"n/a: only against the reference","recall":"n/a: only against the reference"},"paths":[{"node":1,"label":"Paris","cost":0.25,"path":["Paris","France"],"path_ids":[1,2],"passed":true},{"node":3,"label":"x","cost":null,"passed":false}],"communities":[0,0,1],"verdicts":[{"node":4,"subject":"Paris","relation":"capital of","object":"France","verdict":"supported","evidence":{"node":7,"subject":"Paris","relation":"is capital of","object":"France","passage":-1,"weight":1}}],"atoms":[{"text":"1889","kind":"date","start":3,"end":7,"stated":true,"evidence":{"node":-1,"subject":"","relation":"","object":"","passage":0,"start":1,"end":20,"weight":0}}],"claims":[{"text":"Paris is the capital.","start":0,"end":21,"features":{"overlap":0.5},"score":0.75,"verdict":"supported"}],"typed_slots":[{"clause":"when was it built","want":"date","answered":true,"value":"1889"}],"engine":"native"}}` + "\n"
)

func storedFull() readmodel.StoredScore {
	return readmodel.StoredScore{KGResult: fullKGResult(), Engine: "gds", Tau: kgeval.Float(0.7), Delta: kgeval.Float(0.5), Explained: 3}
}

func TestKGResultJSON(t *testing.T) {
	for name, c := range map[string]struct {
		v    any
		want string
	}{
		"full":         {fullKGResult(), wantFullJSON},
		"empty":        {kgeval.KGResult{}, wantEmptyJSON},
		"stored":       {storedFull(), wantStoredJSON},
		"stored empty": {readmodel.StoredScore{}, wantStoredEmptyJSON},
	} {
		got, err := json.Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: json.Marshal = %s (err %v)\nwant %s", name, got, err, c.want)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	full := fullKGResult()
	err := enc.Encode(map[string]any{"r": &full, "s": &readmodel.StoredScore{KGResult: fullKGResult(), Engine: "native"}, "l": []kgeval.KGResult{{Pair: "<p>"}}})
	if err != nil || b.String() != wantNoEscapeJSON {
		t.Errorf("encoder without HTML escaping: %s (err %v)\nwant %s", b.String(), err, wantNoEscapeJSON)
	}
}

// TestKGResultJSONRoundTrip reads back what it wrote: every metric, null
// or set, and every explanation.
func TestKGResultJSONRoundTrip(t *testing.T) {
	for name, want := range map[string]kgeval.KGResult{"full": fullKGResult(), "empty": {}} {
		b, _ := json.Marshal(want)
		var got kgeval.KGResult
		if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: round trip %+v (err %v)\nwant %+v", name, got, err, want)
		}
	}
	want := storedFull()
	want.Explained = 0 // not in the JSON
	var got readmodel.StoredScore
	if err := json.Unmarshal([]byte(wantStoredJSON), &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("stored: round trip %+v (err %v)\nwant %+v", got, err, want)
	}
	// A null overwrites a value already set, as it did a field.
	got.KGResult = fullKGResult()
	if err := json.Unmarshal([]byte(wantEmptyJSON), &got.KGResult); err != nil || got.Value(metricreg.MetricMultihop) != nil || got.Sample != "" {
		t.Errorf("null over a value: multihop %v, sample %q (err %v)", got.Value(metricreg.MetricMultihop), got.Sample, err)
	}
}

// TestKGJSONNames: the registry gives each KG metric one place in the JSON.
func TestKGJSONNames(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range metricreg.KGJSONNames {
		if mi, ok := metricreg.LookupMetric(m); !ok || mi.Family != metricreg.FamilyKG || seen[m] {
			t.Errorf("KGJSONNames: %q is not a KG metric, or twice", m)
		}
		seen[m] = true
	}
	if len(seen) != len(metricreg.KGMetricNames) {
		t.Errorf("KGJSONNames has %d metrics, KGMetricNames %d", len(seen), len(metricreg.KGMetricNames))
	}
}

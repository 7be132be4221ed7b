package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/render"
)

// explainSample is one sample with a scored faithfulness pair holding every
// kind of explanation (verdicts, claims, atoms, typed slots), an unscored
// pair, and triplets the grounding check dropped.
func explainSample() *readmodel.SampleDetail {
	passage := `PSLV-C56 was launched on 30 July 2023. The press called it "a routine flight".`
	launch := strings.Index(passage, "PSLV-C56")
	routine := strings.Index(passage, "The press")
	faith := kgeval.Pair{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}
	r := kgeval.KGResult{
		Reasons: map[string]string{metricreg.MetricRecall: kgeval.ReasonNotApplicable + "only against the reference"},
		Verdicts: []kgeval.TripletVerdict{
			{Node: 1, Subject: "PSLV-C56", Relation: "is", Object: "a routine flight", Verdict: kgeval.VerdictSupported,
				Evidence: &kgeval.Evidence{Subject: "press", Relation: "called it", Object: "a routine flight", Start: routine, End: len(passage)}},
			{Node: 2, Subject: "PSLV-C56", Relation: "launched on", Object: "5 August 2023", Verdict: kgeval.VerdictContradicted, Conflict: true,
				Evidence: &kgeval.Evidence{Subject: "PSLV-C56", Relation: "was launched on", Object: "30 July 2023", Start: launch, End: routine - 1}},
			{Node: 3, Subject: "PSLV-C56", Relation: "carries", Object: "DS-SAR", Verdict: kgeval.VerdictNotFound,
				Model: kgeval.VerdictNotFound, ModelReason: "the passage names no payload"},
		},
		Claims: []kgeval.ClaimCheck{
			{Text: "It was a routine flight.", Score: 0.91, Verdict: kgeval.ClaimSupported, EvidenceMode: "whole",
				Model:    &kgeval.ClaimProb{P: 0.88},
				Features: map[string]float64{kgeval.FeatureOverlap: 0.75},
				Evidence: []kgeval.ClaimEvidence{
					{Passage: 0, Text: `The press called it "a routine flight".`, Why: []string{"shares 3 words"}},
					{Passage: -1, Text: "from the reference", Why: []string{"reference"}},
					{Passage: 0, Text: "a third sentence, never shown"},
				}},
			{Text: "PSLV-C56 launched on 5 August 2023.", Score: 0.12, Verdict: kgeval.ClaimContradicted, EvidenceMode: "graph",
				Model:     &kgeval.ClaimProb{P: 0.07},
				Conflicts: []kgeval.ClaimConflict{{Kind: "date", Claim: "5 August 2023", Evidence: "30 July 2023", Sentence: "PSLV-C56 was launched on 30 July 2023."}}},
		},
		Atoms: []kgeval.AtomCheck{
			{Text: "PSLV-C56", Kind: "name", Stated: true},
			{Text: "5 August 2023", Kind: "date"},
		},
		TypedSlots: []kgeval.TypedSlotCheck{
			{Clause: "when was it launched", Want: "date", Answered: true, Value: "30 July 2023"},
			{Clause: "where from", Want: "place"},
		},
	}.With(metricreg.MetricSupport, fp(0.5)).With(metricreg.MetricContradiction, fp(0.25)).With(metricreg.MetricClaimScore, fp(0.375))
	return &readmodel.SampleDetail{ID: "s1", System: "grounded", Answer: "It was a routine flight. PSLV-C56 launched on 5 August 2023.",
		Contexts: []string{passage, "Second passage."},
		Pairs: []readmodel.PairDetail{
			{Pair: faith, Score: &readmodel.StoredScore{KGResult: r}},
			{Pair: kgeval.Pair{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer}}, // not scored
		},
		Grounding: []kgeval.Grounding{
			{Text: kgeval.TextContexts, Passage: 1, Dropped: []kgeval.DroppedTriplet{{Triplet: kgeval.Triplet{Subject: "ISRO", Relation: "built", Object: "the moon"}, Reason: "no word in the text"}}},
			{Text: kgeval.TextAnswer, Dropped: []kgeval.DroppedTriplet{{Triplet: kgeval.Triplet{Subject: "it", Relation: "is", Object: "blue"}, Reason: "object not in the text"}}},
		},
	}
}

// before fails the test unless a occurs in out, and before b.
func before(t *testing.T, out, a, b string) {
	t.Helper()
	i, j := strings.Index(out, a), strings.Index(out, b)
	if i < 0 || j < 0 || i > j {
		t.Errorf("want %q (at %d) before %q (at %d)", a, i, b, j)
	}
}

func TestExplain(t *testing.T) {
	var b bytes.Buffer
	render.Explain(&b, "my run", explainSample(), nil)
	out := b.String()
	t.Log("\n" + out)
	for _, want := range []string{
		"sample s1 (system grounded), run my run\n",
		"\nfaithfulness (answer → contexts): ",
		"score 0.38, support 0.50, contradiction 0.25\n",
		// Verdict lines: the label, the triplet, its evidence and the
		// sentence quoted (inner quotes escaped).
		"  CONTRADICTED (CONFLICT) (PSLV-C56; launched on; 5 August 2023)\n",
		"evidence (PSLV-C56; was launched on; 30 July 2023) [passage 1]\n",
		`"PSLV-C56 was launched on 30 July 2023."`,
		`"The press called it \"a routine flight\"."`,
		"  NOT FOUND     (PSLV-C56; carries; DS-SAR)\n",
		"model: not_found — the passage names no payload\n",
		// Claims: the count, the lowest score first, the model, the
		// conflict, at most two evidence sentences with where they are.
		"  claims: 1 of 2 supported\n",
		"  CONTRADICTED  0.12 \"PSLV-C56 launched on 5 August 2023.\"\n",
		"model P(supported) 0.07; evidence: graph\n",
		`conflict (date): "5 August 2023", the evidence says "30 July 2023" in "PSLV-C56 was launched on 30 July 2023."`,
		"model P(supported) 0.88, words 0.75; evidence: whole\n",
		`[passage 1] "The press called it \"a routine flight\"." (shares 3 words)`,
		`[reference] "from the reference" (reference)`,
		// Atoms and typed slots.
		"  names and values: 1 of 2 stated by the context side\n",
		"  NOT STATED    \"5 August 2023\" (date)\n",
		"  stated        \"PSLV-C56\"\n",
		"  ANSWERED      \"when was it launched\" asks for a date: \"30 July 2023\"\n",
		"  UNANSWERED    \"where from\" asks for a place: none stated\n",
		// Dropped triplets, by passage (1-based) or text.
		"\ndropped by the grounding check (in no graph, no score; the extractor's inventions):\n",
		"  passage 2  (ISRO; built; the moon) — no word in the text\n",
		"  answer     (it; is; blue) — object not in the text\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, not := range []string{"a third sentence", "recall", "answer_relevancy"} {
		if strings.Contains(out, not) {
			t.Errorf("%q printed: a third evidence sentence, a not-applicable null and an unscored pair are not", not)
		}
	}
	before(t, out, "CONTRADICTED (CONFLICT)", "SUPPORTED     (PSLV-C56; is; a routine flight)")
	before(t, out, "NOT FOUND", "SUPPORTED     (PSLV-C56; is; a routine flight)")
	before(t, out, "CONTRADICTED  0.12", "SUPPORTED     0.91")

	// only: a pair not asked for is left out, the dropped triplets stay.
	b.Reset()
	render.Explain(&b, "my run", explainSample(), []string{"context_relevancy"})
	if out := b.String(); strings.Contains(out, "faithfulness") || !strings.Contains(out, "dropped by the grounding check") {
		t.Errorf("only context_relevancy:\n%s", out)
	}
}

package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/analysis/fit"
	"github.com/kgeval/kgeval/render"
)

func fp(x float64) *float64 { return &x }

// TestFactcheck renders a hand-made report: the pass mark's direction, a
// row without numbers, the cv note, the cost lines and the CSV.
func TestFactcheck(t *testing.T) {
	rep := fit.Factcheck{Run: "r", Variant: "default", Dataset: "d.jsonl", Fingerprint: "0123456789abcdef", LLM: "u#m", Samples: 4,
		Labelled: 4, Positives: 2, Groups: 3, Claims: 5, WithModel: 5, Folds: 5, Lambda: 1,
		Rows: []fit.FactcheckRow{
			{Name: "faithfulness.score", Kind: fit.FactcheckMetric, N: 4, Positives: 2, AUROC: fp(0.75), AUROCLo: fp(0.5), AUROCHi: fp(1),
				BalancedAccuracy: fp(0.5), BALo: fp(0.25), BAHi: fp(0.75), Threshold: fp(0.6)},
			{Name: "faithfulness.claim_contradiction", Kind: fit.FactcheckMetric, LowerIsBetter: true, N: 4, AUROC: fp(0.6), AUROCLo: fp(0.2),
				AUROCHi: fp(1), BalancedAccuracy: fp(0.5), BALo: fp(0.5), BAHi: fp(0.5), Threshold: fp(0.25)},
			{Name: "combination (cv)", Kind: fit.FactcheckCV, Features: []string{"model_logit", "overlap"}, N: 4, Claims: 5, AUROC: fp(0.8),
				AUROCLo: fp(0.6), AUROCHi: fp(1)},
			{Name: "P(supported) alone (cv)", Kind: fit.FactcheckCV, Reason: "no stored claim has model_logit"},
		},
		Cost: fit.FactcheckCost{Calls: 5, PromptTokens: 500, Seconds: 2.5, Stages: []string{"claims"},
			PerClaim: &fit.CostShare{Calls: 1, PromptTokens: 100, Seconds: 0.5}},
	}
	var b bytes.Buffer
	render.Factcheck(&b, rep)
	out := b.String()
	for _, want := range []string{"run r (variant default): 4 samples of d.jsonl (sha256 0123456789ab), model m", "2 supported (1), 2 not (0); 0 without a label; 3 groups",
		">= 0.600", "<= 0.250", "5 claims; model_logit, overlap", "no stored claim has model_logit", "2.5 s in stage claims",
		"per claim: 1.00 calls, 100 prompt tokens, 0.500 s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "per sample:") {
		t.Errorf("a per-sample line without a share:\n%s", out)
	}
	b.Reset()
	if err := render.FactcheckCSV(&b, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "score,kind,features,lower_is_better,n,") ||
		lines[2] != "faithfulness.claim_contradiction,metric,,true,4,0,0,0.6,0.2,1,0.5,0.5,0.5,0.25," ||
		lines[4] != "P(supported) alone (cv),cv,,false,0,0,0,,,,,,,,no stored claim has model_logit" {
		t.Errorf("csv:\n%s", b.String())
	}
}

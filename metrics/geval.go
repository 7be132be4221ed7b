package metrics

import (
	"math"

	"github.com/kgeval/kgeval"
)

// GEval is factual_accuracy (SPEC §7) with its sub-scores.
type GEval struct {
	// Correctness, Completeness and Consistency are the LLM's sub-scores,
	// each on 0–10.
	Correctness  float64 `json:"correctness"`
	Completeness float64 `json:"completeness"`
	Consistency  float64 `json:"consistency"`
	// Score is 5·Correctness + 3·Completeness + 2·Consistency (0–100),
	// rounded to 2 decimals.
	Score float64 `json:"score"`
	// Grade is Grade(Score).
	Grade string `json:"grade"`
}

// FactualAccuracy weighs the GEval sub-scores, each on 0–10 (fractions
// allowed): correctness 50%, completeness 30%, consistency 20%, mapped to
// 0–100 and rounded to 2 decimals; the grade is taken from the rounded score.
// Errors: EINVALID when a sub-score is NaN or outside 0–10, so that the
// caller can retry the model.
func FactualAccuracy(correctness, completeness, consistency float64) (GEval, error) {
	for _, s := range [...]struct {
		name string
		v    float64
	}{{"correctness", correctness}, {"completeness", completeness}, {"consistency", consistency}} {
		if math.IsNaN(s.v) || s.v < 0 || s.v > 10 {
			return GEval{}, kgeval.Errorf(kgeval.EINVALID, "GEval %s %v is outside 0-10", s.name, s.v)
		}
	}
	// 10·(0.5c + 0.3m + 0.2s) with integer weights: exact for integer sub-scores.
	score := Round2(5*correctness + 3*completeness + 2*consistency)
	return GEval{
		Correctness:  correctness,
		Completeness: completeness,
		Consistency:  consistency,
		Score:        score,
		Grade:        Grade(score),
	}, nil
}

// Grade maps a factual_accuracy score (0–100) to a letter: A >= 80, B >= 60,
// C >= 40, D >= 20, else E (NaN included).
func Grade(score float64) string {
	switch {
	case score >= 80:
		return "A"
	case score >= 60:
		return "B"
	case score >= 40:
		return "C"
	case score >= 20:
		return "D"
	default:
		return "E"
	}
}

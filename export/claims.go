package export

import (
	"encoding/json"
	"io"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/readmodel"
)

// ClaimRow is one line of a claims export: one claim of a sample's pair
// (SPEC §4d) with its verdict, calibrated score, the model's P(supported)
// (null when the model was not asked), and its best evidence sentence.
type ClaimRow struct {
	ID     string `json:"id"`
	System string `json:"system,omitempty"`
	Pair   string `json:"pair"`
	// Claim is the claim's position in its text (0-based).
	Claim   int     `json:"claim"`
	Text    string  `json:"text"`
	Verdict string  `json:"verdict"`
	Score   float64 `json:"score"`
	// PSupported is the model's P(supported); PContradicted the three-way
	// form's P(contradicted).
	PSupported    *float64 `json:"p_supported"`
	PContradicted *float64 `json:"p_contradicted,omitempty"`
	// ChunkP is each evidence chunk's P(supported) when the evidence took
	// more than one request (scoring.evidence_aggregate reads them).
	ChunkP []float64 `json:"chunk_p,omitempty"`
	// Atoms and AtomP are the atomic facts the claim was split into and
	// each one's P(supported) (scoring.atomic_words).
	Atoms []string  `json:"atoms,omitempty"`
	AtomP []float64 `json:"atom_p,omitempty"`
	// Tokens is the prompt tokens the model's answer took, over its forms
	// and chunks (also when read from the cache: what it cost when asked).
	Tokens int `json:"tokens,omitempty"`
	// Evidence is the best evidence sentence ("" when the window is
	// empty), EvidencePassage its 1-based passage (0: the reference or
	// answer side), EvidenceWhy what reached it in the graph.
	Evidence        string                 `json:"evidence"`
	EvidencePassage int                    `json:"evidence_passage"`
	EvidenceWhy     []string               `json:"evidence_why,omitempty"`
	Conflicts       []kgeval.ClaimConflict `json:"conflicts,omitempty"`
	ModelError      string                 `json:"model_error,omitempty"`
	// Features are the signals the calibrated score combines, by name
	// (kgeval.ClaimCheck.Features), for fitting your own.
	Features map[string]float64 `json:"features,omitempty"`
}

// ClaimRows are the claim rows of rows, in row order, each row's pairs in
// the order of pairs, each pair's claims in text order.
func ClaimRows(rows []readmodel.SampleScores, pairs []kgeval.Pair) []ClaimRow {
	var out []ClaimRow
	for _, r := range rows {
		for _, p := range pairs {
			res, ok := r.Scores[p.Name]
			if !ok {
				continue
			}
			for i, c := range res.Claims {
				cr := ClaimRow{ID: r.ID, System: r.System, Pair: p.Name, Claim: i, Text: c.Text, Verdict: c.Verdict, Score: c.Score,
					Conflicts: c.Conflicts, ModelError: c.ModelError, Features: c.Features}
				if c.Model != nil {
					pv := c.Model.P
					cr.PSupported, cr.PContradicted, cr.ChunkP = &pv, c.Model.Contradicted, c.Model.ChunkP
					cr.Atoms, cr.AtomP, cr.Tokens = c.Model.Atoms, c.Model.AtomP, c.Model.Tokens
				}
				if len(c.Evidence) > 0 {
					e := c.Evidence[0]
					cr.Evidence, cr.EvidencePassage, cr.EvidenceWhy = e.Text, e.Passage+1, e.Why
				}
				out = append(out, cr)
			}
		}
	}
	return out
}

// WriteClaimsJSONL writes ClaimRows as JSONL.
func WriteClaimsJSONL(w io.Writer, rows []readmodel.SampleScores, pairs []kgeval.Pair) error {
	enc := json.NewEncoder(w)
	for _, c := range ClaimRows(rows, pairs) {
		if err := enc.Encode(c); err != nil {
			return err
		}
	}
	return nil
}

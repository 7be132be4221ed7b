package dataset

import (
	"bytes"
	"encoding/json"

	"github.com/kgeval/kgeval"
)

// jsonlRecord is one line of a dataset EncodeJSONL writes. Triplets lists only
// the texts whose triplets were provided, an empty list meaning "provided,
// none" (kgeval.SampleTriplets would drop it with omitempty).
type jsonlRecord struct {
	ID        string         `json:"id"`
	Question  string         `json:"question"`
	Contexts  []string       `json:"contexts"`
	Answer    string         `json:"answer"`
	Reference string         `json:"reference,omitempty"`
	System    string         `json:"system,omitempty"`
	Human     map[string]any `json:"human,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	Triplets  map[string]any `json:"triplets,omitempty"`
}

// EncodeJSONL renders samples as a JSONL dataset that Load reads back to
// the same samples (pre-extracted triplets included): the format of the
// sensitivity experiment's derived datasets.
func EncodeJSONL(samples []kgeval.Sample) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, s := range samples {
		r := jsonlRecord{ID: s.ID, Question: s.Question, Contexts: s.Contexts, Answer: s.Answer, Reference: s.Reference,
			System: s.System, Human: s.Human, Metadata: s.Metadata}
		if r.Contexts == nil {
			r.Contexts = []string{}
		}
		if t := s.Triplets; t != nil {
			r.Triplets = map[string]any{}
			for name, list := range map[string][]kgeval.Triplet{"question": t.Question, "answer": t.Answer, "reference": t.Reference} {
				if list != nil {
					r.Triplets[name] = tripletArrays(list)
				}
			}
			if t.Contexts != nil {
				ps := make([][][3]string, len(t.Contexts))
				for i, p := range t.Contexts {
					ps[i] = tripletArrays(p)
				}
				r.Triplets["contexts"] = ps
			}
		}
		if err := enc.Encode(r); err != nil {
			return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "derived dataset, sample %s", s.ID)
		}
	}
	return b.Bytes(), nil
}

func tripletArrays(ts []kgeval.Triplet) [][3]string {
	out := make([][3]string, len(ts))
	for i, t := range ts {
		out[i] = [3]string{t.Subject, t.Relation, t.Object}
	}
	return out
}

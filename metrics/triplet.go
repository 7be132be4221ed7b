package metrics

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// TripletText is the text a triplet is embedded as for SPEC §5,
// "subject relation object".
func TripletText(t kgeval.Triplet) string { return t.Text() }

// Side is one set of triplets of a triplet-similarity metric with their
// embeddings: Vectors[i] embeds TripletText(Triplets[i]).
type Side struct {
	// Name says where the triplets come from ("question", "answer",
	// "contexts"); it appears in null reasons.
	Name     string
	Triplets []kgeval.Triplet
	Vectors  [][]float32
}

// TripletMatch explains S_max for one query triplet.
type TripletMatch struct {
	Query string `json:"query"`
	// Best is the text of the candidate triplet with the highest cosine and
	// BestIndex its index in the candidate side (the first one on ties).
	Best      string  `json:"best"`
	BestIndex int     `json:"best_index"`
	Cos       float64 `json:"cos"`
	// Weight is w_i of the weighted aggregate.
	Weight float64 `json:"weight"`
	// Conflicts counts the candidates whose literals contradict the query's
	// (SPEC §3b: "founded in 2010" vs "founded in 2014"): their cosine is
	// taken as 0, whatever the encoder says.
	Conflicts int `json:"conflicts,omitempty"`
}

// TripletScores holds the three aggregates of one triplet-similarity metric
// (SPEC §5) and, as the explanation, the best match of each query triplet.
type TripletScores struct {
	Avg      Value          `json:"avg"`
	Weighted Value          `json:"weighted"`
	Minimax  Value          `json:"minimax"`
	Matches  []TripletMatch `json:"matches,omitempty"`
}

// TripletSimilarity compares the query side q with the candidate side c
// (SPEC §5; formulas in the package comment). An empty side makes the three
// aggregates null with the reason "no triplets extracted from <Name>".
// Errors: EINVALID when a side has a different number of triplets and
// vectors or vectors differ in length.
func TripletSimilarity(q, c Side) (TripletScores, error) {
	if err := q.check(); err != nil {
		return TripletScores{}, err
	}
	if err := c.check(); err != nil {
		return TripletScores{}, err
	}
	if len(q.Triplets) == 0 || len(c.Triplets) == 0 {
		s := q
		if len(q.Triplets) != 0 {
			s = c
		}
		n := Null("no triplets extracted from " + s.Name)
		return TripletScores{Avg: n, Weighted: n, Minimax: n}, nil
	}
	if dq, dc := len(q.Vectors[0]), len(c.Vectors[0]); dq != dc {
		return TripletScores{}, kgeval.Errorf(kgeval.EINVALID, "triplet vectors of %s have %d dimensions, of %s %d", q.Name, dq, c.Name, dc)
	}

	// w_i = 1/(k_i·s): k_i triplets share q_i's subject key, s subject keys.
	count := make(map[string]int, len(q.Triplets))
	for _, t := range q.Triplets {
		count[kgeval.Key(t.Subject)]++
	}
	subjects := float64(len(count))

	// Literal-aware (SPEC §3b): a candidate whose literals contradict the
	// query's counts as cosine 0.
	cl := make([]lexical.Label, len(c.Triplets))
	for j, t := range c.Triplets {
		cl[j] = lexical.NewLabel(TripletText(t))
	}
	out := TripletScores{Matches: make([]TripletMatch, len(q.Triplets))}
	var sum, weighted float64
	minimax := 2.0
	for i, qv := range q.Vectors {
		ql := lexical.NewLabel(TripletText(q.Triplets[i]))
		conflicts := 0
		cos := func(j int) float64 {
			if ql.IsLiteral() && cl[j].IsLiteral() && lexical.Compare(ql, cl[j]) == lexical.Conflict {
				conflicts++
				return 0
			}
			return Cosine(qv, c.Vectors[j])
		}
		best, bestCos := 0, cos(0)
		for j := 1; j < len(c.Vectors); j++ {
			if cs := cos(j); cs > bestCos {
				best, bestCos = j, cs
			}
		}
		w := 1 / (float64(count[kgeval.Key(q.Triplets[i].Subject)]) * subjects)
		out.Matches[i] = TripletMatch{
			Query:     TripletText(q.Triplets[i]),
			Best:      TripletText(c.Triplets[best]),
			BestIndex: best,
			Cos:       bestCos,
			Weight:    w,
			Conflicts: conflicts,
		}
		sum += bestCos
		weighted += float64(w * bestCos) // rounded, not fused: the same bits on every architecture
		minimax = min(minimax, bestCos)
	}
	out.Avg = Of(sum / float64(len(q.Triplets)))
	out.Weighted = Of(weighted)
	out.Minimax = Of(minimax)
	return out, nil
}

// check verifies that s has one vector per triplet, all of one length.
func (s Side) check() error {
	if len(s.Triplets) != len(s.Vectors) {
		return kgeval.Errorf(kgeval.EINVALID, "%s has %d triplets and %d vectors", s.Name, len(s.Triplets), len(s.Vectors))
	}
	for i, v := range s.Vectors {
		if len(v) != len(s.Vectors[0]) {
			return kgeval.Errorf(kgeval.EINVALID, "triplet vector %d of %s has %d dimensions, want %d", i, s.Name, len(v), len(s.Vectors[0]))
		}
	}
	return nil
}

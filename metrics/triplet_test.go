package metrics_test

import (
	"math"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metrics"
)

func tr(s, r, o string) kgeval.Triplet { return kgeval.Triplet{Subject: s, Relation: r, Object: o} }

func TestTripletText(t *testing.T) {
	if got := metrics.TripletText(tr("Paris", "capital of", "France")); got != "Paris capital of France" {
		t.Errorf("TripletText = %q", got)
	}
}

// Query triplets: two share the subject key "paris", one is about Berlin.
// Candidate vectors are chosen so that every cosine is a simple fraction.
func tripletSides() (q, c metrics.Side) {
	q = metrics.Side{
		Name: "question",
		Triplets: []kgeval.Triplet{
			tr("Paris", "capital of", "France"),
			tr(" paris", "has landmark", "Eiffel Tower"),
			tr("Berlin", "capital of", "Germany"),
		},
		Vectors: [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	}
	c = metrics.Side{
		Name: "contexts",
		Triplets: []kgeval.Triplet{
			tr("Eiffel Tower", "located in", "Paris"),
			tr("Berlin", "is not", "capital"),
			tr("France", "has capital", "Paris"),
		},
		// cos to q0, q1, q2: c0 0.6, 0.8, 0; c1 0, 0, -1; c2 1, 0, 0.
		Vectors: [][]float32{{3, 4, 0}, {0, 0, -2}, {1, 0, 0}},
	}
	return q, c
}

func TestTripletSimilarity(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		q, c := tripletSides()
		r, err := metrics.TripletSimilarity(q, c)
		if err != nil {
			t.Fatal(err)
		}
		// S_max = 1, 0.8, 0; weights 1/(2·2), 1/(2·2), 1/(1·2).
		EqualValue(t, "avg", r.Avg, 1.8/3)
		EqualValue(t, "weighted", r.Weighted, 0.25*1+0.25*0.8+0.5*0)
		EqualValue(t, "minimax", r.Minimax, 0)
		want := []metrics.TripletMatch{
			{Query: "Paris capital of France", Best: "France has capital Paris", BestIndex: 2, Cos: 1, Weight: 0.25},
			{Query: " paris has landmark Eiffel Tower", Best: "Eiffel Tower located in Paris", BestIndex: 0, Cos: 0.8, Weight: 0.25},
			// c0 and c2 tie at 0: the first wins.
			{Query: "Berlin capital of Germany", Best: "Eiffel Tower located in Paris", BestIndex: 0, Cos: 0, Weight: 0.5},
		}
		if len(r.Matches) != len(want) {
			t.Fatalf("%d matches, want %d", len(r.Matches), len(want))
		}
		for i, m := range r.Matches {
			if m != want[i] {
				t.Errorf("match %d = %+v, want %+v", i, m, want[i])
			}
		}
	})
	t.Run("DistinctSubjectsWeightedIsAvg", func(t *testing.T) {
		q, c := tripletSides()
		q.Triplets[1].Subject = "Eiffel Tower"
		r, err := metrics.TripletSimilarity(q, c)
		if err != nil {
			t.Fatal(err)
		}
		EqualValue(t, "avg", r.Avg, 1.8/3)
		EqualValue(t, "weighted", r.Weighted, 1.8/3)
	})
	t.Run("OneSubjectWeightedIsAvg", func(t *testing.T) {
		q, c := tripletSides()
		q.Triplets[2].Subject = "PARIS"
		r, err := metrics.TripletSimilarity(q, c)
		if err != nil {
			t.Fatal(err)
		}
		EqualValue(t, "weighted", r.Weighted, 1.8/3)
	})
	t.Run("NegativeMinimax", func(t *testing.T) {
		q, c := tripletSides()
		q.Triplets, q.Vectors = q.Triplets[2:], q.Vectors[2:]
		c.Triplets, c.Vectors = c.Triplets[1:2], c.Vectors[1:2]
		r, err := metrics.TripletSimilarity(q, c)
		if err != nil {
			t.Fatal(err)
		}
		EqualValue(t, "avg", r.Avg, -1)
		EqualValue(t, "weighted", r.Weighted, -1)
		EqualValue(t, "minimax", r.Minimax, -1)
	})
	t.Run("EmptyQuery", func(t *testing.T) {
		_, c := tripletSides()
		r, err := metrics.TripletSimilarity(metrics.Side{Name: "question"}, c)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]metrics.Value{"avg": r.Avg, "weighted": r.Weighted, "minimax": r.Minimax} {
			NullValue(t, name, v, "no triplets extracted from question")
		}
		if r.Matches != nil {
			t.Errorf("matches %v, want none", r.Matches)
		}
	})
	t.Run("EmptyCandidates", func(t *testing.T) {
		q, _ := tripletSides()
		r, err := metrics.TripletSimilarity(q, metrics.Side{Name: "answer"})
		if err != nil {
			t.Fatal(err)
		}
		NullValue(t, "avg", r.Avg, "no triplets extracted from answer")
		NullValue(t, "weighted", r.Weighted, "no triplets extracted from answer")
		NullValue(t, "minimax", r.Minimax, "no triplets extracted from answer")
	})
	t.Run("BothEmptyNamesQuery", func(t *testing.T) {
		r, err := metrics.TripletSimilarity(metrics.Side{Name: "contexts"}, metrics.Side{Name: "answer"})
		if err != nil {
			t.Fatal(err)
		}
		NullValue(t, "avg", r.Avg, "no triplets extracted from contexts")
	})
	t.Run("EINVALID/VectorCount", func(t *testing.T) {
		q, c := tripletSides()
		q.Vectors = q.Vectors[:2]
		_, err := metrics.TripletSimilarity(q, c)
		MustCode(t, err, kgeval.EINVALID)
	})
	t.Run("EINVALID/Dimensions", func(t *testing.T) {
		q, c := tripletSides()
		c.Vectors = [][]float32{{1, 0}, {0, 1}, {1, 1}}
		_, err := metrics.TripletSimilarity(q, c)
		MustCode(t, err, kgeval.EINVALID)
	})
	t.Run("EINVALID/RaggedSide", func(t *testing.T) {
		q, c := tripletSides()
		c.Vectors[1] = []float32{0, 1}
		_, err := metrics.TripletSimilarity(q, c)
		MustCode(t, err, kgeval.EINVALID)
	})
}

// TestTripletSimilarity_LiteralAware: a candidate stating another year is
// never the best match, however close its embedding (SPEC §3b applies to
// ts_* too).
func TestTripletSimilarity_LiteralAware(t *testing.T) {
	q := metrics.Side{Name: "answer", Triplets: []kgeval.Triplet{{Subject: "PharmaCann", Relation: "was founded in", Object: "2014"}},
		Vectors: [][]float32{{1, 0}}}
	c := metrics.Side{Name: "contexts", Triplets: []kgeval.Triplet{
		{Subject: "PharmaCann", Relation: "was founded in", Object: "2010"},
		{Subject: "PharmaCann", Relation: "is", Object: "a cannabis company"},
		{Subject: "PharmaCann", Relation: "opened a store in", Object: "2014"},
	}, Vectors: [][]float32{{0.95, 0.312}, {0.5, 0.866}, {0.6, 0.8}}}
	s, err := metrics.TripletSimilarity(q, c)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Matches[0]
	if m.BestIndex != 2 || math.Abs(m.Cos-0.6) > 1e-6 || m.Conflicts != 1 {
		t.Errorf("best %d cos %v conflicts %d; want the 2014 candidate (index 2, cos 0.6) and 1 conflict", m.BestIndex, m.Cos, m.Conflicts)
	}
}

// TestTripletSimilarity_ConflictScoresZero: a conflicting literal counts as
// cosine 0, not as a penalty below it. The only candidate states another
// year with a near-identical embedding: the match's cosine, the three
// aggregates, and the choice between a conflict and a candidate of negative
// cosine all read 0 for the conflict.
func TestTripletSimilarity_ConflictScoresZero(t *testing.T) {
	q := metrics.Side{Name: "answer", Triplets: []kgeval.Triplet{{Subject: "PharmaCann", Relation: "was founded in", Object: "2014"}},
		Vectors: [][]float32{{1, 0}}}
	t.Run("OnlyCandidate", func(t *testing.T) {
		c := metrics.Side{Name: "contexts", Triplets: []kgeval.Triplet{{Subject: "PharmaCann", Relation: "was founded in", Object: "2010"}},
			Vectors: [][]float32{{0.99, 0.141}}}
		s, err := metrics.TripletSimilarity(q, c)
		if err != nil {
			t.Fatal(err)
		}
		if m := s.Matches[0]; m.Cos != 0 || m.Conflicts != 1 {
			t.Errorf("match cos %v, conflicts %d; want 0 and 1", m.Cos, m.Conflicts)
		}
		for name, v := range map[string]metrics.Value{"avg": s.Avg, "weighted": s.Weighted, "minimax": s.Minimax} {
			if f, ok := v.Float(); !ok || f != 0 {
				t.Errorf("%s = %s, want 0", name, v)
			}
		}
	})
	t.Run("BeatsNegativeCosine", func(t *testing.T) {
		c := metrics.Side{Name: "contexts", Triplets: []kgeval.Triplet{
			{Subject: "Chicago", Relation: "is in", Object: "Illinois"},
			{Subject: "PharmaCann", Relation: "was founded in", Object: "2010"},
		}, Vectors: [][]float32{{-0.5, 0.866}, {0.99, 0.141}}}
		s, err := metrics.TripletSimilarity(q, c)
		if err != nil {
			t.Fatal(err)
		}
		if m := s.Matches[0]; m.BestIndex != 1 || m.Cos != 0 {
			t.Errorf("best %d cos %v; want the conflicting candidate (index 1) at cosine 0, above the other's -0.5", m.BestIndex, m.Cos)
		}
	})
}

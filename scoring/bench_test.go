package scoring_test

import (
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/scoringtest"
)

// BenchmarkNative_ScoreOne scores generated pair graphs (5-80 entities) with
// the native engine; graphs/s is reported.
func BenchmarkNative_ScoreOne(b *testing.B) {
	graphs := scoringtest.Random(500, 2510)
	e := &scoring.Native{}
	p := kgeval.DefaultGraphParams()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.ScoreOne(graphs[i%len(graphs)], p)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "graphs/s")
}

// BenchmarkBuild builds pair graphs from triplets and label vectors.
func BenchmarkBuild(b *testing.B) {
	graphs := scoringtest.Random(100, 3)
	type input struct{ in, ctx []kgeval.Triplet }
	var inputs []input
	vec := scoring.Vectors{}
	for _, g := range graphs {
		var x input
		for _, e := range g.Edges {
			if e.Type != kgeval.EdgeStructural || g.Nodes[e.From].Kind != kgeval.KindEntity {
				continue
			}
			rel := g.Nodes[e.To]
			var tail int
			for _, e2 := range g.Edges {
				if e2.From == rel.ID {
					tail = e2.To
				}
			}
			t := kgeval.Triplet{Subject: g.Nodes[e.From].Label, Relation: rel.Label, Object: g.Nodes[tail].Label}
			if rel.Side == kgeval.SideInput {
				x.in = append(x.in, t)
			} else {
				x.ctx = append(x.ctx, t)
			}
		}
		for j, k := range scoring.LabelKeys(x.in, x.ctx) {
			v := make([]float32, 384)
			v[j%384] = 1
			v[(j*7)%384] += 0.5
			vec[k] = v
		}
		inputs = append(inputs, x)
	}
	p := kgeval.DefaultGraphParams()
	pair := kgeval.DefaultPairs()[1]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := inputs[i%len(inputs)]
		if _, err := scoring.Build("s", pair, scoring.Side{Text: pair.Input, Triplets: x.in}, scoring.Side{Text: pair.Context, Triplets: x.ctx}, vec, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "graphs/s")
}

package graphstore

import (
	"fmt"
	"testing"

	"github.com/kgeval/kgeval"
)

// TestBatches: write transactions are cut by graph count and by rows, and a
// graph larger than the row cap goes alone.
func TestBatches(t *testing.T) {
	graph := func(rows int) *kgeval.PairGraph {
		return &kgeval.PairGraph{Nodes: make([]kgeval.Node, rows/2), Edges: make([]kgeval.Edge, rows-rows/2)}
	}
	of := func(rows ...int) []*kgeval.PairGraph {
		var gs []*kgeval.PairGraph
		for _, r := range rows {
			gs = append(gs, graph(r))
		}
		return gs
	}
	for _, tc := range []struct {
		graphs []*kgeval.PairGraph
		want   string
	}{
		{nil, "[]"},
		{of(10, 10, 10), "[[0 3]]"},
		{of(10, 10, 10, 10, 10), "[[0 3] [3 5]]"},   // 3 graphs at most
		{of(40, 70, 10, 90), "[[0 1] [1 3] [3 4]]"}, // 100 rows at most
		{of(250, 10, 10), "[[0 1] [1 3]]"},          // a large graph alone
		{of(10, 250), "[[0 1] [1 2]]"},
	} {
		if got := fmt.Sprint(batches(tc.graphs, 3, 100)); got != tc.want {
			t.Errorf("batches(%d graphs) = %s, want %s", len(tc.graphs), got, tc.want)
		}
	}
}

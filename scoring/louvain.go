package scoring

import (
	"github.com/kgeval/kgeval"
)

// LouvainOrdered is Louvain modularity optimisation (resolution 1) that visits
// nodes in id order and breaks ties in favour of the lowest community id,
// with no randomness: the same graph always gives the same communities, and
// the visiting order is the one Neo4j GDS uses at concurrency 1 on a
// projection built in node-id order, which keeps the two engines close.
func LouvainOrdered(g *kgeval.PairGraph) []int {
	n := len(g.Nodes)
	// Weighted undirected adjacency with parallel edges added up.
	adj := make([]map[int]float64, n)
	for i := range adj {
		adj[i] = map[int]float64{}
	}
	for _, e := range g.Edges {
		if e.From == e.To {
			adj[e.From][e.From] += 2 * e.Weight
			continue
		}
		adj[e.From][e.To] += e.Weight
		adj[e.To][e.From] += e.Weight
	}
	// member[v] is the community of original node v.
	member := make([]int, n)
	for i := range member {
		member[i] = i
	}
	for level := 0; level < 10; level++ {
		comm, moved := localMoving(adj)
		if !moved {
			break
		}
		// Renumber communities densely in order of first appearance.
		ids := map[int]int{}
		for _, c := range comm {
			if _, ok := ids[c]; !ok {
				ids[c] = len(ids)
			}
		}
		for v := range member {
			member[v] = ids[comm[member[v]]]
		}
		// Aggregate: one node per community.
		agg := make([]map[int]float64, len(ids))
		for i := range agg {
			agg[i] = map[int]float64{}
		}
		for u, nb := range adj {
			cu := ids[comm[u]]
			for v, w := range nb {
				agg[cu][ids[comm[v]]] += w
			}
		}
		adj = agg
		if len(ids) == 1 {
			break
		}
	}
	return member
}

// localMoving is the first Louvain phase: move each node, in order, to the
// neighbouring community with the largest positive modularity gain, until a
// full pass moves nothing.
func localMoving(adj []map[int]float64) ([]int, bool) {
	n := len(adj)
	comm := make([]int, n)
	k := make([]float64, n) // weighted degree (a self-loop counts twice)
	var m2 float64          // 2m
	for u, nb := range adj {
		comm[u] = u
		for _, w := range nb {
			k[u] += w
		}
		m2 += k[u]
	}
	if m2 == 0 {
		return comm, false
	}
	tot := append([]float64(nil), k...) // total degree per community
	moved := false
	for pass := 0; pass < 100; pass++ {
		changed := false
		for u := 0; u < n; u++ {
			cu := comm[u]
			// Weight from u to each neighbouring community.
			wTo := map[int]float64{}
			var order []int
			for v, w := range adj[u] {
				if v == u {
					continue
				}
				c := comm[v]
				if _, ok := wTo[c]; !ok {
					order = append(order, c)
				}
				wTo[c] += w
			}
			tot[cu] -= k[u]
			best, bestGain := cu, wTo[cu]-tot[cu]*k[u]/m2
			for _, c := range order {
				gain := wTo[c] - tot[c]*k[u]/m2
				if gain > bestGain+1e-12 || gain > bestGain-1e-12 && c < best {
					best, bestGain = c, gain
				}
			}
			tot[best] += k[u]
			if best != cu {
				comm[u] = best
				changed, moved = true, true
			}
		}
		if !changed {
			break
		}
	}
	return comm, moved
}

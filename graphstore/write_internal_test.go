package graphstore

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/scoring/scoringtest"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"golang.org/x/sync/errgroup"
)

// One statement per batch: each graph's nodes are created under their own
// label, collected in node-ID order, and its edges join them by list index
// (no index lookup per edge end).
var qWriteOne = cypher.Statement{Name: "write_one", Query: `
UNWIND $graphs AS g
CALL {
  WITH g
  UNWIND g.nodes AS n
  CREATE (x:$(n.kind))
  SET x = n.props
  RETURN collect(x) AS xs
}
UNWIND g.edges AS e
WITH xs[e.from] AS a, xs[e.to] AS b, e
CREATE (a)-[r:$(e.type)]->(b)
SET r.weight = e.weight, r.cost = e.cost`}

func (db *DB) writeOne(ctx context.Context, run string, graphs []*kgeval.PairGraph) error {
	var ids, gs []any
	for _, g := range graphs {
		gid := kgeval.GraphID(run, g.Sample, g.Pair)
		ids = append(ids, gid)
		nodes := make([]any, len(g.Nodes))
		for i, n := range g.Nodes {
			props := map[string]any{"uid": nodeUID(gid, n.ID), "graph": gid, "run": run, "sample": g.Sample, "pair": g.Pair,
				"nid": n.ID, "side": n.Side, "label": n.Label, "key": n.Key}
			kind := "Entity"
			if n.Kind == kgeval.KindRelation {
				kind = "Relation"
				props["passage"], props["start"], props["end"] = n.Passage, n.Start, n.End
			}
			nodes[i] = map[string]any{"kind": kind, "props": props}
		}
		edges := make([]any, len(g.Edges))
		for i, e := range g.Edges {
			typ := "REL"
			switch e.Type {
			case kgeval.EdgeConflict:
				typ = "CONFLICTS"
			case kgeval.EdgeSimilar:
				typ = "SIMILAR"
			}
			edges[i] = map[string]any{"from": e.From, "to": e.To, "type": typ, "weight": e.Weight, "cost": e.Cost}
		}
		gs = append(gs, map[string]any{"nodes": nodes, "edges": edges})
	}
	sess := db.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db.cfg.Database, AccessMode: neo4j.AccessModeWrite})
	defer sess.Close(ctx)
	_, err := sess.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		for _, st := range []struct {
			q cypher.Statement
			p map[string]any
		}{{qPairgraphDeleteRelations, map[string]any{"graphs": ids}}, {qPairgraphDeleteEntities, map[string]any{"graphs": ids}}, {qWriteOne, map[string]any{"graphs": gs}}} {
			if err := runConsume(ctx, tx, st.q, st.p); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	return err
}

// BenchmarkWriteShapes measures the write of 500 generated pair graphs by
// transaction size, statement shape and parallel writers (make bench; a
// measurement, so a benchmark: make test does not run it). rows/s counts
// nodes and edges.
func BenchmarkWriteShapes(b *testing.B) {
	if os.Getenv("KGEVAL_NEO4J_URI") == "" {
		b.Skip("set KGEVAL_NEO4J_URI (make bench does)")
	}
	ctx := context.Background()
	db, err := Open(ctx, Config{URI: os.Getenv("KGEVAL_NEO4J_URI"), User: "neo4j", Password: os.Getenv("KGEVAL_NEO4J_PASSWORD"), QueryTimeout: 10 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close(ctx)
	graphs := scoringtest.Random(500, 2510)
	rows := 0
	for _, g := range graphs {
		rows += len(g.Nodes) + len(g.Edges)
	}
	for _, size := range []int{100, 200} {
		for _, shape := range []string{"uid", "one"} {
			for _, par := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/batch-%d/writers-%d", shape, size, par), func(b *testing.B) {
					var spent time.Duration
					for i := 0; i < b.N; i++ {
						run := fmt.Sprintf("writeshape-%s-%d-%d-%d", shape, size, par, i)
						t0 := time.Now()
						var g errgroup.Group
						g.SetLimit(par)
						for _, r := range batches(graphs, size, 1<<30) {
							g.Go(func() error {
								if shape == "uid" {
									_, err := db.writeBatch(ctx, run, graphs[r[0]:r[1]])
									return err
								}
								return db.writeOne(ctx, run, graphs[r[0]:r[1]])
							})
						}
						if err := g.Wait(); err != nil {
							b.Fatal(err)
						}
						spent += time.Since(t0)
						b.StopTimer()
						db.DeleteRunGraphs(ctx, run)
						b.StartTimer()
					}
					b.ReportMetric(float64(rows*b.N)/spent.Seconds(), "rows/s")
				})
			}
		}
	}
}

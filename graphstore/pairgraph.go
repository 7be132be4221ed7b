package graphstore

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"golang.org/x/sync/errgroup"
)

// Queries, resolved when the package loads.
var (
	qPairgraphRead                  = statement("pairgraph_read")
	qPairgraphReadRun               = statement("pairgraph_read_run")
	qPairgraphDeleteRelations       = statement("pairgraph_delete_relations")
	qPairgraphDeleteEntities        = statement("pairgraph_delete_entities")
	qPairgraphEntities              = statement("pairgraph_entities")
	qPairgraphRelations             = statement("pairgraph_relations")
	qPairgraphEdgesHead             = statement("pairgraph_edges_head")
	qPairgraphEdgesTail             = statement("pairgraph_edges_tail")
	qPairgraphEdgesSimilar          = statement("pairgraph_edges_similar")
	qPairgraphEdgesSimilarRelations = statement("pairgraph_edges_similar_relations")
	qPairgraphEdgesConflicts        = statement("pairgraph_edges_conflicts")
)

// Entity and Relation nodes: the pair graphs.

// nodeUID is the id of node nid of the stored pair graph graph (a
// kgeval.GraphID).
func nodeUID(graph string, nid int) string { return kgeval.JoinKey(graph, strconv.Itoa(nid)) }

// A write transaction holds at most writeBatchSize pair graphs and, unless
// one graph alone is larger, writeBatchRows nodes and edges: Neo4j caps the
// memory of one transaction (dbms.memory.transaction.total.max), and graphs
// read by rule from long passages have thousands of rows each.
// writeWorkers transactions write at once (the graphs of two batches never
// share a node). Measured on 500 generated pair graphs (108,877 rows; `make
// bench`, "Pair-graph writes"; median of 3 on 2 quiet cores): 200 graphs
// per transaction, one writer 39,700 rows/s; 100 graphs, two writers
// 57,600; one statement per batch joining edges by list index instead of
// uid lookups gained no more (57,000 at 200 graphs and two writers).
const (
	writeBatchSize = 100
	writeBatchRows = 50_000
	writeWorkers   = 2
)

// WritePairGraphs stores the pair graphs of run: entity and relation nodes,
// structural and SIMILAR edges, each batch in one transaction with UNWIND,
// writeWorkers transactions at once.
// A graph that was stored before is replaced, never duplicated.
func (db *DB) WritePairGraphs(ctx context.Context, run string, graphs []*kgeval.PairGraph) (rows int, err error) {
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(writeWorkers)
	for _, b := range batches(graphs, writeBatchSize, writeBatchRows) {
		g.Go(func() error {
			n, err := db.writeBatch(gctx, run, graphs[b[0]:b[1]])
			mu.Lock()
			rows += n
			mu.Unlock()
			return err
		})
	}
	err = g.Wait()
	return rows, err
}

// batches cuts graphs into consecutive [start, end) ranges of at most
// maxGraphs graphs and, unless a graph alone has more, maxRows nodes and
// edges.
func batches(graphs []*kgeval.PairGraph, maxGraphs, maxRows int) [][2]int {
	var out [][2]int
	start, rows := 0, 0
	for i, g := range graphs {
		n := len(g.Nodes) + len(g.Edges)
		if i > start && (i-start >= maxGraphs || rows+n > maxRows) {
			out = append(out, [2]int{start, i})
			start, rows = i, 0
		}
		rows += n
	}
	if start < len(graphs) {
		out = append(out, [2]int{start, len(graphs)})
	}
	return out
}

func (db *DB) writeBatch(ctx context.Context, run string, graphs []*kgeval.PairGraph) (int, error) {
	var ids []any
	var ents, rels, heads, tails, sims, relSims, conflicts []any
	for _, g := range graphs {
		gid := kgeval.GraphID(run, g.Sample, g.Pair)
		ids = append(ids, gid)
		for _, n := range g.Nodes {
			row := map[string]any{
				"uid": nodeUID(gid, n.ID), "graph": gid, "run": run, "sample": g.Sample, "pair": g.Pair,
				"nid": n.ID, "side": n.Side, "label": n.Label,
			}
			switch n.Kind {
			case kgeval.KindEntity:
				row["key"] = n.Key
				if n.NonAnswer {
					row["non_answer"] = true
				}
				if len(n.Fits) > 0 {
					row["fits"] = n.Fits
				}
				ents = append(ents, row)
			case kgeval.KindSlot:
				// A slot is stored as an entity node marked slot (it is in
				// no V_in; see kgeval.KindSlot).
				row["key"], row["slot"] = n.Key, true
				if n.Want != "" {
					row["want"] = n.Want
				}
				ents = append(ents, row)
			default:
				row["key"], row["passage"], row["start"], row["end"] = n.Key, n.Passage, n.Start, n.End
				if n.Source != "" {
					row["source"] = n.Source
				}
				rels = append(rels, row)
			}
		}
		for _, e := range g.Edges {
			row := map[string]any{"from": nodeUID(gid, e.From), "to": nodeUID(gid, e.To), "weight": e.Weight, "cost": e.Cost}
			switch {
			case e.Type == kgeval.EdgeConflict:
				conflicts = append(conflicts, row)
			case e.Type == kgeval.EdgeSimilar && g.Nodes[e.From].Kind == kgeval.KindRelation:
				relSims = append(relSims, row)
			case e.Type == kgeval.EdgeSimilar:
				sims = append(sims, row)
			case g.Nodes[e.From].Kind != kgeval.KindRelation:
				heads = append(heads, row)
			default:
				tails = append(tails, row)
			}
		}
	}
	steps := []struct {
		query cypher.Statement
		rows  []any
		key   string
	}{
		{qPairgraphDeleteRelations, ids, "graphs"},
		{qPairgraphDeleteEntities, ids, "graphs"},
		{qPairgraphEntities, ents, "rows"},
		{qPairgraphRelations, rels, "rows"},
		{qPairgraphEdgesHead, heads, "rows"},
		{qPairgraphEdgesTail, tails, "rows"},
		{qPairgraphEdgesSimilar, sims, "rows"},
		{qPairgraphEdgesSimilarRelations, relSims, "rows"},
		{qPairgraphEdgesConflicts, conflicts, "rows"},
	}
	sess := db.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db.cfg.Database, AccessMode: neo4j.AccessModeWrite})
	defer sess.Close(ctx)
	_, err := sess.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		for _, st := range steps {
			if len(st.rows) == 0 {
				continue
			}
			if err := runConsume(ctx, tx, st.query, map[string]any{st.key: st.rows}); err != nil {
				return nil, fmt.Errorf("%s: %w", st.query.Name, err)
			}
		}
		return nil, nil
	}, neo4j.WithTxTimeout(db.cfg.QueryTimeout))
	if err != nil {
		return 0, mapError(err, "write pair graphs")
	}
	return len(ents) + len(rels) + len(heads) + len(tails) + len(sims) + len(relSims) + len(conflicts), nil
}

// ReadPairGraph reads one stored pair graph back. Errors: ENOTFOUND when
// nothing is stored under run, sample and pair.
func (db *DB) ReadPairGraph(ctx context.Context, run, sample, pair string) (*kgeval.PairGraph, error) {
	g, _, err := db.readPairGraph(ctx, run, sample, pair)
	return g, err
}
func (db *DB) readPairGraph(ctx context.Context, run, sample, pair string) (*kgeval.PairGraph, []*neo4j.Record, error) {
	recs, err := db.read(ctx, qPairgraphRead, map[string]any{"graph": kgeval.GraphID(run, sample, pair)})
	if err != nil {
		return nil, nil, mapError(err, "read pair graph")
	}
	if len(recs) == 0 {
		return nil, nil, kgeval.Errorf(kgeval.ENOTFOUND, "no pair graph %s for sample %q in run %q", pair, sample, run)
	}
	g := &kgeval.PairGraph{Sample: sample, Pair: pair, Nodes: make([]kgeval.Node, len(recs))}
	for i, r := range recs {
		m := r.AsMap()
		n := nodeFrom(m)
		if i != n.ID {
			return nil, nil, kgeval.Errorf(kgeval.EINTERNAL, "pair graph %s of %q: node ids are not dense", pair, sample)
		}
		g.Nodes[i] = n
		g.Edges = append(g.Edges, edgesFrom(n.ID, m["out"])...)
	}
	return g, recs, nil
}

// ReadRunGraphs reads every stored pair graph of run, keyed by
// kgeval.GraphID(run, sample, pair). Graphs without any node (both sides empty) are
// not stored and so not returned.
func (db *DB) ReadRunGraphs(ctx context.Context, run string) (map[string]*kgeval.PairGraph, error) {
	recs, err := db.read(ctx, qPairgraphReadRun, map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read pair graphs of "+run)
	}
	out := map[string]*kgeval.PairGraph{}
	for _, r := range recs {
		m := r.AsMap()
		sample, pair := asString(m["sample"]), asString(m["pair"])
		id := kgeval.GraphID(run, sample, pair)
		g := out[id]
		if g == nil {
			g = &kgeval.PairGraph{Sample: sample, Pair: pair}
			out[id] = g
		}
		n := nodeFrom(m)
		if n.ID != len(g.Nodes) {
			return nil, kgeval.Errorf(kgeval.EINTERNAL, "pair graph %s of %q: node ids are not dense", pair, sample)
		}
		g.Nodes = append(g.Nodes, n)
		g.Edges = append(g.Edges, edgesFrom(n.ID, m["out"])...)
	}
	return out, nil
}

// ReadGraphExplanation reads a stored pair graph with its explanation.
// Errors: ENOTFOUND.
func (db *DB) ReadGraphExplanation(ctx context.Context, run, sample, pair string) (*readmodel.GraphExplanation, error) {
	g, recs, err := db.readPairGraph(ctx, run, sample, pair)
	if err != nil {
		return nil, err
	}
	ex := &readmodel.GraphExplanation{PairGraph: g, Communities: make([]*int, len(g.Nodes)), Paths: map[int]readmodel.ExplainedPath{}}
	for i, r := range recs {
		m := r.AsMap()
		if c, ok := m["community"].(int64); ok {
			v := int(c)
			ex.Communities[i] = &v
		}
		if g.Nodes[i].Kind != kgeval.KindEntity || g.Nodes[i].Side != kgeval.SideInput || m["passed"] == nil {
			continue
		}
		ep := readmodel.ExplainedPath{Passed: m["passed"] == true}
		if c, ok := m["best_cost"].(float64); ok {
			ep.Cost = &c
		}
		ids, _ := m["best_path"].([]any)
		for _, id := range ids {
			ep.Path = append(ep.Path, int(asInt(id)))
		}
		ex.Paths[i] = ep
	}
	return ex, nil
}
func nodeFrom(m map[string]any) kgeval.Node {
	n := kgeval.Node{ID: int(asInt(m["nid"])), Side: asString(m["side"]), Key: asString(m["key"]), Label: asString(m["label"]), Passage: -1}
	switch {
	case m["kind"] == "Relation":
		n.Kind = kgeval.KindRelation
		n.Passage = int(asInt(m["passage"]))
		n.Start, n.End = int(asInt(m["start"])), int(asInt(m["end"]))
		n.Source = asString(m["source"])
	case m["slot"] == true:
		n.Kind = kgeval.KindSlot
		n.Want = asString(m["want"])
	default:
		n.Kind = kgeval.KindEntity
		n.NonAnswer = m["non_answer"] == true
		if fs, ok := m["fits"].([]any); ok {
			for _, f := range fs {
				n.Fits = append(n.Fits, asString(f))
			}
		}
	}
	return n
}
func edgesFrom(from int, out any) []kgeval.Edge {
	var es []kgeval.Edge
	outs, _ := out.([]any)
	for _, o := range outs {
		om, _ := o.(map[string]any)
		if om == nil {
			continue
		}
		es = append(es, kgeval.Edge{From: from, To: int(asInt(om["to"])), Type: asString(om["type"]), Weight: asFloat(om["weight"]), Cost: asFloat(om["cost"])})
	}
	return es
}

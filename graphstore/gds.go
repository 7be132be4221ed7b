package graphstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/scoring"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Queries, resolved when the package loads.
var (
	qGdsLeftovers          = statement("gds_leftovers")
	qGdsDrop               = statement("gds_drop")
	qKgscoreVerdicts       = statement("kgscore_verdicts")
	qGdsProjectPaths       = statement("gds_project_paths")
	qGdsDijkstra           = statement("gds_dijkstra")
	qGdsProjectCommunities = statement("gds_project_communities")
	qGdsLouvain            = statement("gds_louvain")
)

// ProjectionPrefix starts the name of every GDS projection kgeval creates.
const ProjectionPrefix = "kgeval-"

// GDS computes the KG scores with Neo4j Graph Data Science over the stored
// pair graphs. Graphs are scored in batches: per batch one Cypher projection
// of reversed edges plus a virtual source feeds one Dijkstra
// (gds.allShortestPaths.dijkstra.stream) that gives every node's least cost
// to the context side, and one undirected projection with a label per pair
// graph feeds Louvain (gds.louvain.stream, concurrency 1) run on each pair
// graph alone. Projections are dropped in all cases.
type GDS struct {
	DB *DB
	// BatchSize is how many pair graphs share one Dijkstra projection
	// (default 100).
	BatchSize int
	// CommunityGroup is how many pair graphs share one Louvain projection
	// (default 20).
	CommunityGroup int
	// LeftoverAge is how old a kgeval projection must be to count as left
	// behind by a crashed process (default 10 minutes; a live projection
	// lives for one batch, seconds).
	LeftoverAge time.Duration
	// LeftoverPrefix narrows which projections DropLeftovers may drop: names
	// starting with it (default ProjectionPrefix, every kgeval projection;
	// a prefix outside ProjectionPrefix is ignored).
	LeftoverPrefix string

	once   sync.Once
	seq    int64
	mu     sync.Mutex
	prefix string
	stats  GDSStats
}

// GDSStats is the time the GDS engine spent in each step, summed over calls.
type GDSStats struct {
	Batches                                            int
	ProjectPaths, Dijkstra, ProjectComm, Louvain, Drop time.Duration
}

// Stats returns the time spent per step so far.
func (e *GDS) Stats() GDSStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

func (e *GDS) add(d *time.Duration, since time.Time) {
	e.mu.Lock()
	*d += time.Since(since)
	e.mu.Unlock()
}

var (
	_ kgeval.KGEngine   = (*GDS)(nil)
	_ scoring.RawEngine = (*GDS)(nil)
)

// Name returns "gds".
func (*GDS) Name() string { return "gds" }

// DropLeftovers drops projections that a crashed kgeval process left in the
// graph catalog (older than LeftoverAge). It returns their names.
func (e *GDS) DropLeftovers(ctx context.Context) ([]string, error) {
	age := e.LeftoverAge
	if age <= 0 {
		age = 10 * time.Minute
	}
	prefix := e.LeftoverPrefix
	if !strings.HasPrefix(prefix, ProjectionPrefix) {
		prefix = ProjectionPrefix
	}
	recs, err := e.DB.read(ctx, qGdsLeftovers, map[string]any{"prefix": prefix, "age": int64(age.Seconds())})
	if err != nil {
		return nil, mapError(err, "list GDS projections")
	}
	var dropped []string
	for _, r := range recs {
		name, _ := r.Get("graphName")
		if err := e.drop(ctx, name.(string)); err != nil {
			return dropped, err
		}
		dropped = append(dropped, name.(string))
	}
	return dropped, nil
}

func (e *GDS) drop(ctx context.Context, name string) error {
	_, err := e.DB.write(ctx, qGdsDrop, map[string]any{"name": name})
	return mapError(err, "drop projection "+name)
}

func (e *GDS) name(kind string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.prefix == "" {
		b := make([]byte, 4)
		rand.Read(b)
		e.prefix = fmt.Sprintf("%s%d-%s", ProjectionPrefix, os.Getpid(), hex.EncodeToString(b))
	}
	e.seq++
	return fmt.Sprintf("%s-%s-%d", e.prefix, kind, e.seq)
}

// Score computes the KG scores of graphs, which must already be stored under
// run (WritePairGraphs): their raw results (Raw), assembled by
// scoring.Score.
func (e *GDS) Score(ctx context.Context, run string, graphs []*kgeval.PairGraph, p kgeval.GraphParams) ([]kgeval.KGResult, error) {
	return scoring.Score(ctx, e, run, graphs, p)
}

// Raw computes the raw results of graphs, which must already be stored under
// run: Dijkstra and Louvain in GDS, the verdict matches by a pattern query.
// Graphs with an empty side are not sent to GDS (no paths, no communities).
func (e *GDS) Raw(ctx context.Context, run string, graphs []*kgeval.PairGraph, p kgeval.GraphParams) ([]scoring.Raw, error) {
	var err error
	e.once.Do(func() { _, err = e.DropLeftovers(ctx) })
	if err != nil {
		return nil, err
	}
	bs := e.BatchSize
	if bs <= 0 {
		bs = 100
	}
	out := make([]scoring.Raw, len(graphs))
	var batch []int
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := e.scoreBatch(ctx, run, graphs, batch, p, out)
		batch = batch[:0]
		return err
	}
	for i, g := range graphs {
		if len(g.InputEntities()) == 0 || len(g.ContextEntities()) == 0 {
			continue
		}
		batch = append(batch, i)
		if len(batch) == bs {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if err := e.verdicts(ctx, run, graphs, out); err != nil {
		return nil, err
	}
	return out, nil
}

// verdicts asks the stored pair graphs for their triplet verdict matches
// (cypher/kgscore_verdicts.cypher, a pattern query: no projection).
func (e *GDS) verdicts(ctx context.Context, run string, graphs []*kgeval.PairGraph, out []scoring.Raw) error {
	byID := make(map[string]int, len(graphs))
	ids := make([]any, 0, len(graphs))
	for i, g := range graphs {
		id := kgeval.GraphID(run, g.Sample, g.Pair)
		byID[id] = i
		ids = append(ids, id)
	}
	const batch = 200
	for lo := 0; lo < len(ids); lo += batch {
		recs, err := e.DB.read(ctx, qKgscoreVerdicts, map[string]any{"graphs": ids[lo:min(lo+batch, len(ids))], "literalWants": kgeval.LiteralWants})
		if err != nil {
			return mapError(err, "read triplet verdicts")
		}
		for _, r := range recs {
			m := r.AsMap()
			i, ok := byID[asString(m["graph"])]
			if !ok {
				continue
			}
			out[i].Matches = append(out[i].Matches, kgeval.VerdictMatch{In: int(asInt(m["input"])), Ctx: int(asInt(m["context"])),
				Support: m["support"] == true, Contradict: m["contradict"] == true, Answer: m["answer"] == true, Unfilled: m["unfilled"] == true})
		}
	}
	return nil
}

// scoreBatch runs Dijkstra and Louvain on the graphs idx of graphs and
// records their least path costs, paths and communities in out.
func (e *GDS) scoreBatch(ctx context.Context, run string, graphs []*kgeval.PairGraph, idx []int, p kgeval.GraphParams, out []scoring.Raw) error {
	// Global ids: 0 is the virtual source; graph k's node v is offset[k] + v.
	params := make([]any, len(idx))
	offsets := make([]int64, len(idx))
	next := int64(1)
	for k, i := range idx {
		g := graphs[i]
		offsets[k] = next
		params[k] = map[string]any{"graph": kgeval.GraphID(run, g.Sample, g.Pair), "offset": next}
		next += int64(len(g.Nodes))
	}
	owner := func(id int64) (k int, v int) {
		lo, hi := 0, len(offsets)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if offsets[mid] <= id {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo, int(id - offsets[lo])
	}

	dist := make([][]float64, len(idx))
	paths := make([][][]int, len(idx))
	comm := make([][]int, len(idx))
	for k, i := range idx {
		n := len(graphs[i].Nodes)
		dist[k] = make([]float64, n)
		for v := range dist[k] {
			dist[k][v] = math.Inf(1)
		}
		paths[k] = make([][]int, n)
		comm[k] = make([]int, n)
		for v := range comm[k] {
			comm[k][v] = -1 - v // a node Louvain did not see is alone
		}
	}

	undirected := []any{}
	if !p.Directed {
		undirected = []any{"*"}
	}
	pathsName := e.name("paths")
	err := e.withProjection(ctx, pathsName, qGdsProjectPaths, map[string]any{"graphs": params, "undirected": undirected}, &e.stats.ProjectPaths, func() error {
		defer e.add(&e.stats.Dijkstra, time.Now())
		return e.stream(ctx, qGdsDijkstra, map[string]any{"name": pathsName}, func(r *neo4j.Record) error {
			m := r.AsMap()
			node := asInt(m["node"])
			if node == 0 {
				return nil
			}
			k, v := owner(node)
			dist[k][v] = asFloat(m["cost"])
			ids, _ := m["path"].([]any)
			// ids runs source (0), context entity, ..., node: reverse, drop the source.
			pth := make([]int, 0, len(ids))
			for j := len(ids) - 1; j >= 1; j-- {
				_, pv := owner(asInt(ids[j]))
				pth = append(pth, pv)
			}
			paths[k][v] = pth
			return nil
		})
	})
	if err != nil {
		return err
	}
	// Louvain: one union projection per group of pair graphs, each graph
	// under its own label, and one gds.louvain.stream per graph filtered to
	// that label, so that Louvain sees each graph alone. A label filter costs
	// time in the size of the projection, hence groups.
	group := e.CommunityGroup
	if group <= 0 {
		group = 20
	}
	for lo := 0; lo < len(idx); lo += group {
		hi := min(lo+group, len(idx))
		cparams := make([]any, 0, hi-lo)
		labels := make([]any, 0, hi-lo)
		for k := lo; k < hi; k++ {
			m := params[k].(map[string]any)
			label := fmt.Sprintf("G%d", k)
			labels = append(labels, label)
			cparams = append(cparams, map[string]any{"graph": m["graph"], "offset": m["offset"], "label": label})
		}
		name := e.name("communities")
		err = e.withProjection(ctx, name, qGdsProjectCommunities, map[string]any{"graphs": cparams}, &e.stats.ProjectComm, func() error {
			defer e.add(&e.stats.Louvain, time.Now())
			return e.stream(ctx, qGdsLouvain, map[string]any{"name": name, "labels": labels}, func(r *neo4j.Record) error {
				m := r.AsMap()
				k, v := owner(asInt(m["node"]))
				comm[k][v] = int(asInt(m["community"]))
				return nil
			})
		})
		if err != nil {
			return err
		}
	}
	e.mu.Lock()
	e.stats.Batches++
	e.mu.Unlock()
	for k, i := range idx {
		out[i].Dist, out[i].Paths, out[i].Comm = dist[k], paths[k], comm[k]
	}
	return nil
}

// withProjection projects a graph, runs fn, and drops the projection
// whatever happened (also when ctx was cancelled).
func (e *GDS) withProjection(ctx context.Context, name string, query cypher.Statement, params map[string]any, spent *time.Duration, fn func() error) error {
	params["name"] = name
	t := time.Now()
	_, err := e.DB.write(ctx, query, params)
	e.add(spent, t)
	defer func() {
		defer e.add(&e.stats.Drop, time.Now())
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		e.drop(dctx, name)
	}()
	if err != nil {
		return mapError(err, "project "+name)
	}
	return fn()
}

// stream runs a read query and calls fn for each record as it arrives.
func (e *GDS) stream(ctx context.Context, query cypher.Statement, params map[string]any, fn func(*neo4j.Record) error) error {
	sess := e.DB.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: e.DB.cfg.Database, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(ctx)
	_, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, query.Query, params)
		if err != nil {
			return nil, err
		}
		for res.Next(ctx) {
			if err := fn(res.Record()); err != nil {
				return nil, err
			}
		}
		return nil, res.Err()
	}, neo4j.WithTxTimeout(e.DB.cfg.QueryTimeout))
	return mapError(err, query.Name)
}

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
	"golang.org/x/sync/errgroup"
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
	qGdsLeiden             = statement("gds_leiden")
	qGdsLeidenPerGraph     = statement("gds_leiden_per_graph")
	qGdsProjectBatch       = statement("gds_project_batch")
)

// ProjectionPrefix starts the name of every GDS projection kgeval creates.
const ProjectionPrefix = "kgeval-"

// GDS computes the KG scores with Neo4j Graph Data Science over the stored
// pair graphs. Graphs are scored in batches: per batch one Cypher projection
// of reversed edges plus a virtual source feeds one Dijkstra
// (gds.allShortestPaths.dijkstra.stream) that gives every node's least cost
// to the context side, and the same projection's edges undirected, each
// graph's weights divided by its total weight, feed one Leiden call
// (gds.leiden.stream, concurrency 1) that gives each graph the communities
// it gets alone, whatever else the batch holds (gdslayout.go and
// docs/SPEC-NOTES.md §4 say how; Communities says how else). Projections
// are dropped in all cases.
type GDS struct {
	DB *DB
	// BatchSize is how many pair graphs share one projection (default
	// 500; measured on 500 generated graphs: 100 ~130, 250 ~175, 500 ~155
	// to 225 pair graphs/s on a noisy 2-core machine).
	BatchSize int
	// CommunityGroup is how many pair graphs share one community
	// projection in the per-graph modes (default 20).
	CommunityGroup int
	// Communities is how communities are found: CommunitiesBatch (the
	// default when empty: one Leiden call per batch, exact per graph),
	// CommunitiesLouvainPerGraph (one Louvain call per graph, ~10x slower:
	// the mode of runs recorded before batch became the default) or
	// CommunitiesLeidenPerGraph.
	Communities string
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
// Louvain is the community algorithm's time, Leiden in CommunitiesBatch
// mode; ProjectPaths is the one projection of a batch in that mode, where
// Dijkstra and Leiden run at once (their times overlap). Dijkstra and
// Louvain include streaming their results back; Verdicts is the pattern
// query of the triplet verdicts.
type GDSStats struct {
	Batches                                                      int
	ProjectPaths, Dijkstra, ProjectComm, Louvain, Drop, Verdicts time.Duration
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
		bs = 500
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
	defer e.add(&e.stats.Verdicts, time.Now())
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
	var inputs []int64 // global ids of the input entities: the nodes whose distance scoring reads
	next := int64(1)
	for k, i := range idx {
		g := graphs[i]
		offsets[k] = next
		params[k] = map[string]any{"graph": kgeval.GraphID(run, g.Sample, g.Pair), "offset": next, "nodes": len(g.Nodes)}
		for _, v := range g.InputEntities() {
			inputs = append(inputs, next+int64(v))
		}
		next += int64(len(g.Nodes))
	}
	end := next // ids from end on are the pad nodes of gds_project_batch
	owner := func(id int64) (k int, v int) {
		if id <= 0 || id >= end {
			return -1, -1 // the virtual source or a pad node
		}
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

	dijkstra := func(name string, types []any) error {
		defer e.add(&e.stats.Dijkstra, time.Now())
		return e.stream(ctx, qGdsDijkstra, map[string]any{"name": name, "types": types, "inputs": inputs}, func(r *neo4j.Record) error {
			m := r.AsMap()
			k, v := owner(asInt(m["node"]))
			if k < 0 {
				return nil
			}
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
	}
	if e.mode() == CommunitiesBatch {
		if err := e.scoreUnion(ctx, params, end, p, dijkstra, owner, comm); err != nil {
			return err
		}
	} else {
		undirected := []any{}
		if !p.Directed {
			undirected = []any{"*"}
		}
		name := e.name("paths")
		err := e.withProjection(ctx, name, qGdsProjectPaths, map[string]any{"graphs": params, "undirected": undirected}, &e.stats.ProjectPaths, func([]*neo4j.Record) error {
			return dijkstra(name, []any{"*"})
		})
		if err != nil {
			return err
		}
		if err := e.communities(ctx, params, owner, comm); err != nil {
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

// scoreUnion scores a batch in CommunitiesBatch mode: one projection of the
// batch (gds_project_batch) for both algorithms, one relationship type each,
// so that the stored edges are read once; params are the batch's graphs,
// graph ids from 1 to end-1.
func (e *GDS) scoreUnion(ctx context.Context, params []any, end int64, p kgeval.GraphParams,
	dijkstra func(string, []any) error, owner func(int64) (int, int), comm [][]int) error {
	undirected := []any{commType}
	if !p.Directed {
		undirected = append(undirected, pathType)
	}
	// The real region: the source 0, the graphs' nodes, the pad nodes end
	// and end+1, the driver's nodes.
	total := padTotal(len(params) + 1)
	lay := newLayout(end+2+driverNodes, leafTarget)
	name := e.name("batch")
	qparams := map[string]any{"graphs": params, "undirected": undirected, "pathType": pathType, "commType": commType, "unit": float64(weightUnit),
		"pad":    map[string]any{"src": end, "dst": end + 1, "weight": float64(total - len(params) - 1)},
		"driver": map[string]any{"offset": end + 2, "nodes": driverNodes, "weight": 1.0 / driverNodes},
		"layout": map[string]any{"spacers": end + 2 + driverNodes, "before": lay.before, "after": lay.after}}
	return e.withProjection(ctx, name, qGdsProjectBatch, qparams, &e.stats.ProjectPaths, func([]*neo4j.Record) error {
		// The two calls read the projection and write apart (dist and
		// paths, comm), so they run at once: each is single-threaded
		// in GDS (concurrency 1, for reproducible results).
		var g errgroup.Group
		g.Go(func() error { return dijkstra(name, []any{pathType}) })
		g.Go(func() error { return e.leiden(ctx, name, []any{commType}, total, end, owner, comm) })
		return g.Wait()
	})
}

// withProjection projects a graph, runs fn with the projection query's
// records, and drops the projection whatever happened (also when ctx was
// cancelled).
func (e *GDS) withProjection(ctx context.Context, name string, query cypher.Statement, params map[string]any, spent *time.Duration, fn func([]*neo4j.Record) error) error {
	params["name"] = name
	t := time.Now()
	recs, err := e.DB.write(ctx, query, params)
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
	return fn(recs)
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

// Community modes of the GDS engine (GDS.Communities; the configuration's
// scoring.communities).
const (
	// CommunitiesBatch runs one Leiden call per batch of pair graphs on
	// their union, each graph's weights divided by its total weight, at a
	// resolution that makes each graph's modularity its own, laid out so
	// that each graph gets the communities it gets alone (gdslayout.go,
	// SPEC-NOTES §4).
	CommunitiesBatch = kgeval.CommunitiesBatch
	// CommunitiesLouvainPerGraph runs one gds.louvain.stream per pair
	// graph, filtered to its label: SPEC §4's Louvain on each graph alone,
	// at a fixed cost of tens of milliseconds per call.
	CommunitiesLouvainPerGraph = kgeval.CommunitiesLouvainPerGraph
	// CommunitiesLeidenPerGraph runs one gds.leiden.stream per pair graph
	// with the settings of CommunitiesBatch on the stored weights.
	CommunitiesLeidenPerGraph = kgeval.CommunitiesLeidenPerGraph
)

// Leiden settings shared by the batched call and its per-graph oracle.
var (
	// leidenTheta is the refinement's randomness: so small that every
	// positive gain overflows exp(gain/theta) and the refinement takes the
	// best community (GDS's fallback), as Louvain would; a random draw would
	// depend on the other graphs of the batch and on their weight scale.
	leidenTheta = 1e-300
	// leidenTolerance is the least modularity gain between levels to go
	// on: 0 (the driver's gain always passes it, see driverNodes).
	leidenTolerance = 0.0
	// leidenMaxLevels is the number of levels of one Leiden call: 3, the
	// most whose aggregations keep every graph's node order (gdslayout.go).
	leidenMaxLevels = 3
)

// weightUnit is the quantum of the community weights gds_project_batch
// projects: 2^-32 of a graph's total weight, so that sums of up to 2^20
// graphs' weights are exact in float64 (52 bits).
const weightUnit = 1 << 32

// driverNodes is the size of the ring gds_project_batch adds to every batch
// (total weight 1, like a pair graph): alone, Leiden moves its nodes at each
// of 4 levels (modularity 0.49, 0.73, 0.84, 0.88), so that every call runs
// leidenMaxLevels levels, each with a gain far above rounding, whatever the
// pair graphs do. Without it a call stops at the first level where no node
// of any graph moves, and refuses a level whose total modularity came out a
// rounding error lower: either would make a graph's partition depend on its
// batch-mates.
const driverNodes = 256

// padTotal is the total community weight of the projection of a batch of n
// pair graphs (the driver counting as one), pad included: the least power of two that leaves the pad
// edge a weight of 2 or more (so that its two nodes never join: the gain
// w − k²·γ/(2M) is negative from w = 2 on, at γ = padTotal, M = padTotal).
func padTotal(n int) int {
	t := 1
	for t < n+2 {
		t *= 2
	}
	return t
}

// communities finds the communities of a batch of pair graphs (params as
// built by scoreBatch) in the mode e.Communities and stores each node's
// community in comm.
func (e *GDS) communities(ctx context.Context, params []any, owner func(int64) (int, int), comm [][]int) error {
	mode := e.mode()
	group := e.CommunityGroup
	if group <= 0 {
		group = 20
	}
	read := communityReader(owner, comm)
	for lo := 0; lo < len(params); lo += group {
		hi := min(lo+group, len(params))
		name := e.name("communities")
		switch mode {
		case CommunitiesLouvainPerGraph, CommunitiesLeidenPerGraph:
			// One union projection per group, each graph under its own label,
			// and one call per graph filtered to that label, so that the
			// algorithm sees each graph alone. A label filter costs time in
			// the size of the projection, hence groups.
			cparams := make([]any, 0, hi-lo)
			labels := make([]any, 0, hi-lo)
			for k := lo; k < hi; k++ {
				m := params[k].(map[string]any)
				label := fmt.Sprintf("G%d", k)
				labels = append(labels, label)
				cparams = append(cparams, map[string]any{"graph": m["graph"], "offset": m["offset"], "label": label})
			}
			query, qparams := qGdsLouvain, map[string]any{"name": name, "labels": labels}
			if mode == CommunitiesLeidenPerGraph {
				query = qGdsLeidenPerGraph
				qparams["theta"], qparams["tolerance"], qparams["maxLevels"] = leidenTheta, leidenTolerance, leidenMaxLevels
			}
			err := e.withProjection(ctx, name, qGdsProjectCommunities, map[string]any{"graphs": cparams}, &e.stats.ProjectComm, func([]*neo4j.Record) error {
				defer e.add(&e.stats.Louvain, time.Now())
				return e.stream(ctx, query, qparams, read)
			})
			if err != nil {
				return err
			}
		default:
			return kgeval.Errorf(kgeval.EINVALID, "unknown GDS community mode %q", mode)
		}
	}
	return nil
}

// Relationship types of the projection gds_project_batch makes.
const (
	pathType = "PATH"
	commType = "COMMUNITY"
)

func (e *GDS) mode() string {
	if e.Communities == "" {
		return CommunitiesBatch
	}
	return e.Communities
}

// leiden runs the batched Leiden call on the relationships of types of the
// projection name; total is the projection's total community weight (the
// resolution that gives each graph its own modularity), end the first id
// after the graphs' nodes.
func (e *GDS) leiden(ctx context.Context, name string, types []any, total int, end int64, owner func(int64) (int, int), comm [][]int) error {
	defer e.add(&e.stats.Louvain, time.Now())
	return e.stream(ctx, qGdsLeiden, map[string]any{"name": name, "types": types, "gamma": float64(total), "theta": leidenTheta,
		"tolerance": leidenTolerance, "maxLevels": leidenMaxLevels, "end": end}, communityReader(owner, comm))
}

// communityReader stores a community record's community in comm.
func communityReader(owner func(int64) (int, int), comm [][]int) func(*neo4j.Record) error {
	return func(r *neo4j.Record) error {
		m := r.AsMap()
		k, v := owner(asInt(m["node"]))
		if k < 0 {
			return nil // the virtual source or a pad node of gds_project_batch
		}
		comm[k][v] = int(asInt(m["community"]))
		return nil
	}
}

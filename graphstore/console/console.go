// Package console is the dashboard's Cypher console: it runs, read-only,
// a query a user typed, the one place where query text does not come from
// package cypher. Neo4j Community has no read-only users, so the console
// stands between the text and the data:
//
//  1. One reader decides what may run: the query's parse tree, read with
//     Neo4j's own Cypher 5 grammar (package cypher/parser), and an
//     allowlist over it (check.go, expr.go). The console admits MATCH,
//     OPTIONAL MATCH, WITH, UNWIND, WHERE, RETURN, ORDER BY, SKIP and LIMIT
//     with bounded patterns, and the operators and functions that browsing
//     the evaluation graphs needs; everything else (writes, CALL, LOAD CSV,
//     UNION, subqueries, commands, options, unknown functions) is refused
//     with a message naming it. The same reading bounds what Neo4j cannot
//     stop or does not count: the size of the text and of each expression,
//     which Neo4j's parser and planner recurse over and cannot be
//     interrupted in; the patterns its planner searches; and the work and
//     the bytes that the expressions of one row may take, which Neo4j
//     neither interrupts (it checks its time limit between rows) nor counts
//     against its memory guard.
//  2. Nothing of a refused query reaches Neo4j. An admitted one is planned
//     first (EXPLAIN, which runs nothing) and runs only when Neo4j says it
//     is read-only, a second opinion that costs one plan.
//  3. It runs in a READ transaction (AccessModeRead), which Neo4j refuses
//     to write in, with a time limit Neo4j enforces, tagged {app:
//     "kgeval-console"} so that SHOW TRANSACTIONS tells it apart. What
//     Neo4j tracks (collect(), ORDER BY, DISTINCT) its memory guard
//     bounds (db.memory.transaction.max).
//  4. Its rows come through the console's own connection (conn.go): a
//     pool of maxSlots connections, at most ownerSlots of them for one
//     owner, and a relay that refuses a row over messageFactor times the
//     response cap before the driver reads it; a row cap and the response
//     cap bound the rest.
package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// App is the metadata {app: App} of every console transaction.
const App = "kgeval-console"

// Console runs the dashboard's console queries against one Neo4j.
type Console struct {
	cfg graphstore.Config

	mu   sync.Mutex
	conn *conn // made on the first query
}

var _ readmodel.Console = (*Console)(nil)

// New returns a console for the Neo4j of cfg (the store's configuration:
// URI, user, password, database, connect timeout). It connects on its
// first query, with a driver and a pool of its own.
func New(cfg graphstore.Config) *Console {
	if cfg.Database == "" {
		cfg.Database = "neo4j"
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	return &Console{cfg: cfg}
}

// Close closes the console's connection, if it made one.
func (c *Console) Close(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		c.conn.close(ctx)
		c.conn = nil
	}
	return nil
}

// connection returns the console's connection, made on first use, with
// the relay's cap raised to fit maxRow, the caller's response cap.
func (c *Console) connection(maxRow int) (*conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		cn, err := newConn(c.cfg, maxRow)
		if err != nil {
			return nil, err
		}
		c.conn = cn
	}
	c.conn.relay.raise(messageFactor*maxRow + 64<<10)
	return c.conn, nil
}

// RunConsole runs a query typed in the dashboard's console, read-only (see
// the package comment). A leading EXPLAIN returns the plan without running
// the query; a leading PROFILE runs it and returns the profiled plan with
// the rows. Errors: EINVALID when the console refuses the query (the
// message starts with "refused:" and names what it refused), when it ran
// past the time limit (the message starts with "timed out:") or when Neo4j
// rejects it; ETOOMANY when the console is running maxSlots queries
// already, or lim.Owner ownerSlots; EUNAVAILABLE when Neo4j does not
// answer; EINTERNAL when the reader fails on a query (a bug of its own:
// the query is refused, not run).
func (c *Console) RunConsole(ctx context.Context, query string, lim readmodel.ConsoleLimits) (*readmodel.ConsoleResult, error) {
	return c.run(ctx, query, lim, true)
}

func (c *Console) run(ctx context.Context, query string, lim readmodel.ConsoleLimits, guard bool) (*readmodel.ConsoleResult, error) {
	if lim.Timeout <= 0 {
		lim.Timeout = 10 * time.Second
	}
	if lim.MaxRows <= 0 {
		lim.MaxRows = 1000
	}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = 2 << 20
	}
	// The text's cheap bounds first, outside a slot, so that a flood of
	// oversized queries keeps no slot from anyone.
	t, err := readText(query)
	if err != nil && guard {
		return nil, err
	}
	conn, err := c.connection(lim.MaxBytes)
	if err != nil {
		return nil, err
	}
	release, err := conn.acquire(lim.Owner)
	if err != nil {
		return nil, err
	}
	defer release()
	// The query is parsed in a slot, so that parsing too is bounded.
	q := &checked{body: query}
	if guard {
		if q, err = t.check(); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout+2*time.Second)
	defer cancel()
	sess := conn.drv.NewSession(ctx, neo4j.SessionConfig{DatabaseName: c.cfg.Database, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(context.WithoutCancel(ctx))
	start := time.Now()
	txConfig := []func(*neo4j.TransactionConfig){neo4j.WithTxTimeout(lim.Timeout), neo4j.WithTxMetadata(map[string]any{"app": App})}

	// An explicit transaction, not ExecuteRead: a console query that
	// failed is not tried again.
	sum, err := explain(ctx, sess, q.body, txConfig)
	if err != nil {
		return nil, consoleError(ctx, err, lim)
	}
	if guard && sum.StatementType() != neo4j.StatementTypeReadOnly {
		return nil, refusedf("Neo4j plans this query as %s, and the console runs read-only queries only", sum.StatementType())
	}
	if q.mode == "EXPLAIN" {
		var text string
		if p := sum.Plan(); p != nil {
			text, _ = p.Arguments()["string-representation"].(string)
		}
		return &readmodel.ConsoleResult{Columns: []string{}, Rows: [][]any{}, Nodes: []readmodel.ConsoleNode{}, Rels: []readmodel.ConsoleRel{},
			Millis: time.Since(start).Milliseconds(), Plan: text}, nil
	}
	text := q.body
	if q.mode == "PROFILE" {
		text = "PROFILE " + q.body
	}
	r, err := consoleRows(ctx, sess, text, lim, txConfig)
	if err != nil {
		return nil, consoleError(ctx, err, lim)
	}
	r.Millis = time.Since(start).Milliseconds()
	return r, nil
}

// explain plans body in a transaction of its own.
func explain(ctx context.Context, sess neo4j.SessionWithContext, body string, txConfig []func(*neo4j.TransactionConfig)) (neo4j.ResultSummary, error) {
	tx, err := sess.BeginTransaction(ctx, txConfig...)
	if err != nil {
		return nil, err
	}
	defer tx.Close(context.WithoutCancel(ctx))
	res, err := tx.Run(ctx, "EXPLAIN "+body, nil)
	if err != nil {
		return nil, err
	}
	return res.Consume(ctx)
}

// consoleRows runs text and reads its rows within lim.
func consoleRows(ctx context.Context, sess neo4j.SessionWithContext, text string, lim readmodel.ConsoleLimits, txConfig []func(*neo4j.TransactionConfig)) (*readmodel.ConsoleResult, error) {
	tx, err := sess.BeginTransaction(ctx, txConfig...)
	if err != nil {
		return nil, err
	}
	defer tx.Close(context.WithoutCancel(ctx))
	res, err := tx.Run(ctx, text, nil)
	if err != nil {
		return nil, err
	}
	keys, err := res.Keys()
	if err != nil {
		return nil, err
	}
	r := &readmodel.ConsoleResult{Columns: keys, Rows: [][]any{}, Nodes: []readmodel.ConsoleNode{}, Rels: []readmodel.ConsoleRel{}}
	g := &consoleGraph{r: r, nodes: map[string]bool{}, rels: map[string]bool{}}
	size := 0
	for res.Next(ctx) {
		if len(r.Rows) == lim.MaxRows {
			r.Truncated, r.TruncatedBy = true, "rows"
			break
		}
		rec := res.Record()
		nodes, rels := len(r.Nodes), len(r.Rels)
		row := make([]any, len(rec.Values))
		for i, v := range rec.Values {
			row[i] = g.value(v)
		}
		n, err := jsonSize(row, r.Nodes[nodes:], r.Rels[rels:])
		if err != nil {
			return nil, err
		}
		if size+n > lim.MaxBytes {
			if len(r.Rows) == 0 {
				return nil, refusedf("the first row alone is %d bytes, over the console's response limit of %d bytes; return less (e.g. LIMIT, or a slice of a list)", n, lim.MaxBytes)
			}
			g.forget(nodes, rels)
			r.Truncated, r.TruncatedBy = true, "bytes"
			break
		}
		size += n
		r.Rows = append(r.Rows, row)
	}
	if err := res.Err(); err != nil {
		return nil, err
	}
	sum, err := res.Consume(ctx)
	if err != nil {
		return nil, err
	}
	if p := sum.Profile(); p != nil {
		r.Plan, _ = p.Arguments()["string-representation"].(string)
	}
	return r, nil
}

// jsonSize returns how many bytes a row and the graph elements it added
// take in the response.
func jsonSize(row []any, nodes []readmodel.ConsoleNode, rels []readmodel.ConsoleRel) (int, error) {
	n := 0
	for _, v := range []any{row, nodes, rels} {
		b, err := json.Marshal(v)
		if err != nil {
			return 0, fmt.Errorf("console result: %w", err)
		}
		n += len(b)
	}
	return n, nil
}

// consoleError maps an error of a console query to a message for whoever
// typed it: Neo4j's own message when it rejects the query, "timed out"
// when the query ran past the time limit (whether Neo4j stopped it or the
// console stopped waiting), "not reachable" only when Neo4j did not answer
// at all. No message gives advice for one kind of caller (the dashboard,
// the API, the CLI) only.
func consoleError(ctx context.Context, err error, lim readmodel.ConsoleLimits) error {
	var kerr *kgeval.Error
	if errors.As(err, &kerr) {
		return err
	}
	timedOut := timedOutWrap(err, "the query ran past the console's time limit of %s; narrow it (a label, an indexed property, LIMIT)", lim.Timeout)
	var nerr *neo4j.Neo4jError
	if errors.As(err, &nerr) {
		switch {
		case nerr.Code == rowTooLarge:
			return refusedWrap(err, "%s, more than the console reads; return less (e.g. LIMIT, a slice of a list, size())", nerr.Msg)
		case strings.Contains(nerr.Code, "TransactionTimedOut"), strings.Contains(nerr.Code, "Terminated"):
			return timedOut
		case strings.Contains(nerr.Code, "MemoryPoolOutOfMemoryError"), strings.Contains(nerr.Code, "TransactionMemoryLimit"), strings.Contains(nerr.Code, "OutOfMemory"):
			return refusedWrap(err, "the query needs more memory than Neo4j lets one transaction hold; return or collect less")
		case strings.HasPrefix(nerr.Code, "Neo.ClientError.Security"):
			return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "Neo4j refused the server's credentials")
		case strings.HasPrefix(nerr.Code, "Neo.ClientError"):
			return kgeval.Wrap(kgeval.EINVALID, err, "%s", nerr.Msg)
		case strings.HasPrefix(nerr.Code, "Neo.TransientError"):
			return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "Neo4j could not run the query now; try again")
		}
		return kgeval.Wrap(kgeval.EINTERNAL, err, "console query")
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(ctx.Err(), context.DeadlineExceeded):
		return timedOut
	case errors.Is(err, context.Canceled):
		return kgeval.Wrap(kgeval.EINVALID, err, "the request was cancelled")
	case neo4j.IsConnectivityError(err):
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "Neo4j is not reachable")
	}
	return kgeval.Wrap(kgeval.EINTERNAL, err, "console query")
}

type consoleGraph struct {
	r           *readmodel.ConsoleResult
	nodes, rels map[string]bool
}

// forget drops the nodes and relationships recorded after the first n and
// r, those of a row that was cut.
func (g *consoleGraph) forget(n, r int) {
	for _, x := range g.r.Nodes[n:] {
		delete(g.nodes, x.ID)
	}
	for _, x := range g.r.Rels[r:] {
		delete(g.rels, x.ID)
	}
	g.r.Nodes, g.r.Rels = g.r.Nodes[:n], g.r.Rels[:r]
}

// value turns a driver value into a JSON-friendly one and records graph
// elements.
func (g *consoleGraph) value(v any) any {
	switch x := v.(type) {
	case nil, bool, int64, string:
		return x
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
		return x
	case dbtype.Node:
		g.node(x)
		return map[string]any{"_kind": "node", "id": x.ElementId, "labels": x.Labels, "properties": g.props(x.Props)}
	case dbtype.Relationship:
		g.rel(x)
		return map[string]any{"_kind": "relationship", "id": x.ElementId, "type": x.Type, "start": x.StartElementId, "end": x.EndElementId, "properties": g.props(x.Props)}
	case dbtype.Path:
		nodes := make([]any, len(x.Nodes))
		for i, n := range x.Nodes {
			nodes[i] = g.value(n)
		}
		rels := make([]any, len(x.Relationships))
		for i, r := range x.Relationships {
			rels[i] = g.value(r)
		}
		return map[string]any{"_kind": "path", "nodes": nodes, "relationships": rels}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = g.value(e)
		}
		return out
	case map[string]any:
		return g.props(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}
func (g *consoleGraph) props(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = g.value(v)
	}
	return out
}
func (g *consoleGraph) node(n dbtype.Node) {
	if g.nodes[n.ElementId] {
		return
	}
	g.nodes[n.ElementId] = true
	g.r.Nodes = append(g.r.Nodes, readmodel.ConsoleNode{ID: n.ElementId, Labels: n.Labels, Properties: g.props(n.Props)})
}
func (g *consoleGraph) rel(r dbtype.Relationship) {
	if g.rels[r.ElementId] {
		return
	}
	g.rels[r.ElementId] = true
	g.r.Rels = append(g.r.Rels, readmodel.ConsoleRel{ID: r.ElementId, Type: r.Type, Start: r.StartElementId, End: r.EndElementId, Properties: g.props(r.Props)})
}

// refusedf is a console query refused before or while it runs: EINVALID,
// its message after "refused: ", of kind kgeval.KindRefused.
func refusedf(format string, args ...any) *kgeval.Error {
	e := kgeval.Errorf(kgeval.EINVALID, "refused: "+format, args...)
	e.Kind = kgeval.KindRefused
	return e
}

// refusedWrap is refusedf wrapping Neo4j's error err.
func refusedWrap(err error, format string, args ...any) *kgeval.Error {
	e := kgeval.Wrap(kgeval.EINVALID, err, "refused: "+format, args...)
	e.Kind = kgeval.KindRefused
	return e
}

// timedOutWrap is a console query that ran past its time limit: EINVALID,
// its message after "timed out: ", of kind kgeval.KindTimeout.
func timedOutWrap(err error, format string, args ...any) *kgeval.Error {
	e := kgeval.Wrap(kgeval.EINVALID, err, "timed out: "+format, args...)
	e.Kind = kgeval.KindTimeout
	return e
}

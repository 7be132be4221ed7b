package graphstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// This file runs the dashboard's Cypher console: a query typed by a user,
// which is the one place where query text does not come from package cypher.
// Neo4j Community has no read-only users, so the console stands between the
// text and the data:
//
//  1. Neo4j plans the query (EXPLAIN, which runs nothing) and checkPlan
//     (consoleguard.go) allows it only when the plan is read-only and built
//     from known read operators and built-in functions: no procedure, no
//     LOAD CSV, no GDS, db, dbms or APOC function, no administration
//     command. The decision rests on the server's own parse, so unicode
//     escapes, comments and odd spacing in the text change nothing.
//  2. The query runs in a READ transaction (session AccessModeRead,
//     ExecuteRead), which Neo4j refuses to write in.
//  3. A transaction timeout, a row cap and a response-size cap bound what it
//     costs.
//
// modeRE matches a leading EXPLAIN or PROFILE, after blanks and comments.
var modeRE = regexp.MustCompile(`(?is)^(?:\s|//[^\n]*|/\*.*?\*/)*(EXPLAIN|PROFILE)\b`)

// RunConsole runs a query typed in the dashboard's console, read-only (see
// the file comment). A leading EXPLAIN returns the plan without running the
// query; a leading PROFILE runs it and returns the profiled plan with the
// rows. Errors: EINVALID when the plan check refuses the query (the message
// starts with "refused:") or Neo4j rejects it, EUNAVAILABLE on timeout or
// when Neo4j does not answer, EINTERNAL when the plan cannot be read.
func (db *DB) RunConsole(ctx context.Context, query string, lim kgeval.ConsoleLimits) (*kgeval.ConsoleResult, error) {
	return db.runConsole(ctx, query, lim, true)
}
func (db *DB) runConsole(ctx context.Context, query string, lim kgeval.ConsoleLimits, guard bool) (*kgeval.ConsoleResult, error) {
	if lim.Timeout <= 0 {
		lim.Timeout = 10 * time.Second
	}
	if lim.MaxRows <= 0 {
		lim.MaxRows = 1000
	}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = 2 << 20
	}
	mode, body := "", query
	if m := modeRE.FindStringSubmatchIndex(query); m != nil {
		mode, body = strings.ToUpper(query[m[2]:m[3]]), query[m[1]:]
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout+2*time.Second)
	defer cancel()
	sess := db.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db.cfg.Database, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(context.WithoutCancel(ctx))
	start := time.Now()
	txTimeout := neo4j.WithTxTimeout(lim.Timeout)

	out, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "EXPLAIN "+body, nil)
		if err != nil {
			return nil, err
		}
		return res.Consume(ctx)
	}, txTimeout)
	if err != nil {
		return nil, consoleError(err)
	}
	sum := out.(neo4j.ResultSummary)
	plan, err := readPlan(sum.Plan())
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "read the plan of a console query")
	}
	if guard {
		if err := checkPlan(sum.StatementType(), plan); err != nil {
			return nil, err
		}
	}
	if mode == "EXPLAIN" {
		text, _ := plan.Args["string-representation"].(string)
		return &kgeval.ConsoleResult{Columns: []string{}, Rows: [][]any{}, Nodes: []kgeval.ConsoleNode{}, Rels: []kgeval.ConsoleRel{},
			Millis: time.Since(start).Milliseconds(), Plan: text}, nil
	}

	text := query // what was planned: body, after PROFILE when there is one
	if mode == "PROFILE" {
		text = "PROFILE " + body
	}
	out, err = sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, text, nil)
		if err != nil {
			return nil, err
		}
		keys, err := res.Keys()
		if err != nil {
			return nil, err
		}
		r := &kgeval.ConsoleResult{Columns: keys, Rows: [][]any{}, Nodes: []kgeval.ConsoleNode{}, Rels: []kgeval.ConsoleRel{}}
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
					return nil, kgeval.Errorf(kgeval.EINVALID, "refused: the first row alone is %d bytes, over the console's response limit of %d bytes; return less (e.g. LIMIT, or a slice of a list)", n, lim.MaxBytes)
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
	}, txTimeout)
	if err != nil {
		var kerr *kgeval.Error
		if errors.As(err, &kerr) {
			return nil, err
		}
		return nil, consoleError(err)
	}
	r := out.(*kgeval.ConsoleResult)
	r.Millis = time.Since(start).Milliseconds()
	return r, nil
}

// jsonSize returns how many bytes a row and the graph elements it added
// take in the response.
func jsonSize(row []any, nodes []kgeval.ConsoleNode, rels []kgeval.ConsoleRel) (int, error) {
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

// consoleError maps a Neo4j error of a console query: its message is the
// user's to read (it is about their query).
func consoleError(err error) error {
	var nerr *neo4j.Neo4jError
	if errors.As(err, &nerr) {
		switch {
		case strings.Contains(nerr.Code, "TransactionTimedOut") || strings.Contains(nerr.Code, "Terminated"):
			return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "the query ran past the console's time limit")
		case strings.HasPrefix(nerr.Code, "Neo.ClientError"):
			return kgeval.Wrap(kgeval.EINVALID, err, "%s", nerr.Msg)
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "the query ran past the console's time limit")
	}
	return mapError(err, "console query")
}

type consoleGraph struct {
	r           *kgeval.ConsoleResult
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
	g.r.Nodes = append(g.r.Nodes, kgeval.ConsoleNode{ID: n.ElementId, Labels: n.Labels, Properties: g.props(n.Props)})
}
func (g *consoleGraph) rel(r dbtype.Relationship) {
	if g.rels[r.ElementId] {
		return
	}
	g.rels[r.ElementId] = true
	g.r.Rels = append(g.r.Rels, kgeval.ConsoleRel{ID: r.ElementId, Type: r.Type, Start: r.StartElementId, End: r.EndElementId, Properties: g.props(r.Props)})
}

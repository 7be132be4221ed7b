package graphstore

import (
	"context"
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
// Neo4j Community has no read-only users, so four independent guards stand
// between the text and the data:
//
//  1. CheckReadOnly refuses, after stripping comments and string literals,
//     multiple statements and every clause or command that writes or
//     administers (CREATE, MERGE, SET, DELETE, REMOVE, FOREACH, CALL, LOAD
//     CSV, DROP, SHOW, USE...). CALL is refused as a whole: procedures such
//     as gds.graph.drop declare themselves READ yet change server state.
//  2. EXPLAIN plans the query without running it and the plan's statement
//     type must be read-only ("r").
//  3. The query runs in a READ transaction (session AccessModeRead,
//     ExecuteRead), which Neo4j refuses to write in.
//  4. A transaction timeout and a row cap bound what it costs.

// ConsoleLimits bound a console query.
type ConsoleLimits struct {
	Timeout time.Duration
	MaxRows int
}

// ConsoleNode is a node in a console result.
type ConsoleNode struct {
	ID         string         `json:"id"`
	Labels     []string       `json:"labels"`
	Properties map[string]any `json:"properties"`
}

// ConsoleRel is a relationship in a console result.
type ConsoleRel struct {
	ID         string         `json:"id"`
	Type       string         `json:"type"`
	Start      string         `json:"start"`
	End        string         `json:"end"`
	Properties map[string]any `json:"properties"`
}

// ConsoleResult is what a console query returned: the rows as JSON values
// (nodes, relationships and paths as objects with a "_kind"), and every node
// and relationship met in them, for drawing.
type ConsoleResult struct {
	Columns   []string      `json:"columns"`
	Rows      [][]any       `json:"rows"`
	Truncated bool          `json:"truncated"`
	Nodes     []ConsoleNode `json:"nodes"`
	Rels      []ConsoleRel  `json:"relationships"`
	Millis    int64         `json:"ms"`
}

// refused are the words that make CheckReadOnly refuse a query: clauses that
// write, procedure calls and file loads, administration commands, and
// prefixes that change how a query runs.
var refused = []string{
	"CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "FOREACH",
	"CALL", "LOAD", "CSV", "PERIODIC",
	"DROP", "ALTER", "RENAME", "GRANT", "DENY", "REVOKE", "START", "STOP", "SHOW", "USE", "TERMINATE", "ENABLE",
	"EXPLAIN", "PROFILE", "CYPHER",
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// CheckReadOnly refuses query text that could write or administer, before it
// reaches Neo4j. It is the first guard of RunConsole (see the file comment).
// Errors: EINVALID, naming what was refused.
func CheckReadOnly(query string) error {
	code, err := stripCypher(query)
	if err != nil {
		return err
	}
	code = strings.TrimSpace(code)
	code = strings.TrimSpace(strings.TrimSuffix(code, ";"))
	if code == "" {
		return kgeval.Errorf(kgeval.EINVALID, "empty query")
	}
	if strings.Contains(code, ";") {
		return kgeval.Errorf(kgeval.EINVALID, "refused: one statement at a time (found ';')")
	}
	for _, loc := range wordRE.FindAllStringIndex(code, -1) {
		w := strings.ToUpper(code[loc[0]:loc[1]])
		if loc[0] > 0 {
			// n.delete, $set and :Create are a property, a parameter and a label.
			if p := code[loc[0]-1]; p == '.' || p == '$' || p == ':' {
				continue
			}
		}
		if strings.HasPrefix(w, "APOC") {
			return kgeval.Errorf(kgeval.EINVALID, "refused: APOC is not available in the console")
		}
		for _, r := range refused {
			if w == r {
				return kgeval.Errorf(kgeval.EINVALID, "refused: the console is read-only and %s is not allowed", r)
			}
		}
	}
	return nil
}

// stripCypher replaces comments with a space, string literals with ” and
// quoted identifiers with a plain name, so that keywords hidden in them
// neither count nor escape the checks. Errors: EINVALID for an unterminated
// comment, string or identifier.
func stripCypher(q string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '/' && i+1 < len(q) && q[i+1] == '/':
			j := strings.IndexAny(q[i:], "\n\r")
			if j < 0 {
				i = len(q)
			} else {
				i += j
			}
			b.WriteByte(' ')
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				return "", kgeval.Errorf(kgeval.EINVALID, "unterminated /* comment")
			}
			i += 2 + j + 2
			b.WriteByte(' ')
		case c == '\'' || c == '"':
			j := i + 1
			for ; j < len(q) && q[j] != c; j++ {
				if q[j] == '\\' {
					j++
				}
			}
			if j >= len(q) {
				return "", kgeval.Errorf(kgeval.EINVALID, "unterminated string literal")
			}
			i = j + 1
			b.WriteString("''")
		case c == '`':
			j := i + 1
			for {
				k := strings.IndexByte(q[j:], '`')
				if k < 0 {
					return "", kgeval.Errorf(kgeval.EINVALID, "unterminated `identifier`")
				}
				j += k + 1
				if j < len(q) && q[j] == '`' { // `` is an escaped backtick
					j++
					continue
				}
				break
			}
			i = j
			b.WriteString("quoted")
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// RunConsole runs a query typed in the dashboard's console, read-only (see
// the file comment for the four guards). Errors: EINVALID when a guard
// refuses the query or Neo4j rejects it, EUNAVAILABLE on timeout or when
// Neo4j does not answer.
func (db *DB) RunConsole(ctx context.Context, query string, lim ConsoleLimits) (*ConsoleResult, error) {
	if err := CheckReadOnly(query); err != nil {
		return nil, err
	}
	return db.runReadOnly(ctx, query, lim)
}

// runReadOnly is RunConsole after the text guard: the EXPLAIN check, the
// read transaction and the limits.
func (db *DB) runReadOnly(ctx context.Context, query string, lim ConsoleLimits) (*ConsoleResult, error) {
	if lim.Timeout <= 0 {
		lim.Timeout = 10 * time.Second
	}
	if lim.MaxRows <= 0 {
		lim.MaxRows = 1000
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout+2*time.Second)
	defer cancel()
	sess := db.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db.cfg.Database, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(context.WithoutCancel(ctx))
	start := time.Now()
	txTimeout := neo4j.WithTxTimeout(lim.Timeout)

	plan, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "EXPLAIN "+query, nil)
		if err != nil {
			return nil, err
		}
		return res.Consume(ctx)
	}, txTimeout)
	if err != nil {
		return nil, consoleError(err)
	}
	if st := plan.(neo4j.ResultSummary).StatementType(); st != neo4j.StatementTypeReadOnly {
		return nil, kgeval.Errorf(kgeval.EINVALID, "refused: Neo4j plans this query as %s, and the console runs read-only queries only", st)
	}

	out, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, query, nil)
		if err != nil {
			return nil, err
		}
		keys, err := res.Keys()
		if err != nil {
			return nil, err
		}
		r := &ConsoleResult{Columns: keys, Rows: [][]any{}, Nodes: []ConsoleNode{}, Rels: []ConsoleRel{}}
		g := &consoleGraph{r: r, nodes: map[string]bool{}, rels: map[string]bool{}}
		for res.Next(ctx) {
			if len(r.Rows) == lim.MaxRows {
				r.Truncated = true
				break
			}
			rec := res.Record()
			row := make([]any, len(rec.Values))
			for i, v := range rec.Values {
				row[i] = g.value(v)
			}
			r.Rows = append(r.Rows, row)
		}
		if err := res.Err(); err != nil {
			return nil, err
		}
		if _, err := res.Consume(ctx); err != nil {
			return nil, err
		}
		return r, nil
	}, txTimeout)
	if err != nil {
		return nil, consoleError(err)
	}
	r := out.(*ConsoleResult)
	r.Millis = time.Since(start).Milliseconds()
	return r, nil
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
	r           *ConsoleResult
	nodes, rels map[string]bool
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
	g.r.Nodes = append(g.r.Nodes, ConsoleNode{ID: n.ElementId, Labels: n.Labels, Properties: g.props(n.Props)})
}

func (g *consoleGraph) rel(r dbtype.Relationship) {
	if g.rels[r.ElementId] {
		return
	}
	g.rels[r.ElementId] = true
	g.r.Rels = append(g.r.Rels, ConsoleRel{ID: r.ElementId, Type: r.Type, Start: r.StartElementId, End: r.EndElementId, Properties: g.props(r.Props)})
}

package graphstore

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/antlr4-go/antlr/v4"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher/parser"
)

// This file bounds what a console query asks of Neo4j's planner and of the
// memory Neo4j does not count, from the query's parse tree, before
// anything of the query is sent: Neo4j's planner alone spent a core-minute
// on a 102-hop EXPLAIN, and comprehensions built lists past the memory guard.
//
// Neo4j plans a query before it runs it, EXPLAIN included, and its planner
// cannot be stopped: neither the transaction's time limit nor TERMINATE
// TRANSACTION reaches it, and its work grows faster than linearly with the
// relationships of a pattern (measured on this machine, 2 cores shared,
// EXPLAIN of one path: 8 relationships 0.6-1.9 s, 12 relationships 1.9-3.5
// s, 24 relationships 8-22 s, 102 relationships 61-75 s; 10 relationships
// among 5 nodes 2.3-3.7 s; 16 nodes joined pairwise on a property 12.5 s;
// 300 WITH clauses 5.6 s, 200 UNIONs 4 s). Fresh variable names dodge its
// plan cache, so every variant costs it again. So the console reads the query with Neo4j's own grammar (package
// cypher/parser) and refuses, before EXPLAIN, one with
//
//   - more than consoleMaxPathRels relationships in one path pattern, or
//     consoleMaxRels in all its patterns together (subqueries included);
//   - more than consoleMaxPatterns path patterns, consoleMaxClauses
//     clauses, consoleMaxSubqueries subqueries (CALL { }, EXISTS { },
//     COUNT { }, COLLECT { }), or subqueries nested deeper than
//     consoleMaxSubqueryDepth;
//   - a variable-length relationship or quantified path without an upper
//     bound, or with one over consoleMaxVarLength (a shortest-path search
//     may leave it out: it visits each node once per row);
//   - a query option other than CYPHER 5 and CYPHER runtime=slotted (CYPHER
//     planner=dp took 123 s to plan 12 relationships in a row);
//   - a pattern comprehension, or a COLLECT { } that does not end in RETURN
//     ... LIMIT n with n a literal, the n of all COLLECT { } of the query at
//     most consoleMaxValue together (a nested one counted once per element
//     of the list around it): Neo4j's memory guard does not count the
//     lists they build, and a pattern of a few hops around a hub makes
//     them millions long (11.9 million elements from a node of
//     degree 308). COUNT { } and EXISTS
//     { } build no list; their rows are Neo4j's to stop at its time limit
//     (measured: COUNT { (a)-[*1..6]-() } around a node of degree 59 stops
//     at a 3 s limit after 4.8 s).
//
// What the text cannot show (the work and values of one row) the plan
// shows after EXPLAIN (consoleguard.go, consolecost.go).

const (
	// consoleMaxPathRels bounds the relationships of one path pattern.
	consoleMaxPathRels = 8
	// consoleMaxRels bounds the relationships of all patterns together.
	consoleMaxRels = 12
	// consoleMaxPatterns bounds the path patterns, one node alone included:
	// the planner also searches the order in which to join them (16 nodes
	// joined on a property pairwise, 120 predicates: 12.5 s; 8 nodes: 4 s,
	// at a load average of 10).
	consoleMaxPatterns = 8
	// consoleMaxClauses bounds the clauses (MATCH, WITH, RETURN, ...),
	// those of subqueries and UNION branches included.
	consoleMaxClauses = 40
	// consoleMaxSubqueries bounds CALL { }, EXISTS { }, COUNT { } and
	// COLLECT { } together.
	consoleMaxSubqueries = 16
	// consoleMaxSubqueryDepth bounds how deep subqueries nest.
	consoleMaxSubqueryDepth = 3
	// consoleMaxVarLength bounds the upper bound of a variable-length
	// relationship ([*..n]) or quantified path ({m,n}).
	consoleMaxVarLength = 10
	// consoleParseBudget bounds the time the parser may take.
	consoleParseBudget = 500 * time.Millisecond
)

// checkShape parses query (\uHHHH escapes decoded first, as Neo4j does)
// and refuses it when its structure is past the caps above. Errors:
// EINVALID starting with "refused:".
func checkShape(query string) error {
	tree, err := parser.Parse(decodeEscapes(query), consoleParseBudget)
	var syntax *parser.SyntaxError
	switch {
	case errors.Is(err, parser.ErrBudget):
		return refusedf("the console could not read this query within %s; simplify it", consoleParseBudget)
	case errors.As(err, &syntax):
		return refusedf("the console cannot read this query as Cypher 5 (%s)", syntax)
	case err != nil:
		return kgeval.Wrap(kgeval.EINTERNAL, err, "parse a console query")
	}
	w := &shapeWalker{scale: 1}
	return w.walk(tree)
}

// shapeWalker counts what checkShape bounds while it walks a parse tree.
type shapeWalker struct {
	rels, patterns, clauses, subqueries int
	depth                               int  // subqueries around the current node
	shortest                            int  // shortest-path searches around the current node
	path                                *int // relationships of the path pattern being read; nil outside one
	// collected bounds the elements of all COLLECT { } lists of one row
	// together; a COLLECT { } inside another's is built once per element
	// of the outer one, scale times.
	collected, scale int
}

func refusef(format string, args ...any) error {
	return refusedf(format, args...)
}

func (w *shapeWalker) walk(t antlr.Tree) error {
	switch n := t.(type) {
	case *parser.ClauseContext:
		if w.clauses++; w.clauses > consoleMaxClauses {
			return refusef("the query has over %d clauses, the console's limit: Neo4j plans every one before it runs any", consoleMaxClauses)
		}
	case *parser.PatternComprehensionContext:
		return refusef("pattern comprehensions ([(a)-->(b) | ...]) are not allowed in the console: Neo4j's memory guard does not count the list they build, which a pattern of a few hops makes millions long; write COLLECT { MATCH (a)-->(b) RETURN ... LIMIT n } (n at most %d), COUNT { (a)-->(b) } for a number, or MATCH ... with collect()", consoleMaxValue)
	case *parser.CollectExpressionContext:
		return w.collect(n)
	case *parser.SubqueryClauseContext, *parser.ExistsExpressionContext, *parser.CountExpressionContext:
		return w.subquery(n)
	case *parser.ExpressionContext:
		// a pattern inside an expression (a WHERE inside a node, a
		// subquery) is a path of its own
		saved := w.path
		w.path = nil
		defer func() { w.path = saved }()
	case *parser.PatternContext, *parser.PathPatternNonEmptyContext:
		if w.path == nil {
			return w.pathPattern(n)
		}
	case *parser.ShortestPathPatternContext:
		w.shortest++
		defer func() { w.shortest-- }()
		if w.path == nil { // shortestPath() in an expression
			return w.pathPattern(n)
		}
	case *parser.CypherOptionsContext:
		if err := checkCypherOptions(n); err != nil {
			return err
		}
	case *parser.RelationshipPatternContext:
		if err := w.relationship(); err != nil {
			return err
		}
	case *parser.PathLengthContext:
		if err := w.varLength(n.GetSingle() != nil, n.DOTDOT() == nil && n.GetSingle() == nil, n.GetSingle(), n.GetTo()); err != nil {
			return err
		}
	case *parser.QuantifierContext:
		fixed := n.COMMA() == nil && n.PLUS() == nil && n.TIMES() == nil
		var single antlr.Token
		if fixed && len(n.AllUNSIGNED_DECIMAL_INTEGER()) == 1 {
			single = n.UNSIGNED_DECIMAL_INTEGER(0).GetSymbol()
		}
		if err := w.varLength(fixed, n.PLUS() != nil || n.TIMES() != nil, single, n.GetTo()); err != nil {
			return err
		}
	}
	return w.children(t)
}

func (w *shapeWalker) children(t antlr.Tree) error {
	for _, c := range t.GetChildren() {
		if err := w.walk(c); err != nil {
			return err
		}
	}
	return nil
}

// subquery counts a subquery and reads it one level deeper.
func (w *shapeWalker) subquery(t antlr.Tree) error {
	if w.subqueries++; w.subqueries > consoleMaxSubqueries {
		return refusef("the query has over %d subqueries (CALL, EXISTS, COUNT and COLLECT { }), the console's limit: Neo4j plans every one before it runs any", consoleMaxSubqueries)
	}
	if w.depth++; w.depth > consoleMaxSubqueryDepth {
		return refusef("the query nests subqueries (CALL, EXISTS, COUNT and COLLECT { }) deeper than the console's limit of %d", consoleMaxSubqueryDepth)
	}
	defer func() { w.depth-- }()
	saved := w.path
	w.path = nil
	defer func() { w.path = saved }()
	return w.children(t)
}

// pathPattern counts a path pattern and the relationships in it.
func (w *shapeWalker) pathPattern(t antlr.Tree) error {
	if w.patterns++; w.patterns > consoleMaxPatterns {
		return refusef("the query has over %d patterns, the console's limit: Neo4j's planner works on all of them before anything runs", consoleMaxPatterns)
	}
	if p, ok := t.(*parser.PatternContext); ok && p.Selector() != nil {
		switch p.Selector().(type) {
		case *parser.AnyShortestPathContext, *parser.AllShortestPathContext, *parser.ShortestGroupContext:
			w.shortest++
			defer func() { w.shortest-- }()
		}
	}
	rels := 0
	w.path = &rels
	defer func() { w.path = nil }()
	return w.children(t)
}

func (w *shapeWalker) relationship() error {
	if w.rels++; w.rels > consoleMaxRels {
		return refusef("the query's patterns have over %d relationships together, the console's limit: Neo4j's planner takes seconds to minutes over long or many patterns and cannot be stopped; use fewer or shorter patterns", consoleMaxRels)
	}
	if w.path != nil {
		if *w.path++; *w.path > consoleMaxPathRels {
			return refusef("a pattern of this query has over %d relationships, the console's limit per pattern: Neo4j's planner takes seconds to minutes over a long pattern and cannot be stopped; use a variable-length relationship ([*1..%d]) or a shorter pattern", consoleMaxPathRels, consoleMaxVarLength)
		}
	}
	return nil
}

// varLength checks the bounds of a variable-length relationship or a
// quantifier: fixed (a single count, such as [*3] or {3}), unbounded (*, +,
// [*2..], {2,}), or with an upper bound to.
func (w *shapeWalker) varLength(fixed, unbounded bool, single, to antlr.Token) error {
	if w.shortest > 0 {
		return nil
	}
	upper := to
	if fixed {
		upper = single
	}
	if unbounded || upper == nil {
		return refusef("a variable-length relationship or quantified path needs an upper bound in the console ([*1..%d], {1,%d}); only a shortest-path search (SHORTEST k, shortestPath()) may leave it out", consoleMaxVarLength, consoleMaxVarLength)
	}
	if n, err := strconv.Atoi(upper.GetText()); err != nil || n > consoleMaxVarLength {
		return refusef("the upper bound %s of a variable-length relationship or quantified path is over the console's limit of %d", upper.GetText(), consoleMaxVarLength)
	}
	return nil
}

// checkCypherOptions allows the query options CYPHER 5 and CYPHER
// runtime=slotted (Community's default) only: the others choose how Neo4j
// plans, and CYPHER planner=dp took 123 s to plan 12 relationships in a
// row that the default planner plans in 1.4 s.
func checkCypherOptions(o *parser.CypherOptionsContext) error {
	if v := o.CypherVersion(); v != nil && v.GetText() != "5" {
		return refusef("the console runs Cypher 5 only (CYPHER %s)", v.GetText())
	}
	for _, opt := range o.AllCypherOption() {
		name, value := strings.ToLower(opt.CypherOptionName().GetText()), strings.ToLower(opt.CypherOptionValue().GetText())
		if name != "runtime" || value != "slotted" {
			return refusef("the console allows no query option but CYPHER runtime=slotted (%s=%s): the others change how Neo4j plans", opt.CypherOptionName().GetText(), opt.CypherOptionValue().GetText())
		}
	}
	return nil
}

// collect bounds a COLLECT { }: every branch must end in RETURN ... LIMIT
// n, n an integer literal, and the lists of all COLLECT { } of the query
// may hold at most consoleMaxValue elements together, a nested one
// counted once per element of the list around it.
func (w *shapeWalker) collect(c *parser.CollectExpressionContext) error {
	n := 0
	for _, q := range c.RegularQuery().AllSingleQuery() {
		clauses := q.AllClause()
		ret := clauses[len(clauses)-1].ReturnClause()
		limit := -1
		if ret != nil && ret.ReturnBody().Limit() != nil {
			if v, err := strconv.Atoi(ret.ReturnBody().Limit().Expression().GetText()); err == nil && v >= 0 {
				limit = v
			}
		}
		if limit < 0 {
			return refusef("COLLECT { ... } must end in RETURN ... LIMIT n in the console, n a number of at most %d: Neo4j's memory guard does not count the list it builds", consoleMaxValue)
		}
		if n += limit; n > consoleMaxValue {
			break
		}
	}
	if n > consoleMaxValue || n > 0 && w.scale > (consoleMaxValue-w.collected)/n {
		return refusef("the COLLECT { ... } of this query may collect up to %s elements together, over the console's limit of %d: Neo4j's memory guard does not count the lists they build", human(float64(w.collected)+float64(w.scale)*float64(n)), consoleMaxValue)
	}
	w.collected += w.scale * n
	saved := w.scale
	w.scale *= n
	defer func() { w.scale = saved }()
	return w.subquery(c)
}

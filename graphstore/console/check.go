package console

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/antlr4-go/antlr/v4"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher/parser"
)

// This file and expr.go are the console's one reader of a query: its parse
// tree (Neo4j's Cypher 5 grammar, package cypher/parser) read against an
// allowlist. Every rule of the grammar that the walk below does not name
// is refused, so a construct the console has not thought about cannot pass.
//
// Besides what may appear, the walk bounds what Neo4j cannot stop:
//
//   - Its parser and planner recurse over the expression tree and die of a
//     stack overflow past a few hundred levels, which they build from
//     nesting and from flat chains alike (a + b + ... is as deep as it is
//     long): 500 nested parentheses, 400 NOTs, 990 '.a' lookups or 1,980
//     '!' in a label never got an answer. So the text, its tokens and its
//     brackets are bounded before the parse (maxQueryBytes, maxTokens,
//     maxNesting), and each expression's chains, depth and operators after
//     it (maxChain, maxDepth, maxExprOps, maxOps, and maxXor: the planner
//     doubles its work for each XOR).
//   - Its planner cannot be stopped, not by the transaction's time limit,
//     not by TERMINATE TRANSACTION, and its work grows faster than linearly
//     with the relationships of a pattern (measured on 2 shared cores,
//     EXPLAIN of one path: 8 relationships 0.6-1.9 s, 12 1.9-3.5 s, 24
//     8-22 s, 102 61-75 s; 16 nodes joined pairwise 12.5 s; 300 WITH clauses
//     5.6 s). So patterns, relationships and clauses are bounded
//     (maxPathRels, maxRels, maxPatterns, maxClauses), and so are
//     variable-length relationships and quantified paths (maxVarLength;
//     a shortest-path search may leave the bound out: it visits each node
//     once per row). Query options (CYPHER planner=dp planned 12
//     relationships in 123 s) are refused.
//   - What the expressions of one row compute: Neo4j checks its time limit
//     only between rows and does not count the values expressions build
//     against its memory guard (expr.go).

const (
	// maxQueryBytes bounds the query's length.
	maxQueryBytes = 20000
	// maxTokens bounds its words, numbers, strings and symbols.
	maxTokens = 2000
	// maxNesting bounds how deep brackets and CASE nest, read from the
	// tokens before the parse (the parser recurses over them).
	maxNesting = 40
	// maxPathRels bounds the relationships of one path pattern.
	maxPathRels = 8
	// maxRels bounds the relationships of all patterns together.
	maxRels = 12
	// maxPatterns bounds the path patterns, one node alone included: the
	// planner also searches the order in which to join them.
	maxPatterns = 8
	// maxClauses bounds the clauses.
	maxClauses = 40
	// maxVarLength bounds the upper bound of a variable-length
	// relationship ([*..n]) or a quantified path ({m,n}).
	maxVarLength = 10
	// parseBudget bounds the time the parser may take.
	parseBudget = 500 * time.Millisecond
)

// checked is what the console learned of an admitted query.
type checked struct {
	mode string // "", "EXPLAIN" or "PROFILE"
	body string // the query after its EXPLAIN or PROFILE, as typed
}

// refusal carries a refusal out of the walk.
type refusal struct{ err error }

func refuse(format string, args ...any) {
	panic(refusal{refusedf(format, args...)})
}

// check reads query and refuses it unless the allowlist admits it; the
// bounds are those of the file comment and of expr.go. Errors: EINVALID
// starting with "refused:".
func check(query string) (*checked, error) {
	t, err := readText(query)
	if err != nil {
		return nil, err
	}
	return t.check()
}

// text is a query whose text is within the bounds checked before the
// parse.
type text struct {
	query, decoded string
	orig           func(int) int // see decodeEscapes
}

// readText checks the length of query, and its tokens and nesting with the
// grammar's own lexer (\uHHHH escapes decoded first, as Neo4j does): cheap
// checks, before the parser recurses over the text. Errors: EINVALID
// starting with "refused:".
func readText(query string) (*text, error) {
	if len(query) > maxQueryBytes {
		return nil, refusedf("the query is %d bytes, over the console's limit of %d", len(query), maxQueryBytes)
	}
	decoded, orig := decodeEscapes(query)
	if err := checkTokens(decoded); err != nil {
		return nil, err
	}
	return &text{query: query, decoded: decoded, orig: orig}, nil
}

// check parses the text and walks its tree.
func (t *text) check() (q *checked, err error) {
	tree, err := parser.Parse(t.decoded, parseBudget)
	var syntax *parser.SyntaxError
	switch {
	case errors.Is(err, parser.ErrBudget):
		return nil, refusedf("the console could not read this query within %s; simplify it", parseBudget)
	case errors.As(err, &syntax):
		return nil, refusedf("the console cannot read this query as Cypher 5 (%s)", syntax)
	case err != nil:
		return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "parse a console query")
	}
	defer func() {
		if r := recover(); r != nil {
			q, err = nil, kgeval.Errorf(kgeval.EINTERNAL, "the console could not read this query: %v", r)
			if ref, ok := r.(refusal); ok {
				err = ref.err
			}
		}
	}()
	mode := newWalker().statement(tree)
	return &checked{mode: mode, body: t.query[t.orig(tree.Statement().GetStart().GetStart()):]}, nil
}

// checkTokens bounds the tokens of text and how deep its brackets and CASE
// expressions nest, with the grammar's own lexer, before the parser
// recurses over them. END closes a CASE only (it is also a name: n.end).
func checkTokens(text string) error {
	lexer := parser.NewConsoleLexer(antlr.NewInputStream(text))
	lexer.RemoveErrorListeners()
	closer := map[int]int{parser.ConsoleLexerRPAREN: parser.ConsoleLexerLPAREN, parser.ConsoleLexerRBRACKET: parser.ConsoleLexerLBRACKET,
		parser.ConsoleLexerRCURLY: parser.ConsoleLexerLCURLY, parser.ConsoleLexerEND: parser.ConsoleLexerCASE}
	var open []int
	tokens := 0
	for {
		t := lexer.NextToken()
		if t.GetTokenType() == antlr.TokenEOF {
			return nil
		}
		if t.GetChannel() != antlr.TokenDefaultChannel {
			continue
		}
		if tokens++; tokens > maxTokens {
			return refusedf("the query has over %d tokens, the console's limit", maxTokens)
		}
		switch tt := t.GetTokenType(); tt {
		case parser.ConsoleLexerLPAREN, parser.ConsoleLexerLBRACKET, parser.ConsoleLexerLCURLY, parser.ConsoleLexerCASE:
			if open = append(open, tt); len(open) > maxNesting {
				return refusedf("the query nests brackets and CASE deeper than the console's limit of %d levels", maxNesting)
			}
		case parser.ConsoleLexerRPAREN, parser.ConsoleLexerRBRACKET, parser.ConsoleLexerRCURLY, parser.ConsoleLexerEND:
			if len(open) > 0 && open[len(open)-1] == closer[tt] {
				open = open[:len(open)-1]
			}
		}
	}
}

// statement reads the whole statement and returns its mode.
func (w *walker) statement(s parser.IConsoleStatementContext) string {
	mode := ""
	for _, o := range s.AllPreparserOption() {
		switch {
		case o.CypherOptions() != nil:
			refuse("query options (%s) are not allowed in the console: they change how Neo4j plans", o.GetText())
		case mode != "":
			refuse("one EXPLAIN or PROFILE at most")
		}
		mode = strings.ToUpper(o.GetText())
	}
	st := s.Statement()
	switch {
	case st.PeriodicCommitQueryHintFailure() != nil:
		refuse("USING PERIODIC COMMIT is not allowed in the console")
	case st.Command() != nil:
		refuse("%s: administration and SHOW commands are not allowed in the console", words(st.Command(), 2))
	}
	q := st.RegularQuery()
	if len(q.AllSingleQuery()) > 1 {
		refuse("UNION is not allowed in the console")
	}
	for _, c := range q.SingleQuery(0).AllClause() {
		w.clause(c)
	}
	return mode
}

// clause reads one clause.
func (w *walker) clause(c parser.IClauseContext) {
	if w.clauses++; w.clauses > maxClauses {
		refuse("the query has over %d clauses, the console's limit: Neo4j plans every one before it runs any", maxClauses)
	}
	switch x := c.GetChild(0).(type) {
	case *parser.MatchClauseContext:
		w.match(x)
	case *parser.WithClauseContext:
		w.project(x.ReturnBody(), x.WhereClause())
	case *parser.ReturnClauseContext:
		w.project(x.ReturnBody(), nil)
	case *parser.UnwindClauseContext:
		if f, ok := unwrap(x.Expression()).(*parser.FunctionInvocationContext); ok && strings.EqualFold(f.FunctionName().GetText(), "range") {
			w.lazy = true // UNWIND walks a range() row by row
		}
		list := w.top(x.Expression())
		w.lazy = false
		if math.IsInf(list.n, 1) {
			w.rows = math.Inf(1)
		} else {
			w.rows *= max(list.n, 1)
		}
		w.env[name(x.Variable())] = list.part()
	case *parser.CallClauseContext:
		refuse("CALL of a procedure (%s) is not allowed in the console", x.ProcedureName().GetText())
	case *parser.SubqueryClauseContext:
		refuse("CALL { } subquery is not allowed in the console")
	case *parser.LoadCSVClauseContext:
		refuse("LOAD CSV is not allowed in the console")
	case *parser.UseClauseContext:
		refuse("USE is not allowed in the console")
	case *parser.OrderBySkipLimitClauseContext:
		refuse("ORDER BY, SKIP and LIMIT are allowed in the console only after WITH or RETURN")
	default: // CREATE, INSERT, MERGE, SET, REMOVE, DELETE, FOREACH, FINISH
		what := words(x, 1)
		if what == "DETACH" || what == "NODETACH" {
			what = words(x, 2)
		}
		refuse("%s is not allowed in the console: it runs read-only queries only", what)
	}
}

// match reads a MATCH or OPTIONAL MATCH.
func (w *walker) match(m *parser.MatchClauseContext) {
	switch {
	case m.MatchMode() != nil:
		refuse("match modes (%s) are not allowed in the console", words(m.MatchMode(), 3))
	case len(m.AllHint()) > 0:
		refuse("planner hints (%s) are not allowed in the console", words(m.Hint(0), 3))
	}
	for _, p := range m.PatternList().AllPattern() {
		w.exprOps = 0
		w.pattern(p, 0)
	}
	if wh := m.WhereClause(); wh != nil {
		w.top(wh.Expression())
	}
	w.rows = math.Inf(1)
}

// project reads the body of a WITH or RETURN and the WHERE after it: the
// variables it projects replace those in scope.
func (w *walker) project(body parser.IReturnBodyContext, where parser.IWhereClauseContext) {
	items := body.ReturnItems()
	next := scope{}
	if items.TIMES() != nil {
		for k, v := range w.env {
			next[k] = v
		}
	}
	grouping, aggregating := items.TIMES() != nil, false
	for _, it := range items.AllReturnItem() {
		w.agg, w.aggregated = true, false
		v := w.top(it.Expression())
		w.agg = false
		aggregating = aggregating || w.aggregated
		grouping = grouping || !w.aggregated
		if it.Variable() != nil {
			next[name(it.Variable())] = v
		} else {
			next[it.Expression().GetText()] = v
		}
	}
	if ob := body.OrderBy(); ob != nil {
		saved := w.env
		w.env = scope{}
		for k, v := range saved {
			w.env[k] = v
		}
		for k, v := range next {
			w.env[k] = v
		}
		w.agg = aggregating
		for _, o := range ob.AllOrderItem() {
			w.top(o.Expression())
		}
		w.agg = false
	}
	if aggregating && !grouping {
		w.rows = 1
	}
	if s := body.Skip(); s != nil {
		w.count(s.Expression(), "SKIP")
	}
	if l := body.Limit(); l != nil {
		w.rows = min(w.rows, float64(w.count(l.Expression(), "LIMIT")))
	}
	w.env = next
	if where != nil {
		w.top(where.Expression())
	}
}

// count returns the integer literal of a SKIP or LIMIT.
func (w *walker) count(e parser.IExpressionContext, what string) int64 {
	n, ok := intLiteral(e)
	if !ok || n < 0 {
		refuse("%s takes a whole number in the console (%s)", what, e.GetText())
	}
	return n
}

// pattern reads a path pattern of a MATCH, EXISTS { } or COUNT { }.
func (w *walker) pattern(p parser.IPatternContext, d int) {
	w.newPath()
	shortest := false
	switch p.Selector().(type) {
	case *parser.AnyShortestPathContext, *parser.AllShortestPathContext, *parser.ShortestGroupContext:
		shortest = true
	}
	el := p.AnonymousPattern().PatternElement()
	if sp := p.AnonymousPattern().ShortestPathPattern(); sp != nil {
		shortest, el = true, sp.PatternElement()
	}
	w.element(el, shortest, d)
	if p.Variable() != nil {
		w.env[name(p.Variable())] = pathValue
	}
}

// newPath counts a path pattern; its relationships count from zero.
func (w *walker) newPath() {
	if w.patterns++; w.patterns > maxPatterns {
		refuse("the query has over %d patterns, the console's limit: Neo4j's planner works on all of them before anything runs", maxPatterns)
	}
	w.pathRels = 0
}

// element reads the nodes, relationships and quantified paths of a path
// pattern (patternElement, pathPatternNonEmpty).
func (w *walker) element(el antlr.Tree, shortest bool, d int) {
	for _, c := range el.GetChildren() {
		switch x := c.(type) {
		case *parser.NodePatternContext:
			if x.Variable() != nil {
				w.env[name(x.Variable())] = stored
			}
			w.filler(x.LabelExpression(), x.Properties(), x.Expression(), d)
		case *parser.RelationshipPatternContext:
			w.relationship(x, shortest, d)
		case *parser.QuantifierContext:
			w.quantifier(x, shortest)
		case *parser.ParenthesizedPathContext:
			inner := x.Pattern()
			if inner.Selector() != nil || inner.AnonymousPattern().ShortestPathPattern() != nil {
				refuse("a path selector inside a quantified path is not allowed in the console")
			}
			w.element(inner.AnonymousPattern().PatternElement(), shortest, d)
			if x.Expression() != nil {
				w.expr(x.Expression(), d)
			}
			if x.Quantifier() != nil {
				w.quantifier(x.Quantifier(), shortest)
			}
		default:
			refuse("%s is not allowed in a pattern in the console", words(c, 3))
		}
	}
}

// filler reads the labels or types, properties and WHERE of a node or
// relationship pattern.
func (w *walker) filler(labels parser.ILabelExpressionContext, props parser.IPropertiesContext, where parser.IExpressionContext, d int) {
	if labels != nil {
		w.labels(labels, d)
	}
	if props != nil {
		if props.Map_() == nil {
			refuse("parameters (%s) are not allowed in the console: it sends none", props.GetText())
		}
		w.expr(props.Map_(), d)
	}
	if where != nil {
		w.expr(where, d)
	}
}

func (w *walker) relationship(r *parser.RelationshipPatternContext, shortest bool, d int) {
	if w.rels++; w.rels > maxRels {
		refuse("the query's patterns have over %d relationships together, the console's limit: Neo4j's planner takes seconds to minutes over long or many patterns and cannot be stopped; use fewer or shorter patterns", maxRels)
	}
	if w.pathRels++; w.pathRels > maxPathRels {
		refuse("a pattern of this query has over %d relationships, the console's limit per pattern: Neo4j's planner takes seconds to minutes over a long pattern and cannot be stopped; use a variable-length relationship ([*1..%d]) or a shorter pattern", maxPathRels, maxVarLength)
	}
	v := stored
	if pl := r.PathLength(); pl != nil {
		w.varLength(shortest, pl.GetSingle() != nil, pl.DOTDOT() == nil && pl.GetSingle() == nil, pl.GetSingle(), pl.GetTo())
		v = val{size: maxVarLength * (storedBytes + 16), n: maxVarLength, elem: storedBytes, stored: true}
	}
	if r.Variable() != nil {
		w.env[name(r.Variable())] = v
	}
	w.filler(r.LabelExpression(), r.Properties(), r.Expression(), d)
}

func (w *walker) quantifier(q parser.IQuantifierContext, shortest bool) {
	fixed := q.COMMA() == nil && q.PLUS() == nil && q.TIMES() == nil
	var single antlr.Token
	if fixed && len(q.AllUNSIGNED_DECIMAL_INTEGER()) == 1 {
		single = q.UNSIGNED_DECIMAL_INTEGER(0).GetSymbol()
	}
	w.varLength(shortest, fixed, q.PLUS() != nil || q.TIMES() != nil, single, q.GetTo())
}

// varLength checks the bounds of a variable-length relationship or a
// quantifier: fixed (a single count, such as [*3] or {3}), unbounded (*,
// +, [*2..], {2,}), or with an upper bound to.
func (w *walker) varLength(shortest, fixed, unbounded bool, single, to antlr.Token) {
	if shortest {
		return
	}
	upper := to
	if fixed {
		upper = single
	}
	if unbounded || upper == nil {
		refuse("a variable-length relationship or quantified path needs an upper bound in the console ([*1..%d], {1,%d}); only a shortest-path search (SHORTEST k, shortestPath()) may leave it out", maxVarLength, maxVarLength)
	}
	if n, err := strconv.Atoi(upper.GetText()); err != nil || n > maxVarLength {
		refuse("the upper bound %s of a variable-length relationship or quantified path is over the console's limit of %d", upper.GetText(), maxVarLength)
	}
}

// labels reads a label or type expression: names, &, |, ! and %, in
// chains of at most maxChain operators; no dynamic label.
func (w *walker) labels(t antlr.Tree, d int) {
	if d > maxDepth {
		refuse("a label expression nests deeper than the console's limit of %d levels", maxDepth)
	}
	ops := 0
	for _, c := range t.GetChildren() {
		if tn, ok := c.(antlr.TerminalNode); ok {
			switch tn.GetSymbol().GetTokenType() {
			case parser.ConsoleParserBAR, parser.ConsoleParserAMPERSAND, parser.ConsoleParserEXCLAMATION_MARK, parser.ConsoleParserCOLON:
				ops++
			}
		}
	}
	if ops > maxChain {
		refuse("a label expression has %d operators (!, &, |, :) in a row, over the console's limit of %d: Neo4j's parser and planner recurse once per operator", ops, maxChain)
	}
	for range ops {
		w.op()
	}
	for _, c := range t.GetChildren() {
		switch c.(type) {
		case antlr.TerminalNode:
		case *parser.DynamicAnyAllExpressionContext:
			refuse("dynamic labels and types ($(...)) are not allowed in the console")
		default:
			w.labels(c, d+ops)
		}
	}
}

// words returns the first n words of t's text, for messages.
func words(t antlr.Tree, n int) string {
	var out []string
	var walk func(t antlr.Tree)
	walk = func(t antlr.Tree) {
		for _, c := range t.GetChildren() {
			if len(out) == n {
				return
			}
			if tn, ok := c.(antlr.TerminalNode); ok {
				out = append(out, strings.ToUpper(tn.GetText()))
			} else {
				walk(c)
			}
		}
	}
	walk(t)
	return strings.Join(out, " ")
}

// name returns a variable's name, unquoted.
func name(v parser.IVariableContext) string { return unquote(v.GetText()) }

// decodeEscapes decodes \uHHHH (and \uuHHHH, as Java allows) wherever a
// backslash starts one, as Neo4j does before it reads a query; the text is
// otherwise unchanged. orig maps the index of a rune of the decoded text
// (as the parser counts) to its byte offset in s.
func decodeEscapes(s string) (decoded string, orig func(int) int) {
	var b strings.Builder
	var at []int // at[k]: the offset in s of the decoded text's byte k
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			j := i + 1
			for j < len(s) && s[j] == 'u' {
				j++
			}
			if j > i+1 && j+4 <= len(s) {
				if r, err := strconv.ParseUint(s[j:j+4], 16, 32); err == nil {
					n := b.Len()
					b.WriteRune(rune(r))
					for range b.Len() - n {
						at = append(at, i)
					}
					i = j + 3
					continue
				}
			}
			if j == i+1 && i+1 < len(s) && s[i+1] == '\\' {
				b.WriteString(`\\`) // an escaped backslash starts no escape
				at = append(at, i, i+1)
				i++
				continue
			}
		}
		b.WriteByte(s[i])
		at = append(at, i)
	}
	decoded = b.String()
	return decoded, func(k int) int {
		for i := range decoded {
			if k == 0 {
				return at[i]
			}
			k--
		}
		return len(s)
	}
}

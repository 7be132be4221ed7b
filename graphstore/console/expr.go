package console

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/kgeval/kgeval/cypher/parser"
)

// This file reads expressions: what may appear in them (the operators,
// literals, comprehensions and functions below; nothing else), how large
// they are as a tree, and a bound, from the tree alone, on what one row
// asks of Neo4j through them.
//
// Neo4j stops a transaction at its time limit only between rows, and its
// memory guard does not count what expressions build: RETURN
// size(reduce(s='', x IN range(1,10000000) | s + 'a')) held a core for
// hours, reduce(s='x', i IN range(1,26) | s+s) built 64 MiB no limit saw,
// and a COLLECT { } of 200,000 strings of 19 KB took the JVM down. So every
// expression gets a bound (val) on the bytes of its value, and the walk
// adds up, over one row, the bytes the expressions build (at most maxBuilt)
// and the steps they take (at most maxWork), each counted once per element
// of the iterations around it. What the tree cannot bound is refused:
// reduce(), COLLECT { } and pattern comprehensions, a loop over a list
// collected from rows the query does not bound, a slice of one with
// bounds that are not literals, range() with bounds that are not
// literals.
//
// What the tree knows of values:
//   - a literal is as long as its text;
//   - a stored value (node, relationship, property) is at most storedBytes,
//     a stored list at most storedElems elements: assumptions about kgeval's
//     data, not limits Neo4j enforces (its passages and embeddings are far
//     smaller);
//   - a list is its elements plus 16 bytes each;
//   - collect() holds one element per row, when the query bounds its rows
//     (LIMIT n, UNWIND of a bounded list, an aggregation without grouping
//     keys); otherwise its length is unknown, and its memory is Neo4j's to
//     count (db.memory.transaction.max): such a list may be passed on,
//     returned, counted (size()), indexed, sliced with literal bounds or
//     unwound into rows, nothing that loops over it or copies it.

const (
	// maxChain bounds the operators of one chain (a + b + ..., a AND b
	// AND ..., NOT NOT ..., lookups such as n.a.b, ! and & in a label):
	// Neo4j's parser and planner recurse once per operator.
	maxChain = 64
	// maxDepth bounds how deep an expression is as Neo4j builds it: a
	// chain counts as deep as it is long (measured: 200 nested
	// parentheses or NOTs parse, 400 to 500 never answer).
	maxDepth = 100
	// maxXor bounds the XORs of the query: Neo4j's planner rewrites each
	// into two copies of its operands (measured: 16 XORs in a row planned
	// in 1.9 s, 20 in over 10 s, and nothing stops it).
	maxXor = 8
	// maxExprOps bounds the operators, calls and lookups of one
	// expression, maxOps those of the query.
	maxExprOps = 256
	maxOps     = 1000
	// maxLiteral bounds one string literal, maxLiterals all of them.
	maxLiteral  = 8 << 10
	maxLiterals = 16 << 10
	// maxRange bounds the elements of range().
	maxRange = 1_000_000
	// maxBuilt bounds the bytes the expressions of one row may build.
	maxBuilt = 32 << 20
	// maxWork bounds the steps of one row: 8 bytes read or copied are a
	// step, an operator or call applied stepCost.
	maxWork  = 1e9
	stepCost = 64
	// storedBytes and storedElems bound a stored value (see the file
	// comment).
	storedBytes = 256 << 10
	storedElems = 1024
	// pathElems bounds the nodes and relationships of a path.
	pathElems = 2*maxRels*maxVarLength + 1
)

// val bounds a value: at most size bytes; a list of at most n elements of
// at most elem bytes each.
type val struct {
	size, n, elem float64
	// stored: a value of the graph, or one within it (a property, an
	// element of a stored list), whose parts are stored values too.
	stored bool
}

var (
	scalar    = val{size: 16, n: 1, elem: 16}
	stored    = val{size: storedBytes, n: storedElems, elem: storedBytes, stored: true}
	pathValue = val{size: pathElems * (storedBytes + 16), n: pathElems, elem: storedBytes, stored: true}
)

// sized bounds a value of at most b bytes.
func sized(b float64) val { return val{size: b, n: b / 16, elem: b} }

// part bounds an element, property or entry of v.
func (v val) part() val {
	if v.stored {
		return stored
	}
	return sized(v.elem)
}

func join(a, b val) val {
	return val{size: max(a.size, b.size), n: max(a.n, b.n), elem: max(a.elem, b.elem), stored: a.stored && b.stored}
}

// scope holds the variables in scope and what is known of them.
type scope map[string]val

func (s scope) clone() scope {
	c := make(scope, len(s))
	for k, v := range s {
		c[k] = v
	}
	return c
}

// walker reads a query's tree (check.go for clauses and patterns).
type walker struct {
	env  scope
	rows float64 // rows the query may have at this clause; +Inf: unbounded

	clauses, patterns, rels, pathRels int
	ops, exprOps, literals, xors      int

	agg        bool // aggregations allowed here (WITH, RETURN, ORDER BY)
	aggregated bool // the item being read aggregates
	lazy       bool // the range() being read is UNWIND's, walked row by row

	loop        float64 // how many times the expression being read runs per row
	iterating   int     // iterations around the expression being read
	built, work float64 // bytes built and steps taken in one row so far
}

func newWalker() *walker { return &walker{env: scope{}, rows: 1, loop: 1} }

// top reads an expression of a clause.
func (w *walker) top(t antlr.Tree) val {
	w.exprOps = 0
	return w.expr(t, 0)
}

func (w *walker) op() {
	w.ops++
	w.exprOps++
	if w.ops > maxOps {
		refuse("the query has over %d operators, calls and lookups, the console's limit", maxOps)
	}
	if w.exprOps > maxExprOps {
		refuse("an expression has over %d operators, calls and lookups, the console's limit: Neo4j's parser and planner recurse over them", maxExprOps)
	}
}

// cost counts the steps of what and the bytes it builds, once per run of
// the expression being read.
func (w *walker) cost(what string, steps, built float64) {
	w.work += (steps/8 + stepCost) * w.loop
	w.built += built * w.loop
	if !(w.work <= maxWork) { // NaN and +Inf too
		refuse("the expressions of one row may take over %s steps (reached at %s), over the console's limit: Neo4j cannot interrupt work inside a row; compute over rows instead (UNWIND, MATCH, collect(), sum(), count())", human(maxWork), what)
	}
	if !(w.built <= maxBuilt) {
		refuse("the expressions of one row may build over %d MiB (reached at %s), over the console's limit: Neo4j's memory guard does not count what expressions build; build less, or over rows (UNWIND, collect())", maxBuilt>>20, what)
	}
}

// operands reads a chain of binary operators.
func (w *walker) operands(t antlr.Tree, d int) (vs []val, ops []int) {
	var first string
	for _, c := range t.GetChildren() {
		if tn, ok := c.(antlr.TerminalNode); ok {
			ops = append(ops, tn.GetSymbol().GetTokenType())
			if first == "" {
				first = strings.ToUpper(tn.GetText())
			}
		}
	}
	if len(ops) > maxChain {
		refuse("a chain of %d operators (%s ...) is over the console's limit of %d in a row: Neo4j's parser and planner recurse once per operator", len(ops), first, maxChain)
	}
	for _, op := range ops {
		w.op()
		if op == parser.ConsoleParserXOR {
			if w.xors++; w.xors > maxXor {
				refuse("XOR: over %d in a query are over the console's limit: Neo4j's planner doubles its work for each, and cannot be stopped", maxXor)
			}
		}
	}
	for _, c := range t.GetChildren() {
		if _, ok := c.(antlr.TerminalNode); !ok {
			vs = append(vs, w.expr(c, d+len(ops)))
		}
	}
	return vs, ops
}

// expr reads an expression at depth d and bounds its value.
func (w *walker) expr(t antlr.Tree, d int) val {
	if d > maxDepth {
		refuse("an expression nests deeper than the console's limit of %d levels (a chain counts as deep as it is long): Neo4j's parser and planner recurse over it", maxDepth)
	}
	switch x := t.(type) {
	case *parser.ExpressionContext, *parser.Expression11Context, *parser.Expression10Context, *parser.Expression5Context, *parser.Expression4Context:
		vs, ops := w.operands(x, d) // OR, XOR, AND; * / %; ^
		if len(ops) == 0 {
			return vs[0]
		}
		w.cost("an operator", 0, 0)
		return scalar
	case *parser.Expression9Context:
		k := len(x.AllNOT())
		if k > maxChain {
			refuse("%d NOT in a row are over the console's limit of %d", k, maxChain)
		}
		for range k {
			w.op()
		}
		if v := w.expr(x.Expression8(), d+k); k == 0 {
			return v
		}
		return scalar
	case *parser.Expression8Context:
		vs, ops := w.operands(x, d) // = <> < > <= >=
		if len(ops) == 0 {
			return vs[0]
		}
		for i := 1; i < len(vs); i++ {
			w.cost("a comparison", min(vs[i-1].size, vs[i].size), 0)
		}
		return scalar
	case *parser.Expression7Context:
		v := w.expr(x.Expression6(), d)
		if c := x.ComparisonExpression6(); c != nil {
			w.op()
			return w.comparison(v, c, d+1)
		}
		return v
	case *parser.Expression6Context:
		vs, ops := w.operands(x, d) // + - ||
		if len(ops) == 0 {
			return vs[0]
		}
		// + and || join strings and lists (or add numbers): the result
		// holds every operand
		out := val{}
		for _, v := range vs {
			out = val{size: out.size + v.size, n: out.n + v.n, elem: max(out.elem, v.elem, v.size)}
		}
		w.cost("+ (or ||)", out.size, out.size)
		return out
	case *parser.Expression3Context:
		if x.PLUS() == nil && x.MINUS() == nil {
			return w.expr(x.Expression2(), d)
		}
		w.op()
		w.expr(x.Expression2(), d+1)
		return scalar
	case *parser.Expression2Context:
		return w.postfix(x, d)
	case *parser.Expression1Context, *parser.LiteralContext:
		return w.expr(x.GetChild(0), d)
	case *parser.ParenthesizedExpressionContext:
		return w.expr(x.Expression(), d+1)
	default:
		return w.term(t, d)
	}
}

// term is the value of a literal, a map or list, a map projection or a
// variable; other terms go to compound.
func (w *walker) term(t antlr.Tree, d int) val {
	switch x := t.(type) {
	case *parser.NummericLiteralContext, *parser.BooleanLiteralContext, *parser.KeywordLiteralContext:
		return scalar
	case *parser.StringsLiteralContext:
		n := len(x.GetText()) - 2
		if n > maxLiteral {
			refuse("a string literal of %d bytes is over the console's limit of %d", n, maxLiteral)
		}
		if w.literals += n; w.literals > maxLiterals {
			refuse("the query's string literals are over the console's limit of %d bytes together", maxLiterals)
		}
		return sized(float64(n))
	case *parser.OtherLiteralContext:
		return w.expr(x.Map_(), d)
	case *parser.MapContext:
		w.op()
		out := val{}
		for _, e := range x.AllExpression() {
			v := w.expr(e, d+1)
			out = val{size: out.size + v.size + 16, n: out.n + 1, elem: max(out.elem, v.size)}
		}
		w.cost("a map", 0, 16*out.n)
		return out
	case *parser.ListLiteralContext:
		w.op()
		out := val{}
		for _, e := range x.AllExpression() {
			v := w.expr(e, d+1)
			out = val{size: out.size + v.size + 16, n: out.n + 1, elem: max(out.elem, v.size)}
		}
		w.cost("a list", 0, 16*out.n)
		return out
	case *parser.MapProjectionContext:
		w.op()
		base, out := w.expr(x.Variable(), d+1), val{}
		for _, e := range x.AllMapProjectionElement() {
			v := base.part()
			switch {
			case e.Expression() != nil:
				v = w.expr(e.Expression(), d+1)
			case e.Variable() != nil:
				v = w.expr(e.Variable(), d+1)
			case e.TIMES() != nil:
				v = base
			}
			out = val{size: out.size + v.size + 16, n: out.n + 1, elem: max(out.elem, v.size)}
		}
		w.cost("a map projection", 0, 16*out.n)
		return out
	case *parser.VariableContext:
		if v, ok := w.env[name(x)]; ok {
			return v
		}
		return stored // Neo4j refuses an unknown variable
	default:
		return w.compound(t, d)
	}
}

// compound is the value of a CASE, a comprehension or predicate over a
// list, a function call, a subquery or a pattern; it refuses the
// expressions the console does not allow.
func (w *walker) compound(t antlr.Tree, d int) val {
	switch x := t.(type) {
	case *parser.CaseExpressionContext:
		// A CASE counts two levels: Neo4j's parser overflowed at 200
		// nested CASEs, at 500 nested parentheses.
		w.op()
		out := scalar
		for _, alt := range x.AllCaseAlternative() {
			w.expr(alt.Expression(0), d+2)
			out = join(out, w.expr(alt.Expression(1), d+2))
		}
		if x.Expression() != nil {
			out = join(out, w.expr(x.Expression(), d+2))
		}
		return out
	case *parser.ExtendedCaseExpressionContext:
		w.op()
		d++ // two levels, as above
		w.expr(x.Expression(0), d+1)
		out := scalar
		for _, alt := range x.AllExtendedCaseAlternative() {
			for _, when := range alt.AllExtendedWhen() {
				if s, ok := when.(*parser.WhenStringOrListContext); ok && s.REGEQ() != nil {
					refuse("=~ (regular expressions) is not allowed in the console: a pattern can backtrack for hours inside one row")
				}
				if tc, ok := when.(*parser.WhenTypeContext); ok {
					w.typeOf(tc.Type_())
				}
				for _, c := range when.GetChildren() {
					switch c.(type) {
					case *parser.ExpressionContext, *parser.Expression6Context, *parser.Expression7Context:
						w.expr(c, d+1)
					}
				}
			}
			out = join(out, w.expr(alt.Expression(), d+1))
		}
		if x.GetElseExp() != nil {
			out = join(out, w.expr(x.GetElseExp(), d+1))
		}
		return out
	case *parser.ListComprehensionContext:
		what := "the list comprehension [" + name(x.Variable()) + " IN ...]"
		list, out := w.iterate(what, x.Variable(), x.Expression(0), x.GetWhereExp(), x.GetBarExp(), d)
		if x.GetBarExp() == nil {
			out = list.part()
		}
		w.cost(what, list.n, list.n*16)
		return val{size: list.n * (out.size + 16), n: list.n, elem: out.size}
	case *parser.ListItemsPredicateContext:
		what := strings.ToLower(x.GetChild(0).(antlr.TerminalNode).GetText()) + "(" + name(x.Variable()) + " IN ...)"
		list, _ := w.iterate(what, x.Variable(), x.GetInExp(), x.GetWhereExp(), nil, d)
		w.cost(what, list.n, 0)
		return scalar
	case *parser.TrimFunctionContext:
		w.op()
		if x.GetTrimCharacterString() != nil {
			w.expr(x.GetTrimCharacterString(), d+1)
		}
		v := w.expr(x.GetTrimSource(), d+1)
		w.cost("trim()", v.size, v.size)
		return sized(v.size)
	case *parser.CountStarContext:
		w.aggregate("count(*)")
		return scalar
	case *parser.FunctionInvocationContext:
		return w.call(x, d)
	case *parser.ExistsExpressionContext:
		return w.exists("EXISTS", x.RegularQuery(), x.MatchMode(), x.PatternList(), x.WhereClause(), d)
	case *parser.CountExpressionContext:
		return w.exists("COUNT", x.RegularQuery(), x.MatchMode(), x.PatternList(), x.WhereClause(), d)
	case *parser.PatternExpressionContext:
		w.once("a pattern predicate")
		w.op()
		saved := w.env
		w.env = saved.clone()
		w.newPath()
		w.element(x.PathPatternNonEmpty(), false, d+1)
		w.env = saved
		return scalar
	case *parser.ShortestPathExpressionContext:
		w.once("shortestPath()")
		w.op()
		w.newPath()
		w.element(x.ShortestPathPattern().PatternElement(), true, d+1)
		return pathValue
	case *parser.CollectExpressionContext:
		refuse("COLLECT { } subquery is not allowed in the console: Neo4j's memory guard does not count the list it builds; use collect() over rows, which it counts")
	case *parser.PatternComprehensionContext:
		refuse("pattern comprehensions ([(a)-->(b) | ...]) are not allowed in the console: Neo4j's memory guard does not count the list they build; use COUNT { (a)-->(b) } for a number, EXISTS { }, or MATCH with collect()")
	case *parser.ReduceExpressionContext:
		refuse("reduce() is not allowed in the console: its accumulator can grow inside one row, which Neo4j neither interrupts nor counts; use UNWIND with sum(), max() or collect()")
	case *parser.NormalizeFunctionContext:
		refuse("normalize() is not allowed in the console: a normal form can make a string many times longer")
	case *parser.ParameterContext:
		refuse("parameters (%s) are not allowed in the console: it sends none", x.GetText())
	}
	refuse("%s is not allowed in the console", words(t, 3))
	return val{}
}

// comparison reads the right side of =~, STARTS WITH, ENDS WITH, CONTAINS,
// IN, IS NULL, IS :: TYPE and IS NORMALIZED.
func (w *walker) comparison(left val, c parser.IComparisonExpression6Context, d int) val {
	if tc, ok := c.(*parser.TypeComparisonContext); ok {
		w.typeOf(tc.Type_())
	}
	s, ok := c.(*parser.StringAndListComparisonContext)
	if !ok {
		return scalar // IS [NOT] NULL, a type, a normal form
	}
	if s.REGEQ() != nil {
		refuse("=~ (regular expressions) is not allowed in the console: a pattern can backtrack for hours inside one row")
	}
	right := w.expr(s.Expression6(), d)
	switch {
	case s.IN() != nil:
		if math.IsInf(right.n, 1) {
			refuse("IN over a list collected from rows the query does not bound is not allowed in the console: Neo4j cannot interrupt a loop inside one row; collect at most n rows first (WITH ... LIMIT n before collect())")
		}
		w.cost("IN", min(right.n*left.size, right.size)+right.n*stepCost, 0)
	case s.CONTAINS() != nil:
		w.cost("CONTAINS", left.size*right.size, 0) // a naive search, at worst
	default:
		w.cost("STARTS WITH or ENDS WITH", min(left.size, right.size), 0)
	}
	return scalar
}

// typeOf bounds the type of IS :: TYPE, whose LIST<...> nest without
// brackets the console counts.
func (w *walker) typeOf(t antlr.ParseTree) {
	n := 0
	var count func(t antlr.Tree)
	count = func(t antlr.Tree) {
		if _, ok := t.(antlr.TerminalNode); ok {
			n++
		}
		for _, c := range t.GetChildren() {
			count(c)
		}
	}
	count(t)
	if n > maxChain {
		refuse("a type of %d words and symbols in IS :: is over the console's limit of %d", n, maxChain)
	}
}

// postfix reads lookups: .key, [i], [a..b], :Label.
func (w *walker) postfix(x *parser.Expression2Context, d int) val {
	pf := x.AllPostFix()
	if len(pf) > maxChain {
		refuse("%d lookups in a row (.key, [i], [a..b], :Label) are over the console's limit of %d: Neo4j's parser and planner recurse once per lookup", len(pf), maxChain)
	}
	v := w.expr(x.Expression1(), d+len(pf))
	for i, p := range pf {
		w.op()
		dd := d + len(pf) - i
		switch p := p.(type) {
		case *parser.PropertyPostfixContext:
			v = v.part()
		case *parser.LabelPostfixContext:
			w.labels(p.LabelExpression(), dd)
			v = scalar
		case *parser.IndexPostfixContext:
			w.expr(p.Expression(), dd)
			v = v.part()
		case *parser.RangePostfixContext:
			v = w.slice(v, p, dd)
		}
	}
	return v
}

// slice bounds list[a..b]: as long as its literal bounds say, else as long
// as the list.
func (w *walker) slice(v val, p *parser.RangePostfixContext, d int) val {
	from, to := p.GetFromExp(), p.GetToExp()
	a, aok := int64(0), from == nil
	b, bok := int64(0), false
	if from != nil {
		a, aok = intLiteral(from)
		w.expr(from, d)
	}
	if to != nil {
		b, bok = intLiteral(to)
		w.expr(to, d)
	}
	n := v.n
	switch {
	case aok && bok && (a >= 0) == (b >= 0):
		n = min(n, float64(max(0, b-a)))
	case aok && a < 0 && to == nil:
		n = min(n, float64(-a))
	}
	if math.IsInf(n, 1) {
		refuse("a slice [a..b] of a list collected from rows the query does not bound needs whole-number literal bounds in the console (l[0..10])")
	}
	w.cost("a slice [a..b]", n, 16*n)
	return val{size: min(v.size, n*(v.elem+16)), n: n, elem: v.elem, stored: v.stored}
}

// iterate reads [x IN list WHERE pred | body] and all(x IN list WHERE
// pred) and the like: pred and body run once per element of list. It
// returns the bounds of list and of body (of one element, without body).
func (w *walker) iterate(what string, v parser.IVariableContext, listT, pred, body antlr.Tree, d int) (list, out val) {
	w.op()
	list = w.expr(listT, d+1)
	if math.IsInf(list.n, 1) {
		refuse("%s over a list collected from rows the query does not bound is not allowed in the console: Neo4j cannot interrupt a loop inside one row; collect at most n rows first (WITH ... LIMIT n before collect()), or UNWIND the list", what)
	}
	saved, loop := w.env, w.loop
	w.env = saved.clone()
	w.env[name(v)] = list.part()
	w.loop *= max(list.n, 1)
	w.iterating++
	out = list.part()
	if pred != nil {
		w.expr(pred, d+1)
	}
	if body != nil {
		out = w.expr(body, d+1)
	}
	w.env, w.loop = saved, loop
	w.iterating--
	return list, out
}

// exists reads EXISTS { } and COUNT { } in their pattern form.
func (w *walker) exists(kw string, q parser.IRegularQueryContext, mode parser.IMatchModeContext, pl parser.IPatternListContext, where parser.IWhereClauseContext, d int) val {
	switch {
	case q != nil:
		refuse("%s { } subquery (MATCH, WITH, RETURN ... inside) is not allowed in the console; write %s { (a)-->(b) WHERE ... }", kw, kw)
	case mode != nil:
		refuse("match modes (%s) are not allowed in the console", words(mode, 3))
	}
	w.once(kw + " { }")
	w.op()
	saved := w.env
	w.env = saved.clone()
	for _, p := range pl.AllPattern() {
		w.pattern(p, d+1)
	}
	if where != nil {
		w.expr(where.Expression(), d+1)
	}
	w.env = saved
	w.cost(kw+" { }", 0, 0)
	return scalar
}

// once refuses what searches the graph inside an iteration: its work for
// each element is the graph's, which the tree cannot bound, and Neo4j
// cannot interrupt it inside a row.
func (w *walker) once(what string) {
	if w.iterating > 0 {
		refuse("%s inside a list comprehension or quantifier (all(), any(), none(), single()) is not allowed in the console: it would search the graph once per element inside one row, which Neo4j cannot interrupt; MATCH or UNWIND the elements instead", what)
	}
}

// aggregate checks that an aggregation is allowed where it is.
func (w *walker) aggregate(display string) {
	if !w.agg {
		refuse("%s aggregates rows: the console allows it only in the items of WITH and RETURN, and in ORDER BY after them, not nested", display)
	}
	w.aggregated = true
}

// fn says what a function returns.
type fn int

const (
	fScalar  fn = iota // a number, boolean, temporal value or point
	fAgg               // an aggregation to a number
	fAggSame           // an aggregation to one of its values (min, max)
	fCollect           // collect()
	fSame              // one of its arguments (coalesce, nullIf)
	fPart              // an element of its argument (head, last)
	fStored            // a value of the graph (labels, keys, properties, type, startNode, endNode)
	fPath              // the nodes or relationships of a path
	fCopy              // a new string or list at most as long as its argument
	fCase              // a new string up to 3 times as long as its argument (case mapping)
	fTail
	fReplace
	fSplit
	fRange
)

// functions are the functions the console allows, in lower case (Cypher
// compares built-in names so): none of them grows a value by more than a
// bound the tree knows.
var functions = map[string]fn{
	"count": fAgg, "sum": fAgg, "avg": fAgg, "stdev": fAgg, "stdevp": fAgg, "percentilecont": fAgg, "percentiledisc": fAgg,
	"min": fAggSame, "max": fAggSame, "collect": fCollect,

	"size": fScalar, "length": fScalar, "char_length": fScalar, "character_length": fScalar, "isempty": fScalar,
	"id": fScalar, "elementid": fScalar, "valuetype": fScalar, "randomuuid": fScalar,
	"tointeger": fScalar, "tofloat": fScalar, "toboolean": fScalar, "tointegerornull": fScalar, "tofloatornull": fScalar, "tobooleanornull": fScalar,
	"abs": fScalar, "ceil": fScalar, "floor": fScalar, "round": fScalar, "sign": fScalar, "sqrt": fScalar, "exp": fScalar,
	"log": fScalar, "log10": fScalar, "e": fScalar, "pi": fScalar, "rand": fScalar, "isnan": fScalar,
	"sin": fScalar, "cos": fScalar, "tan": fScalar, "asin": fScalar, "acos": fScalar, "atan": fScalar, "atan2": fScalar,
	"cot": fScalar, "degrees": fScalar, "radians": fScalar, "haversin": fScalar,
	"timestamp": fScalar, "date": fScalar, "datetime": fScalar, "localdatetime": fScalar, "localtime": fScalar, "time": fScalar,
	"duration": fScalar, "duration.between": fScalar, "duration.indays": fScalar, "duration.inmonths": fScalar, "duration.inseconds": fScalar,
	"date.truncate": fScalar, "datetime.truncate": fScalar, "datetime.fromepoch": fScalar, "datetime.fromepochmillis": fScalar,
	"point": fScalar, "point.distance": fScalar, "point.withinbbox": fScalar,
	"vector.similarity.cosine": fScalar, "vector.similarity.euclidean": fScalar,

	"coalesce": fSame, "nullif": fSame,
	"head": fPart, "last": fPart,
	"labels": fStored, "keys": fStored, "properties": fStored, "type": fStored, "startnode": fStored, "endnode": fStored,
	"nodes": fPath, "relationships": fPath,
	"tostring": fCopy, "tostringornull": fCopy, "trim": fCopy, "ltrim": fCopy, "rtrim": fCopy, "btrim": fCopy,
	"substring": fCopy, "left": fCopy, "right": fCopy, "reverse": fCopy,
	"toupper": fCase, "tolower": fCase, "upper": fCase, "lower": fCase,
	"tail": fTail, "replace": fReplace, "split": fSplit, "range": fRange,
}

// call reads a function call.
func (w *walker) call(x *parser.FunctionInvocationContext, d int) val {
	var parts []string
	for _, s := range x.FunctionName().Namespace().AllSymbolicNameString() {
		parts = append(parts, unquote(s.GetText()))
	}
	display := strings.Join(append(parts, unquote(x.FunctionName().SymbolicNameString().GetText())), ".") + "()"
	kind, ok := functions[strings.ToLower(strings.TrimSuffix(display, "()"))]
	if !ok {
		switch ns := strings.ToLower(display[:strings.IndexAny(display, ".(")]); {
		case len(parts) > 0 && (ns == "gds" || ns == "db" || ns == "dbms" || ns == "apoc"):
			refuse("%s: %s.* functions are not allowed in the console", display, ns)
		}
		refuse("%s is not on the console's list of functions", display)
	}
	w.op()
	agg := kind == fAgg || kind == fAggSame || kind == fCollect
	if agg {
		w.aggregate(display)
	}
	saved := w.agg
	if agg {
		w.agg = false // no aggregation inside another
	}
	var args []val
	// in bounds the bytes a function reads: a string at most maxBuilt (or
	// it was refused where it was built), a list not at all (size(), head()
	// and the like take the same time whatever its length)
	in := 0.0
	for _, a := range x.AllFunctionArgument() {
		if kind == fRange {
			break
		}
		v := w.expr(a.Expression(), d+1)
		args = append(args, v)
		in += min(v.size, maxBuilt)
	}
	w.agg = saved
	if len(args) == 0 {
		args = []val{scalar}
	}
	switch kind {
	case fScalar, fAgg:
		w.cost(display, in, 0)
		return scalar
	case fAggSame, fSame:
		w.cost(display, 0, 0)
		out := args[0]
		for _, v := range args[1:] {
			out = join(out, v)
		}
		return out
	case fCollect:
		v := args[0]
		if math.IsInf(w.rows, 1) {
			return val{size: math.Inf(1), n: math.Inf(1), elem: v.size} // Neo4j's memory guard counts it
		}
		return val{size: w.rows * (v.size + 16), n: w.rows, elem: v.size}
	case fPart:
		w.cost(display, 0, 0)
		return args[0].part()
	case fStored:
		w.cost(display, 0, 0)
		if args[0].stored {
			return stored
		}
		return args[0]
	case fPath:
		w.cost(display, pathElems, 16*pathElems)
		return pathValue
	case fCopy:
		s := max(args[0].size, 64)
		w.cost(display, s, s)
		return val{size: s, n: args[0].n, elem: args[0].elem}
	case fCase:
		w.cost(display, args[0].size, 3*args[0].size)
		return sized(3 * args[0].size)
	case fTail:
		v := args[0]
		w.cost(display, v.n, 16*v.n)
		return val{size: v.size, n: v.n, elem: v.elem, stored: v.stored}
	case fReplace:
		if len(args) < 3 {
			return scalar // Neo4j refuses it
		}
		out := (args[0].size + 1) * (args[2].size + 1)
		w.cost(display, args[0].size*max(1, args[1].size)+out, out)
		return sized(out)
	case fSplit:
		s := args[0].size
		sep := scalar.size
		if len(args) > 1 {
			sep = args[1].size
		}
		w.cost(display, s*max(1, sep), s+16*(s+1))
		return val{size: s + 16*(s+1), n: s + 1, elem: s}
	}
	return w.rangeOf(x, display)
}

// rangeOf bounds range(a, b[, step]): its arguments must be whole-number
// literals, and it may hold at most maxRange numbers.
func (w *walker) rangeOf(x *parser.FunctionInvocationContext, display string) val {
	args := x.AllFunctionArgument()
	var n [3]int64
	n[2] = 1
	ok := len(args) == 2 || len(args) == 3
	for i := 0; ok && i < len(args); i++ {
		n[i], ok = intLiteral(args[i].Expression())
	}
	if !ok || n[2] == 0 {
		refuse("range() takes whole-number literals in the console (range(1, 100), range(0, 100, 5)): %s", x.GetText())
	}
	count := 0.0
	if (n[1]-n[0] >= 0) == (n[2] > 0) {
		count = math.Floor(float64(n[1]-n[0])/float64(n[2])) + 1
	}
	if count > maxRange {
		refuse("%s would hold %.0f numbers, over the console's limit of %d", x.GetText(), count, maxRange)
	}
	if !w.lazy {
		w.cost(display, count, 16*count)
	}
	return val{size: 32 * count, n: count, elem: 16}
}

// intLiteral returns the value of an expression that is a whole-number
// literal, with its sign.
func intLiteral(t antlr.Tree) (int64, bool) {
	s := strings.ReplaceAll(t.(antlr.ParseTree).GetText(), "_", "")
	if s == "" || strings.Trim(s, "-+0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// unwrap returns the one leaf of an expression that is nothing more, such
// as the call of UNWIND range(1, 10).
func unwrap(t antlr.Tree) antlr.Tree {
	for t.GetChildCount() == 1 {
		if _, ok := t.GetChild(0).(antlr.TerminalNode); ok {
			break
		}
		t = t.GetChild(0)
	}
	return t
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

func human(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.1f billion", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1f million", x/1e6)
	}
	return fmt.Sprintf("%.0f", x)
}

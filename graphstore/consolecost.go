package graphstore

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kgeval/kgeval"
)

// This file bounds what one row of a console query can cost Neo4j before
// the query runs, from its plan (a Cartesian product or an unbounded
// expansion is refused before it can pin a core or Neo4j's heap).
//
// Neo4j stops a transaction at its time limit only between rows: an
// expression that loops inside one row (reduce, a list comprehension, a
// quantifier such as all(...), a regular expression) runs to its end,
// whatever TERMINATE TRANSACTION or the time limit say. RETURN
// size(reduce(s = '', x IN range(1, 10000000) | s + 'a')) held a core for
// hours. Nor does Neo4j's memory guard count what expressions build:
// reduce(s = 'x', i IN range(1, 26) | s + s) builds a 64 MiB string that
// no limit sees. So the console reads every expression of the plan and
// refuses the query unless it can bound, for one row through every
// operator, both
//
//   - the work: about one unit per element visited, operator applied or
//     character copied, at most consoleWorkBudget (measured on this
//     machine: filtering 10 million elements with x > 0, 3 units each,
//     takes 0.8 s idle, 2.8 s at a load average of 10); and
//   - every value the query's expressions build: at most
//     consoleMaxValue units (characters or elements).
//
// What it knows of values before the query runs (a bound):
//
//   - a string literal is no longer than all the query's string literals
//     together (Neo4j replaces literals by parameters such as
//     $autostring_0 in the plan, so their values are not visible, only
//     their kind; the sum also bounds literals Neo4j might fold into one),
//     a list literal no longer than the query;
//   - a stored value (node, relationship, path, property) is at most
//     consoleDataSize units;
//   - a collected list (collect(), COLLECT { }) is at most what
//     Neo4j's memory guard lets one transaction hold (db.memory.
//     transaction.max, read from the server), at 8 bytes or more per
//     element (measured with 256 MiB: 10 million integers fit, 12 million
//     do not; 20 million booleans fit, 30 million do not);
//   - range() is lazy: UNWIND may walk it (row by row, which the time
//     limit interrupts) and size() may count it, but anything that would
//     iterate or build it is refused, since its bounds are parameters the
//     plan does not show.
//
// Rows themselves are not bounded here: between rows Neo4j checks its time
// limit, and what operators hold (collect, ORDER BY, DISTINCT) its memory
// guard counts.

const (
	// consoleWorkBudget bounds the estimated work of one row through the
	// whole plan: about 2.6 s on one of this machine's cores, idle.
	consoleWorkBudget = 1e8
	// consoleMaxValue bounds a value built by the query's expressions, in
	// characters or elements (an attack on the console once built 64 MiB
	// strings).
	consoleMaxValue = 4 << 20
	// consoleDataSize bounds a stored value, in characters or elements:
	// an assumption, not a limit Neo4j enforces (kgeval's largest values,
	// passages and embeddings, are far smaller).
	consoleDataSize = 256 << 10
	// consoleMaxSteps bounds the model's own work (nested loops are read
	// twice per level).
	consoleMaxSteps = 100000
)

// bound is what the console knows of a value before the query runs: at
// most n items (elements of a list, entries of a map, characters of a
// string), each at most e units, s units in all.
type bound struct {
	n, e, s float64
	// src: stored, a literal, or collected under the memory guard, not
	// built by the query's expressions (those must stay under
	// consoleMaxValue).
	src bool
	// lazy: a range(), not materialised.
	lazy bool
	// list: a list or a map, never a string: its size() is O(1), where a
	// string's is O(length) (Neo4j counts code points).
	list bool
}

var scalar = bound{n: 1, e: 1, s: 1, src: true}

func text(k float64) bound { return bound{n: k, e: 1, s: k} }

// elem returns the bound of one item of b (of a range(): a number).
func (b bound) elem() bound {
	return bound{n: b.e, e: b.e, s: b.e, src: b.src}
}

func join(a, b bound) bound {
	return bound{n: max(a.n, b.n), e: max(a.e, b.e), s: max(a.s, b.s), src: a.src && b.src, lazy: a.lazy || b.lazy, list: a.list && b.list}
}

func sameSize(a, b bound) bool { return a.n == b.n && a.e == b.e && a.s == b.s && a.lazy == b.lazy }

// costModel reads a plan's expressions (see the file comment).
type costModel struct {
	q      float64 // the query's length: no literal is longer
	lit    float64 // its string literals' length together
	data   bound   // a stored value
	agg    bound   // a collected list
	cost   float64 // estimated work of one row so far
	steps  int
	env    map[string]bound
	where  string // the plan text being read, for messages
	budget float64
}

// refusal carries a refusal out of the model's recursion.
type refusal struct{ err error }

// newCostModel returns the model for a query of queryLen bytes, literals
// of them in string literals, on a server whose memory guard lets one
// transaction hold memMax bytes (+Inf when it does not say).
func newCostModel(queryLen, literals int, memMax float64) *costModel {
	return &costModel{
		q:      float64(max(queryLen, 1)),
		lit:    float64(max(min(literals, queryLen), 1)),
		data:   bound{n: consoleDataSize, e: consoleDataSize, s: consoleDataSize, src: true},
		agg:    bound{n: memMax / 8, e: consoleDataSize, s: memMax, src: true, list: true},
		env:    map[string]bound{},
		budget: consoleWorkBudget,
	}
}

// checkCost bounds the work and the values of one row of the plan (see the
// file comment) of a query of queryLen bytes, literals of them in string
// literals. Errors: EINVALID starting with "refused:".
func checkCost(root *planNode, queryLen, literals int, memMax float64) (err error) {
	m := newCostModel(queryLen, literals, memMax)
	defer func() {
		if r := recover(); r != nil {
			ref, ok := r.(refusal)
			if !ok { // a bug of the model: refuse rather than run unbounded
				err = kgeval.Errorf(kgeval.EINTERNAL, "the console could not estimate the cost of this query: %v", r)
				return
			}
			err = ref.err
		}
	}()
	m.plan(root)
	return nil
}

func (m *costModel) refuse(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if m.where != "" {
		msg += fmt.Sprintf(" (in %s)", excerptText(m.where, 120))
	}
	panic(refusal{refusedf("%s", msg)})
}

func excerptText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// add counts work and refuses past the budget.
func (m *costModel) add(c float64) {
	m.cost += c
	if !(m.cost <= m.budget) { // also NaN and +Inf
		m.refuse("the console estimates up to %s steps of work inside one row of this query, over its limit of %s: Neo4j cannot stop such work at its time limit, so the console does not start it; compute over rows instead (UNWIND, MATCH, aggregations such as collect(), sum(), count())",
			human(m.cost), human(m.budget))
	}
}

// built checks a value the query's expressions build.
func (m *costModel) built(b bound) bound {
	b.src = false
	if !(b.s <= consoleMaxValue) {
		m.refuse("this query can build a value of up to %s characters or elements, over the console's limit of %s: Neo4j would hold it whole in memory, which its memory guard does not count",
			human(b.s), human(consoleMaxValue))
	}
	return b
}

// use refuses a range() where it would be iterated or built.
func (m *costModel) use(b bound) {
	if b.lazy {
		m.refuse("range() is allowed in UNWIND (row by row, which the time limit interrupts) and in size() only: the plan does not show its bounds, and a loop over it inside one row cannot be interrupted; write UNWIND range(a, b) AS x instead")
	}
}

func human(x float64) string {
	switch {
	case math.IsInf(x, 1) || math.IsNaN(x):
		return "unbounded"
	case x >= 1e9:
		return strconv.FormatFloat(x/1e9, 'f', 1, 64) + " billion"
	case x >= 1e6:
		return strconv.FormatFloat(x/1e6, 'f', 1, 64) + " million"
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

// plan reads the operators bottom-up, so that a variable's bound is known
// before it is used; a name defined twice (UNION branches, WITH chains)
// keeps the larger bound.
func (m *costModel) plan(n *planNode) {
	for i := range n.Children {
		m.plan(&n.Children[i])
	}
	details, _ := n.Args["Details"].(string)
	if strings.TrimSpace(details) == "" {
		return
	}
	m.where = details
	defer func() { m.where = "" }()
	if n.Operator == "RollUpApply" {
		// "list, column": the rows of a nested plan collected into a list
		names := strings.Split(details, ", ")
		if len(names) == 2 {
			col := m.lookup(strings.Trim(names[1], "`"))
			m.bind(strings.Trim(names[0], "`"), bound{n: m.agg.n, e: col.s, s: m.agg.s, src: true, list: true})
			return
		}
	}
	items, err := parseItems(details)
	if err != nil {
		if expressionOperators[n.Operator] {
			// an operator that computes values: what the model cannot
			// read, it cannot bound
			m.refuse("the console cannot read this expression of the plan (%v)", err)
		}
		m.fallback(details)
		return
	}
	for _, it := range items {
		m.where = it.text
		b, c := m.eval(it.x)
		m.add(c)
		if n.Operator == "Unwind" {
			b = b.elem() // one row per item: range() included
		}
		if it.alias != "" {
			m.bind(it.alias, b)
		}
		if n.Operator == "ProduceResults" {
			m.use(b)
		}
	}
}

// expressionOperators are the operators whose Details are a list of
// expressions (with aliases, ASC/DESC, a LIMIT): the model must read them
// whole. The others hold patterns or index descriptions, read leniently
// (fallback).
var expressionOperators = setOf("Projection", "Unwind", "Filter", "EagerAggregation", "OrderedAggregation", "Distinct",
	"OrderedDistinct", "Sort", "PartialSort", "Top", "Top1WithTies", "PartialTop", "Limit", "Skip", "ExhaustiveLimit",
	"ProduceResults", "CacheProperties", "ValueHashJoin")

func (m *costModel) bind(name string, b bound) {
	if old, ok := m.env[name]; ok {
		b = join(old, b)
	}
	m.env[name] = b
}

func (m *costModel) lookup(name string) bound {
	if b, ok := m.env[name]; ok {
		return b
	}
	return m.data
}

// fallback reads a Details text that is not a list of expressions: a
// pattern or index description, then an optional WHERE with predicates
// ("p = (a)-[r*..3]->(b) WHERE all(...)", "RANGE INDEX n:L(p) WHERE p =
// $x"). The part it cannot parse must hold nothing that loops or builds.
func (m *costModel) fallback(details string) {
	if i := topLevelWhere(details); i >= 0 {
		if items, err := parseItems(details[i+len("WHERE"):]); err == nil {
			m.risky(details[:i])
			for _, it := range items {
				_, c := m.eval(it.x)
				m.add(c)
			}
			return
		}
	}
	m.risky(details)
}

// topLevelWhere returns the byte offset of the first WHERE outside
// brackets and quotes, or -1.
func topLevelWhere(s string) int {
	toks, err := lexDetails(s)
	if err != nil {
		return -1
	}
	depth := 0
	for _, t := range toks {
		switch {
		case t.kind == 'o' && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == 'o' && (t.text == ")" || t.text == "]" || t.text == "}"):
			depth--
		case t.kind == 'w' && depth == 0 && strings.EqualFold(t.text, "WHERE"):
			return t.pos
		}
	}
	return -1
}

// riskyCalls are the functions whose cost or result the model must see to
// bound; in text it cannot parse they are refused.
var riskyCalls = setOf("reduce", "range", "replace", "split", "normalize", "all", "any", "none", "single", "collect",
	"tostringlist", "tointegerlist", "tofloatlist", "tobooleanlist", "reverse")

// risky refuses text the model cannot parse when it holds a loop, a
// membership test, a regular expression or a call that builds.
func (m *costModel) risky(text string) {
	toks, err := lexDetails(text)
	if err != nil {
		m.refuse("the console cannot read this part of the plan")
	}
	for i, t := range toks {
		switch {
		case t.kind == 'w' && i+1 < len(toks) && toks[i+1].text == "(" && riskyCalls[strings.ToLower(t.text)],
			t.kind == 'w' && strings.EqualFold(t.text, "IN"),
			t.kind == 'o' && t.text == "=~":
			m.refuse("the console cannot estimate the cost of %q in this part of the plan", t.text)
		}
	}
}

// eval returns the bound of x's value and the work of evaluating it once.
func (m *costModel) eval(x expr) (bound, float64) {
	m.steps++
	if m.steps > consoleMaxSteps {
		m.refuse("the query's expressions are too complex for the console to estimate")
	}
	switch x := x.(type) {
	case eLit: // a slot read: no work of its own
		return m.literal(x.kind), 0
	case eVar:
		return m.lookup(x.name), 0
	case eProp:
		b, c := m.eval(x.x)
		m.use(b)
		return b.elem(), c + 1
	case eCached:
		b, c := m.eval(x.x)
		if user, ok := m.env[x.name]; ok { // a list variable called cache, indexed
			b = join(b, user.elem())
		}
		return b, c + 1
	case eIndex:
		b, c := m.eval(x.x)
		_, ci := m.eval(x.i)
		return b.elem(), c + ci + 1
	case eSlice:
		b, c := m.eval(x.x)
		for _, y := range []expr{x.lo, x.hi} {
			if y != nil {
				_, cy := m.eval(y)
				c += cy
			}
		}
		return b, c + 1
	case eUnary:
		b, c := m.eval(x.x)
		switch x.op {
		case "IS NORMALIZED":
			m.use(b)
			return scalar, c + 1 + b.s
		case "IS NULL", "LABEL", "IS TYPE":
			return scalar, c + 1
		}
		m.use(b)
		return scalar, c + 1
	case eBin:
		return m.binary(x)
	case eList:
		return m.list(x)
	case eMap:
		return m.mapLit(x)
	case eCompr:
		return m.comprehension(x)
	case eQuant:
		lb, c := m.eval(x.list)
		m.iterable(lb)
		cost, _, _ := m.loop(lb, x.v, func() (bound, float64) { _, cw := m.eval(x.where); return scalar, cw })
		return scalar, c + cost
	case eReduce:
		return m.reduce(x)
	case eCase:
		return m.caseExpr(x)
	case ePattern:
		return m.pattern(x)
	case eCall:
		return m.call(x)
	}
	m.refuse("the console cannot read an expression of this plan")
	return bound{}, 0
}

// list returns the bound and cost of a list literal.
func (m *costModel) list(x eList) (bound, float64) {
	out, c := bound{src: true, list: true}, 0.0
	for _, it := range x.items {
		b, ci := m.eval(it)
		m.use(b) // a range() inside a list would hide from the loops over it
		out.n++
		out.e = max(out.e, b.s)
		out.s += b.s + 1
		out.src = out.src && b.src
		out.lazy = out.lazy || b.lazy
		c += ci
	}
	if !out.src {
		out = m.built(out)
	}
	return out, c + out.n + 1
}

// mapLit returns the bound and cost of a map literal or projection.
func (m *costModel) mapLit(x eMap) (bound, float64) {
	out, c := bound{src: true, list: true}, 0.0
	if x.base != nil {
		_, cb := m.eval(x.base)
		c += cb
	}
	for _, it := range x.items {
		var b bound
		if it == nil { // .*: every property
			b, out.n = m.data, out.n+m.data.n
		} else {
			var ci float64
			b, ci = m.eval(it)
			c += ci
			m.use(b)
		}
		out.n++
		out.e = max(out.e, b.s)
		out.s += b.s + 1
		out.src = out.src && b.src
	}
	if !out.src {
		out = m.built(out)
	}
	return out, c + out.n + 1
}

// comprehension returns the bound and cost of a list comprehension: a
// filter is a sublist of its list, a projection a built list.
func (m *costModel) comprehension(x eCompr) (bound, float64) {
	lb, c := m.eval(x.list)
	m.iterable(lb)
	body := func() (bound, float64) {
		var out bound
		var cw float64
		if x.where != nil {
			_, cw = m.eval(x.where)
		}
		if x.proj == nil {
			return out, cw
		}
		out, cp := m.eval(x.proj)
		m.use(out)
		return out, cw + cp
	}
	cost, size, e := m.loop(lb, x.v, body)
	if x.proj == nil { // a filter: a sublist of the list
		return lb, c + cost + lb.n
	}
	return m.built(bound{n: lb.n, e: e, s: size + lb.n, list: true}), c + cost + lb.n
}

// caseExpr returns the bound and cost of a CASE: every branch is costed,
// the result is bounded by the join of the results.
func (m *costModel) caseExpr(x eCase) (bound, float64) {
	var out bound
	first := true
	c := 0.0
	for _, y := range append(append([]expr{x.subject}, x.whens...), x.thens...) {
		if y != nil {
			_, cy := m.eval(y)
			c += cy
		}
	}
	results := append([]expr{}, x.thens...)
	if x.otherwise != nil {
		results = append(results, x.otherwise)
	} else {
		results = append(results, eLit{kind: "null"})
	}
	for _, y := range results {
		b, cy := m.eval(y)
		c += cy
		if first {
			out, first = b, false
		} else {
			out = join(out, b)
		}
	}
	return out, c + 1
}

// pattern returns the bound and cost of a pattern expression.
func (m *costModel) pattern(x ePattern) (bound, float64) {
	m.risky(x.text)
	switch x.kind {
	case "exists", "count":
		return scalar, 1
	case "collect":
		// at most its LIMIT, a literal (consoleshape.go): under the
		// memory guard's bound for collect()
		return m.agg, 1
	}
	return m.data, 1
}

// literal returns the bound of a literal or parameter.
func (m *costModel) literal(kind string) bound {
	switch {
	case kind == "int" || kind == "float" || kind == "bool" || kind == "null":
		return scalar
	case kind == "property":
		return m.data.elem()
	case strings.HasPrefix(kind, "string:"):
		n, _ := strconv.ParseFloat(strings.TrimPrefix(kind, "string:"), 64)
		b := text(n)
		b.src = true
		return b
	}
	name := strings.TrimPrefix(kind, "param:")
	switch {
	case strings.HasPrefix(name, "autoint"), strings.HasPrefix(name, "autodouble"), strings.HasPrefix(name, "autobool"):
		return scalar
	case strings.HasPrefix(name, "autostring"):
		b := text(m.lit)
		b.src = true
		return b
	}
	// $autolist_N, or a parameter the user named (the console passes none)
	return bound{n: m.q, e: m.q, s: m.q, src: true, list: strings.HasPrefix(name, "autolist")}
}

// iterable refuses a list that a loop cannot walk within the budget's
// reach: a range(), or one without a finite bound.
func (m *costModel) iterable(b bound) {
	m.use(b)
	if math.IsInf(b.n, 0) || math.IsNaN(b.n) {
		m.refuse("the console cannot bound the list this loop walks")
	}
}

// loop returns the work of evaluating body once per item of list, with v
// bound to the item, and the total and largest size of what body returns.
//
// body is read twice, for an item of size 1 and for one of the largest
// size e; the costs and sizes the model computes grow convexly with an
// item's size, so the items, which total at most list.s units, cost at
// most n·c(1) + (c(e) − c(1))·s/e.
func (m *costModel) loop(list bound, v string, body func() (bound, float64)) (cost, size, e float64) {
	saved, had := m.env[v]
	defer func() {
		if had {
			m.env[v] = saved
		} else {
			delete(m.env, v)
		}
	}()
	small := bound{n: 1, e: 1, s: 1, src: list.src}
	m.env[v] = small
	r1, c1 := body()
	re, ce := r1, c1
	if big := list.elem(); !sameSize(big, small) {
		m.env[v] = big
		re, ce = body()
	}
	full := min(list.n, list.s/max(list.e, 1))
	cost = list.n*(1+c1) + max(0, ce-c1)*full
	size = list.n*r1.s + max(0, re.s-r1.s)*full
	return cost, size, max(r1.s, re.s)
}

// reduce bounds reduce(acc = init, v IN list | body): the accumulator must
// not grow from one step to the next, beyond the largest of its initial
// value and what the body returns without it (a maximum, a count); one
// that grows (s + x, s + s: string or list building) is refused, since the
// plan cannot tell a number from a string.
func (m *costModel) reduce(x eReduce) (bound, float64) {
	acc, ci := m.eval(x.init)
	lb, cl := m.eval(x.list)
	m.iterable(lb)
	saved, had := m.env[x.acc]
	defer func() {
		if had {
			m.env[x.acc] = saved
		} else {
			delete(m.env, x.acc)
		}
	}()
	for k := 0; ; k++ {
		m.env[x.acc] = acc
		var r bound
		m.loop(lb, x.v, func() (bound, float64) { b, c := m.eval(x.body); r = join(r, b); return b, c })
		next := join(acc, r)
		if sameSize(next, acc) {
			break
		}
		if k == 2 {
			m.refuse("reduce() here may grow its accumulator at every step (string or list building, or a sum the plan cannot tell from one), in a loop Neo4j cannot interrupt; use UNWIND with sum(), collect() or max() instead")
		}
		acc = next
	}
	m.env[x.acc] = acc
	cost, _, _ := m.loop(lb, x.v, func() (bound, float64) { return m.eval(x.body) })
	if !acc.src {
		acc = m.built(acc)
	}
	return acc, ci + cl + cost
}

// binary bounds an operator.
func (m *costModel) binary(x eBin) (bound, float64) {
	if x.op == "=~" {
		m.refuse("regular expressions (=~) are not allowed in the console: a pathological pattern backtracks for hours inside one row, which Neo4j cannot interrupt; use CONTAINS, STARTS WITH or ENDS WITH")
	}
	a, ca := m.eval(x.a)
	b, cb := m.eval(x.b)
	c := ca + cb + 1
	switch x.op {
	case "AND", "OR", "XOR":
		return scalar, c
	case "+":
		// numbers, or strings and lists joined: sizes add up
		m.use(a)
		m.use(b)
		out := bound{n: a.n + b.n, e: max(a.e, b.e, a.s, b.s), s: a.s + b.s, list: a.list && b.list}
		return m.built(out), c + a.s + b.s
	case "-", "*", "/", "%", "^":
		m.use(a)
		m.use(b)
		return scalar, c
	case "IN":
		m.use(b)
		return scalar, c + b.n + min(b.n*a.s, b.s)
	case "CONTAINS":
		m.use(a)
		m.use(b)
		if a.src {
			// a stored or literal text: a naive search's bad case needs
			// a text the query built
			return scalar, c + a.s + b.s
		}
		return scalar, c + a.s*max(b.s, 1)
	}
	// comparisons, STARTS WITH, ENDS WITH
	m.use(a)
	m.use(b)
	return scalar, c + min(a.s, b.s)
}

// call bounds a function call (the plan check allows built-ins only).
func (m *costModel) call(x eCall) (bound, float64) {
	args := make([]bound, len(x.args))
	c := 1.0
	for i, a := range x.args {
		var ca float64
		args[i], ca = m.eval(a)
		c += ca
	}
	arg := func(i int) bound {
		if i < len(args) {
			return args[i]
		}
		return scalar
	}
	used := func() {
		for _, b := range args {
			m.use(b)
		}
	}
	sum := 0.0
	for _, b := range args {
		sum += b.s
	}
	switch x.name {
	case "size", "length", "char_length", "character_length":
		if b := arg(0); !b.list && !b.lazy {
			return scalar, c + b.s // a string's length counts its code points
		}
		return scalar, c // O(1) on a list, also on a range()
	case "isempty", "exists", "id", "elementid", "type", "getdegree", "isrepeattrailunique":
		return scalar, c
	case "count", "sum", "avg", "stdev", "stdevp", "percentilecont", "percentiledisc":
		used()
		return scalar, c
	case "collect":
		used()
		return bound{n: m.agg.n, e: arg(0).s, s: m.agg.s, src: true, list: true}, c
	case "min", "max", "head", "last", "nullif", "runtimeconstant":
		b := arg(0)
		if x.name == "head" || x.name == "last" {
			return b.elem(), c
		}
		if x.name == "runtimeconstant" {
			return b, c
		}
		m.use(b)
		return b, c + b.s
	case "tail":
		return arg(0), c
	case "coalesce":
		out := arg(0)
		for _, b := range args[min(1, len(args)):] {
			out = join(out, b)
		}
		return out, c
	case "keys", "labels", "properties", "nodes", "relationships":
		b := arg(0)
		m.use(b)
		b.list = true
		return b, c + b.n
	case "startnode", "endnode":
		return m.data, c
	case "range":
		used()
		return bound{n: math.Inf(1), e: 1, s: math.Inf(1), src: true, lazy: true, list: true}, c
	case "split":
		used()
		s, d := arg(0), arg(1)
		return m.built(bound{n: s.s + 1, e: s.s, s: 2*s.s + 1, list: true}), c + s.s*(d.s+1)
	case "replace":
		used()
		s, from, to := arg(0), arg(1), arg(2)
		out := m.built(text((s.s + 1) * (to.s + 1)))
		return out, c + s.s*(from.s+1) + out.s
	case "toupper", "upper", "tolower", "lower", "trim", "ltrim", "rtrim", "btrim", "left", "right", "substring":
		used()
		return m.built(text(arg(0).s)), c + arg(0).s
	case "normalize":
		used()
		return m.built(text(18 * arg(0).s)), c + 18*arg(0).s // NFKC expands a character to at most 18
	case "reverse":
		used()
		b := arg(0)
		return m.built(b), c + b.s
	case "tostring", "tostringornull":
		used()
		return m.built(text(max(arg(0).s, 32))), c + arg(0).s
	case "tostringlist", "tointegerlist", "tofloatlist", "tobooleanlist":
		used()
		b := arg(0)
		return m.built(bound{n: b.n, e: max(b.e, 32), s: b.s + 32*b.n, list: true}), c + b.s
	}
	// scalar functions: numeric, temporal, spatial, conversions, vector
	// similarity; linear in their arguments at most
	used()
	return scalar, c + sum
}

package graphstore

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file reads the expressions of a plan's operators ("Details", as
// Neo4j renders them: keywords in upper case, literals replaced by
// $autoint_0, $autostring_1, ...) into a small tree, for the cost model of
// consolecost.go. It knows the expression syntax of Cypher 5 as Neo4j 5.26
// prints it; patterns and subqueries it keeps as opaque text.

// expr is one node of an expression tree.
type expr interface{}

type (
	eLit  struct{ kind string } // "int", "float", "bool", "null", "string:<len>", "param:<name>"
	eVar  struct{ name string }
	eProp struct{ x expr } // x.key
	// eCached is a cached property, cache[n.x]; name is the word before
	// the bracket, in case it is a user's list variable indexed instead.
	eCached struct {
		name string
		x    expr
	}
	eCall struct {
		name string // lower case, dotted
		args []expr
	}
	eBin struct {
		op   string // upper case: "+", "=", "AND", "IN", "STARTS WITH", ...
		a, b expr
	}
	eUnary struct {
		op string // "NOT", "-", "+", "IS NULL", "IS TYPE", "LABEL", ...
		x  expr
	}
	eList struct{ items []expr }
	eMap  struct {
		base  expr
		items []expr
	} // base != nil for a map projection n{...}; nil item = .*
	eIndex struct{ x, i expr }
	eSlice struct{ x, lo, hi expr }
	eCompr struct {
		v                 string
		list, where, proj expr // where, proj may be nil
	}
	eQuant struct {
		fn          string // all, any, none, single
		v           string
		list, where expr
	}
	eReduce struct {
		acc, v           string
		init, list, body expr
	}
	eCase struct {
		subject   expr
		whens     []expr
		thens     []expr
		otherwise expr
	}
	// ePattern is a pattern or a subquery kept as text: a path, an
	// EXISTS/COUNT/COLLECT subquery.
	ePattern struct {
		text string
		kind string // "path", "exists", "count", "collect"
	}
)

// item is one entry of an operator's Details: an expression, its alias
// after AS, and the ASC/DESC of a sort.
type item struct {
	x     expr
	alias string
	text  string
}

// token is one lexical token of a Details text.
type token struct {
	kind  byte // 'w' word, 'n' number, 's' string, 'p' parameter, 'q' quoted name, 'o' operator or punctuation
	text  string
	space bool // whitespace before it
	pos   int
}

// lexDetails splits a Details text into tokens.
func lexDetails(s string) ([]token, error) {
	var out []token
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			i++
			continue
		}
		t := token{space: space, pos: i}
		space = false
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string at %d", i)
			}
			t.kind, t.text, i = 's', s[i:j+1], j+1
		case c == '`':
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '`')
				if k < 0 {
					return nil, fmt.Errorf("unterminated quoted name at %d", i)
				}
				j += k
				if j+1 < len(s) && s[j+1] == '`' {
					j += 2
					continue
				}
				break
			}
			t.kind, t.text, i = 'q', strings.ReplaceAll(s[i+1:j], "``", "`"), j+1
		case c == '$':
			j := i + 1
			if j < len(s) && s[j] == '`' {
				k := strings.IndexByte(s[j+1:], '`')
				if k < 0 {
					return nil, fmt.Errorf("unterminated parameter at %d", i)
				}
				t.kind, t.text, i = 'p', s[j+1:j+1+k], j+k+2
				break
			}
			for j < len(s) && isWordByte(s, j) {
				j += wordLen(s, j)
			}
			t.kind, t.text, i = 'p', s[i+1:j], j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isNameByte(s[j]) || s[j] == '.' && j+1 < len(s) && s[j+1] != '.' ||
				(s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E') && !strings.HasPrefix(strings.ToLower(s[i:]), "0x")) {
				j++
			}
			t.kind, t.text, i = 'n', s[i:j], j
		case isWordByte(s, i):
			j := i
			for j < len(s) && isWordByte(s, j) {
				j += wordLen(s, j)
			}
			t.kind, t.text, i = 'w', s[i:j], j
		default:
			t.kind = 'o'
			for _, op := range []string{"<>", "<=", ">=", "=~", "..", "::", "->", "<-", "!="} {
				if strings.HasPrefix(s[i:], op) {
					t.text = op
					break
				}
			}
			if t.text == "" {
				_, n := utf8.DecodeRuneInString(s[i:])
				t.text = s[i : i+n]
			}
			i += len(t.text)
		}
		out = append(out, t)
	}
	return out, nil
}

func isWordByte(s string, i int) bool {
	if s[i] < 0x80 {
		return isNameByte(s[i])
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}

func wordLen(s string, i int) int {
	if s[i] < 0x80 {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}

// exprParser parses tokens into expressions.
type exprParser struct {
	src   string
	toks  []token
	i     int
	depth int
}

// errParse is a Details text the parser does not understand.
type errParse struct{ msg string }

func (e errParse) Error() string { return e.msg }

// maxExprDepth bounds the parser's recursion (the console's text limits
// keep real plans far below it).
const maxExprDepth = 400

// parseItems parses a Details text as a comma-separated list of items
// ("expr", "expr AS name", "expr ASC"), with an optional trailing
// "LIMIT expr" (Top).
func parseItems(details string) (items []item, err error) {
	toks, err := lexDetails(details)
	if err != nil {
		return nil, err
	}
	p := &exprParser{src: details, toks: toks}
	defer func() {
		if r := recover(); r != nil {
			// errParse, or a text that trips the parser: either way not
			// understood, which the caller treats with suspicion
			items, err = nil, errParse{fmt.Sprint(r)}
		}
	}()
	for p.i < len(p.toks) {
		start := p.toks[p.i].pos
		it := item{x: p.expr()}
		if p.word("AS") {
			it.alias = p.name()
		}
		p.word("ASC")
		p.word("DESC")
		end := len(details)
		if p.i < len(p.toks) {
			end = p.toks[p.i].pos
		}
		it.text = strings.TrimSpace(details[start:end])
		items = append(items, it)
		if p.word("LIMIT") {
			items = append(items, item{x: p.expr(), text: "LIMIT"})
		}
		if p.i == len(p.toks) {
			break
		}
		p.want(",")
	}
	return items, nil
}

func (p *exprParser) fail(format string, args ...any) {
	at := len(p.src)
	if p.i < len(p.toks) {
		at = p.toks[p.i].pos
	}
	panic(errParse{fmt.Sprintf(format, args...) + fmt.Sprintf(" at byte %d", at)})
}

func (p *exprParser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return token{}
}

// word consumes the keyword w (case-insensitive) if it comes next.
func (p *exprParser) word(w string) bool {
	if t := p.peek(0); t.kind == 'w' && strings.EqualFold(t.text, w) {
		p.i++
		return true
	}
	return false
}

func (p *exprParser) isWord(k int, w string) bool {
	t := p.peek(k)
	return t.kind == 'w' && strings.EqualFold(t.text, w)
}

// op consumes the operator o if it comes next.
func (p *exprParser) op(o string) bool {
	if t := p.peek(0); t.kind == 'o' && t.text == o {
		p.i++
		return true
	}
	return false
}

func (p *exprParser) isOp(k int, o string) bool {
	t := p.peek(k)
	return t.kind == 'o' && t.text == o
}

func (p *exprParser) want(o string) {
	if !p.op(o) {
		p.fail("want %q", o)
	}
}

// name consumes a name: a word or a quoted name.
func (p *exprParser) name() string {
	t := p.peek(0)
	if t.kind != 'w' && t.kind != 'q' {
		p.fail("want a name")
	}
	p.i++
	return t.text
}

func (p *exprParser) enter() {
	p.depth++
	if p.depth > maxExprDepth {
		p.fail("expression nested too deeply")
	}
}

func (p *exprParser) leave() { p.depth-- }

// expr parses an expression (OR is the loosest operator).
func (p *exprParser) expr() expr {
	p.enter()
	defer p.leave()
	x := p.xor()
	for p.word("OR") {
		x = eBin{op: "OR", a: x, b: p.xor()}
	}
	return x
}

func (p *exprParser) xor() expr {
	x := p.and()
	for p.word("XOR") {
		x = eBin{op: "XOR", a: x, b: p.and()}
	}
	return x
}

func (p *exprParser) and() expr {
	x := p.not()
	for p.word("AND") {
		x = eBin{op: "AND", a: x, b: p.not()}
	}
	return x
}

func (p *exprParser) not() expr {
	if p.word("NOT") {
		p.enter()
		defer p.leave()
		return eUnary{op: "NOT", x: p.not()}
	}
	return p.comparison()
}

func (p *exprParser) comparison() expr {
	x := p.additive()
	for {
		t := p.peek(0)
		switch {
		case t.kind == 'o' && (t.text == "=" || t.text == "<>" || t.text == "!=" || t.text == "<" || t.text == ">" || t.text == "<=" || t.text == ">=" || t.text == "=~"):
			p.i++
			x = eBin{op: t.text, a: x, b: p.additive()}
		case p.isWord(0, "STARTS") && p.isWord(1, "WITH"), p.isWord(0, "ENDS") && p.isWord(1, "WITH"):
			p.i += 2
			x = eBin{op: strings.ToUpper(t.text) + " WITH", a: x, b: p.additive()}
		case p.isWord(0, "CONTAINS"):
			p.i++
			x = eBin{op: "CONTAINS", a: x, b: p.additive()}
		case p.isWord(0, "IN"):
			p.i++
			x = eBin{op: "IN", a: x, b: p.additive()}
		case p.isWord(0, "IS"):
			p.i++
			p.word("NOT")
			switch {
			case p.word("NULL"):
				x = eUnary{op: "IS NULL", x: x}
			case p.op("::") || p.word("TYPED"):
				p.skipType()
				x = eUnary{op: "IS TYPE", x: x}
			default:
				for _, form := range []string{"NFC", "NFD", "NFKC", "NFKD"} {
					if p.word(form) {
						break
					}
				}
				if !p.word("NORMALIZED") {
					p.fail("want NULL, a type or NORMALIZED after IS")
				}
				x = eUnary{op: "IS NORMALIZED", x: x}
			}
		case t.kind == 'o' && t.text == "::":
			p.i++
			p.skipType()
			x = eUnary{op: "IS TYPE", x: x}
		default:
			return x
		}
	}
}

// skipType consumes a type after IS :: (INTEGER, LIST<STRING NOT NULL>,
// INTEGER | FLOAT, ANY<...>).
func (p *exprParser) skipType() {
	angle := 0
	for p.i < len(p.toks) {
		t := p.peek(0)
		switch {
		case t.kind == 'o' && t.text == "<":
			angle++
		case t.kind == 'o' && t.text == ">" && angle > 0:
			angle--
		case t.kind == 'o' && (t.text == "|" || t.text == ","), t.kind == 'o' && (t.text == "<>" || t.text == "::"):
			if angle == 0 && t.text != "|" {
				return
			}
		case t.kind == 'w' && angle == 0 && (strings.EqualFold(t.text, "AND") || strings.EqualFold(t.text, "OR") || strings.EqualFold(t.text, "XOR") ||
			strings.EqualFold(t.text, "AS") || strings.EqualFold(t.text, "THEN") || strings.EqualFold(t.text, "ELSE") || strings.EqualFold(t.text, "END") ||
			strings.EqualFold(t.text, "WHEN") || strings.EqualFold(t.text, "ASC") || strings.EqualFold(t.text, "DESC") || strings.EqualFold(t.text, "WHERE")):
			return
		case t.kind == 'w':
		default:
			if angle == 0 {
				return
			}
		}
		p.i++
	}
}

func (p *exprParser) additive() expr {
	x := p.multiplicative()
	for {
		switch {
		case p.op("+"):
			x = eBin{op: "+", a: x, b: p.multiplicative()}
		case p.isOp(0, "-") && !p.isOp(1, "[") && !p.isOp(1, "-") && !p.isOp(1, "->"):
			p.i++
			x = eBin{op: "-", a: x, b: p.multiplicative()}
		default:
			return x
		}
	}
}

func (p *exprParser) multiplicative() expr {
	x := p.power()
	for {
		t := p.peek(0)
		if t.kind == 'o' && (t.text == "*" || t.text == "/" || t.text == "%") {
			p.i++
			x = eBin{op: t.text, a: x, b: p.power()}
			continue
		}
		return x
	}
}

func (p *exprParser) power() expr {
	x := p.unary()
	for p.op("^") {
		x = eBin{op: "^", a: x, b: p.unary()}
	}
	return x
}

func (p *exprParser) unary() expr {
	if p.isOp(0, "-") || p.isOp(0, "+") {
		op := p.peek(0).text
		p.i++
		p.enter()
		defer p.leave()
		return eUnary{op: op, x: p.unary()}
	}
	return p.postfix(p.atom())
}

func (p *exprParser) postfix(x expr) expr {
	for {
		switch {
		case p.isOp(0, ".") && (p.peek(1).kind == 'w' || p.peek(1).kind == 'q'):
			p.i++
			p.name()
			x = eProp{x: x}
		case p.isOp(0, ".") && p.isOp(1, "*"):
			p.i += 2
			x = eProp{x: x}
		case p.isOp(0, "[") && !p.peek(0).space:
			p.i++
			if p.op("..") {
				var hi expr
				if !p.isOp(0, "]") {
					hi = p.expr()
				}
				p.want("]")
				x = eSlice{x: x, hi: hi}
				continue
			}
			i := p.expr()
			if p.op("..") {
				var hi expr
				if !p.isOp(0, "]") {
					hi = p.expr()
				}
				p.want("]")
				x = eSlice{x: x, lo: i, hi: hi}
				continue
			}
			p.want("]")
			x = eIndex{x: x, i: i}
		case p.isOp(0, ":") && !p.peek(0).space:
			p.i++
			p.skipLabels()
			x = eUnary{op: "LABEL", x: x}
		case p.isOp(0, "{") && !p.peek(0).space:
			m := p.mapBody(true)
			m.base = x
			x = m
		default:
			return x
		}
	}
}

// skipLabels consumes a label expression after ':' (A, A|B, A&!B, %,
// (A|B)&C); a '|' with a blank before it is not part of it (it separates a
// comprehension's projection).
func (p *exprParser) skipLabels() {
	paren := 0
	for p.i < len(p.toks) {
		t := p.peek(0)
		switch {
		case t.kind == 'w' || t.kind == 'q':
		case t.kind == 'o' && (t.text == "%" || t.text == "!" || t.text == "&" || t.text == ":"):
		case t.kind == 'o' && t.text == "|" && !t.space:
		case t.kind == 'o' && t.text == "(":
			paren++
		case t.kind == 'o' && t.text == ")" && paren > 0:
			paren--
		default:
			return
		}
		p.i++
		if paren == 0 && (t.kind == 'w' || t.kind == 'q' || t.text == "%" || t.text == ")") {
			// a name ends the label expression unless an operator follows
			if n := p.peek(0); !(n.kind == 'o' && !n.space && (n.text == "|" || n.text == "&" || n.text == ":")) {
				return
			}
		}
	}
}

// mapBody parses {key: expr, .prop, .*, var} after the '{' it consumes.
func (p *exprParser) mapBody(projection bool) eMap {
	p.want("{")
	var m eMap
	for !p.op("}") {
		switch {
		case projection && p.isOp(0, ".") && p.isOp(1, "*"):
			p.i += 2
			m.items = append(m.items, nil)
		case projection && p.isOp(0, "."):
			p.i++
			p.name()
			m.items = append(m.items, eLit{kind: "property"})
		case p.peek(0).kind == 's' || p.peek(0).kind == 'w' || p.peek(0).kind == 'q':
			if projection && !p.isOp(1, ":") {
				m.items = append(m.items, eVar{name: p.name()})
				break
			}
			p.i++
			p.want(":")
			m.items = append(m.items, p.expr())
		default:
			p.fail("want a map entry")
		}
		if !p.op(",") {
			p.want("}")
			break
		}
	}
	return m
}

// atom parses a literal, parameter, variable, call, list, map, CASE,
// parenthesised expression or pattern.
func (p *exprParser) atom() expr {
	t := p.peek(0)
	switch t.kind {
	case 0:
		p.fail("unexpected end")
	case 'n':
		p.i++
		if strings.ContainsAny(t.text, ".eE") && !strings.HasPrefix(strings.ToLower(t.text), "0x") {
			return eLit{kind: "float"}
		}
		return eLit{kind: "int"}
	case 's':
		p.i++
		return eLit{kind: fmt.Sprintf("string:%d", len(t.text)-2)}
	case 'p':
		p.i++
		return eLit{kind: "param:" + t.text}
	case 'q':
		p.i++
		return eVar{name: t.text}
	case 'o':
		switch t.text {
		case "(":
			return p.parenOrPattern()
		case "[":
			return p.bracket()
		case "{":
			return p.mapBody(false)
		}
		p.fail("unexpected %q", t.text)
	}
	// a word
	w := strings.ToLower(t.text)
	switch {
	case w == "true" || w == "false":
		p.i++
		return eLit{kind: "bool"}
	case w == "null":
		p.i++
		return eLit{kind: "null"}
	case w == "case":
		return p.caseExpr()
	case (w == "exists" || w == "count" || w == "collect") && p.isOp(1, "{"):
		p.i++
		text := p.skipGroup("{", "}")
		return ePattern{text: text, kind: w}
	case strings.HasPrefix(w, "cache") && p.isOp(1, "[") && !p.peek(1).space:
		// a cached property: cache[n.x], cacheN[n.x], cacheR[r.x]
		p.i += 2
		x := p.expr()
		p.want("]")
		return eCached{name: t.text, x: x}
	}
	// a (dotted) function name followed by '(', or a variable
	j := p.i
	parts := []string{t.text}
	for p.isOp(j-p.i+1, ".") && p.peek(j-p.i+2).kind == 'w' && !p.peek(j-p.i+1).space {
		parts = append(parts, p.peek(j-p.i+2).text)
		j += 2
	}
	if p.isOp(j-p.i+1, "(") {
		p.i = j + 2
		return p.call(strings.ToLower(strings.Join(parts, ".")))
	}
	p.i++
	return eVar{name: t.text}
}

// call parses the arguments of name( after the '('.
func (p *exprParser) call(name string) expr {
	switch name {
	case "reduce":
		acc := p.name()
		p.want("=")
		init := p.expr()
		p.want(",")
		v := p.name()
		if !p.word("IN") {
			p.fail("want IN in reduce")
		}
		list := p.expr()
		p.want("|")
		body := p.expr()
		p.want(")")
		return eReduce{acc: acc, v: v, init: init, list: list, body: body}
	case "all", "any", "none", "single":
		if (p.peek(0).kind == 'w' || p.peek(0).kind == 'q') && p.isWord(1, "IN") {
			v := p.name()
			p.i++
			list := p.expr()
			var where expr = eLit{kind: "bool"}
			if p.word("WHERE") {
				where = p.expr()
			}
			p.want(")")
			return eQuant{fn: name, v: v, list: list, where: where}
		}
	}
	c := eCall{name: name}
	if p.op("*") {
		p.want(")")
		return c
	}
	p.word("DISTINCT")
	for !p.op(")") {
		c.args = append(c.args, p.expr())
		if !p.op(",") {
			p.want(")")
			break
		}
	}
	return c
}

func (p *exprParser) caseExpr() expr {
	p.i++ // CASE
	var c eCase
	if !p.isWord(0, "WHEN") {
		c.subject = p.expr()
	}
	for p.word("WHEN") {
		c.whens = append(c.whens, p.expr())
		for p.op(",") { // CASE x WHEN 1, 2 THEN
			c.whens = append(c.whens, p.expr())
		}
		if !p.word("THEN") {
			p.fail("want THEN")
		}
		c.thens = append(c.thens, p.expr())
	}
	if p.word("ELSE") {
		c.otherwise = p.expr()
	}
	if !p.word("END") {
		p.fail("want END")
	}
	return c
}

// bracket parses [list] or [x IN list WHERE p | e]. A pattern
// comprehension [(a)-->(b) | e] is not read: the console refuses it before
// Neo4j plans it (consoleshape.go), so one in a plan fails to parse and is
// refused.
func (p *exprParser) bracket() expr {
	if (p.peek(1).kind == 'w' || p.peek(1).kind == 'q') && p.isWord(2, "IN") {
		p.i++
		v := p.name()
		p.i++ // IN
		c := eCompr{v: v, list: p.expr()}
		if p.word("WHERE") {
			c.where = p.expr()
		}
		if p.op("|") {
			c.proj = p.expr()
		}
		p.want("]")
		return c
	}
	p.want("[")
	var l eList
	for !p.op("]") {
		l.items = append(l.items, p.expr())
		if !p.op(",") {
			p.want("]")
			break
		}
	}
	return l
}

// parenOrPattern parses (expr), or a pattern: node groups joined by
// relationships, (a)-[r:T*1..3]->(b)<--(c), kept as text.
func (p *exprParser) parenOrPattern() expr {
	start := p.i
	end := p.matching(p.i, "(", ")")
	next := p.peek(end - p.i + 1)
	arrow := next.kind == 'o' && (next.text == "-" || next.text == "<-" || next.text == "->" || next.text == "<")
	if !arrow {
		// (expr), or a lone node pattern such as (:Label)
		save := p.i
		if x, ok := p.tryParen(); ok {
			return x
		}
		p.i = save
	}
	p.i = end + 1
	for {
		t := p.peek(0)
		if !(t.kind == 'o' && (t.text == "-" || t.text == "<-" || t.text == "->" || t.text == "<" || t.text == ">")) {
			break
		}
		p.i++
		if p.isOp(0, "[") {
			p.i = p.matching(p.i, "[", "]") + 1
		}
		for p.isOp(0, "-") || p.isOp(0, "->") || p.isOp(0, ">") {
			p.i++
		}
		if !p.isOp(0, "(") {
			p.fail("want a node in a pattern")
		}
		p.i = p.matching(p.i, "(", ")") + 1
	}
	text := p.src[p.toks[start].pos : p.toks[p.i-1].pos+len(p.toks[p.i-1].text)]
	return ePattern{text: text, kind: "path"}
}

func (p *exprParser) tryParen() (x expr, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isParse := r.(errParse); !isParse {
				panic(r)
			}
			x, ok = nil, false
		}
	}()
	p.want("(")
	x = p.expr()
	p.want(")")
	return x, true
}

// matching returns the index of the token that closes the bracket open at
// token i.
func (p *exprParser) matching(i int, open, close string) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind != 'o' {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				if t.text != close {
					p.fail("mismatched %q", t.text)
				}
				return j
			}
		}
	}
	p.fail("unclosed %q", open)
	return 0
}

// skipGroup consumes a bracketed group and returns its text.
func (p *exprParser) skipGroup(open, close string) string {
	if !p.isOp(0, open) {
		p.fail("want %q", open)
	}
	end := p.matching(p.i, open, close)
	text := p.src[p.toks[p.i].pos : p.toks[end].pos+1]
	p.i = end + 1
	return text
}

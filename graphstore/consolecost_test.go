package graphstore

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
)

// TestCheckText checks the limits on a console query's text, which keep
// a deeply nested query from overflowing Neo4j's parser: depth counts
// brackets, CASE and runs of prefix operators, \uHHHH escapes are read as
// Neo4j reads them, and brackets in strings and comments can only add to
// the count.
func TestCheckText(t *testing.T) {
	nest := func(open, close string, n int) string {
		return "RETURN " + strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + " AS x"
	}
	for _, tc := range []struct {
		name, q string
		want    string // "" when allowed, else a part of the refusal
	}{
		{"Plain", "MATCH (a:Entity)-[r:SIMILAR]->(b) WHERE a.run = 'x' AND NOT b.side = 'in' RETURN a, r, b LIMIT 25", ""},
		{"Parens35", nest("(", ")", 35), ""},
		{"Parens41", nest("(", ")", 41), "nests deeper"},
		{"Parens6000", nest("(", ")", 6000), "nests deeper"},
		{"Lists3000", nest("[", "]", 3000), "nests deeper"},
		{"Maps", nest("{a: ", "}", 50), "nests deeper"},
		{"EscapedParens", nest(`\u0028`, `\u0029`, 50), "nests deeper"},
		{"EscapedTwice", nest(`\uu0028`, `\uu0029`, 50), "nests deeper"},
		{"NotRun", "RETURN " + strings.Repeat("NOT ", 41) + "true", "nests deeper"},
		{"NotsApart", "MATCH (n) WHERE " + strings.Repeat("NOT n.a AND ", 60) + "true RETURN n", ""},
		{"Minus", "RETURN " + strings.Repeat("- ", 41) + "1", "nests deeper"},
		{"Subtraction", "RETURN 1" + strings.Repeat(" - 1", 500), ""},
		{"Case", "RETURN " + strings.Repeat("CASE WHEN true THEN ", 41) + "1" + strings.Repeat(" END", 41), "nests deeper"},
		{"CaseFlat", "RETURN " + strings.Repeat("CASE WHEN true THEN 1 END + ", 100) + "1", ""},
		{"Chain3000", "WITH 1 AS a RETURN a" + strings.Repeat("+a", 3000), "tokens"},
		{"Chain900", "WITH 1 AS a RETURN a" + strings.Repeat("+a", 900), ""},
		{"Long", "RETURN 1 // " + strings.Repeat("x", 20000), "bytes"},
		{"OpenersInString", "RETURN '" + strings.Repeat("(", 41) + "' AS s", "nests deeper"},
		{"ClosersInString", "RETURN " + strings.Repeat("(", 30) + "'" + strings.Repeat(")", 30) + "'" + strings.Repeat("(", 11) + "1" + strings.Repeat(")", 41), "nests deeper"},
		{"OpenersInComment", "RETURN 1 /* " + strings.Repeat("[", 41) + " */", "nests deeper"},
		{"EscapedQuote", `RETURN 'a\u0027 + ` + strings.Repeat("(", 41) + "1" + strings.Repeat(")", 41), "nests deeper"},
	} {
		_, err := checkText(tc.q)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasPrefix(kgeval.ErrorMessage(err), "refused:") || !strings.Contains(kgeval.ErrorMessage(err), tc.want)):
			t.Errorf("%s: err %v, want a refusal with %q", tc.name, err, tc.want)
		}
	}
}

// planDetails are Details texts of real Neo4j 5.26 plans (EXPLAIN of the
// console tests' queries).
var planDetails = []string{
	"size(reduce(s = $autostring_1, x IN range($autoint_2, $autoint_3) | s + $autostring_0)) AS n",
	"`n.uid`, c, ok",
	"cache[n.uid] AS `n.uid`",
	"[x IN n.contexts WHERE x STARTS WITH $autostring_0 | toUpper(x)] AS c, all(y IN $autolist_2 WHERE y > $autoint_1) AS ok",
	"`n.uid` DESC",
	"n:Sample",
	"replace(s, $autostring_1, $autostring_2) AS x",
	"s + s AS s",
	"anon_4[$autoint_2..$autoint_3] AS l",
	"pc, getDegree((a)-->()) AS d, a.label AS `a.label`, collect(b.label) AS anon_4, count(*) AS c",
	"r.score > $autodouble_0",
	"(a)-[r:SIMILAR]->(b)",
	"(a)-[anon_1]->(z)",
	"`m.uid` ASC LIMIT 3",
	"CASE\n  WHEN n.y > $autoint_5 THEN $autoint_6 - n.y\nEND AS d, cache[n.l][$autoint_10] AS ix, cache[n.t] =~ $autostring_7 AS re, n{uid: cache[n.uid], id: cache[n.id], k: $autoint_1} AS m, cache[n.l][$autoint_8..$autoint_9] AS sl, CASE n.x\n  WHEN $autoint_2 THEN $autostring_3\n  ELSE $autostring_4\nEND AS c, ex",
	"cache[n.l], cache[n.t], cache[n.id]",
	"n:Sample|Run AND cache[n.uid] IN $autolist_0 AND cache[n.x] IS NOT NULL",
	"anon_1:Run",
	"(a)-[anon_0*]->(b) AS p, [n IN nodes((a)-[anon_0*]->(b)) | n.label] AS labels",
	"$autolist_2 AS e, true AS t, {} AS em, $autodouble_1 AS f, NULL AS z",
	"x IS :: INTEGER AS ty, $autostring_5 STARTS WITH $autostring_6 AS sw, toString(x) + $autostring_3 AS str, x, x IN $autolist_4 AS inl, sum(y) AS s",
	"range($autoint_1, x) AS y",
	"count( (:Label) ) AS c",
	"reduce(m = $autoint_0, x IN ls | CASE WHEN size(x) > m THEN size(x) ELSE m END) AS longest",
	"n{.*, k: $autoint_0} AS m, x IS NOT :: LIST<STRING NOT NULL> AS t, -n.x AS neg, n.x ^ $autoint_1 AS p",
	"EXISTS { MATCH (n)-->(:Run) WHERE n.q = $autoint_0 } AS ex, COUNT { (n)--() } AS c",
}

// TestParseItems checks that the parser reads every Details text of real
// plans, and that no prefix of one trips it (a truncated text is an error,
// never a panic).
func TestParseItems(t *testing.T) {
	for _, d := range planDetails {
		items, err := parseItems(d)
		if err != nil || len(items) == 0 {
			t.Errorf("%q: %v", d, err)
		}
		for i := range len(d) {
			parseItems(d[:i])
		}
	}
	for _, d := range []string{
		"p = (a)-[anon_0:SIMILAR*..3]->(b) WHERE all(r IN relationships(p) WHERE r.score > $autodouble_1)",
		"RANGE INDEX n:Entity(run) WHERE run = $autostring_1, cache[n.run]",
		"SHORTEST 1 (a)-[`anon_0`*]->(b)\n        expanding from: a\n    inlined predicates: b:Entity\n",
	} {
		if _, err := parseItems(d); err == nil {
			t.Errorf("%q: parsed as a list of expressions", d)
		}
	}
}

// TestCheckCost checks the cost model on plans made by hand.
func TestCheckCost(t *testing.T) {
	op := func(name, details string, children ...planNode) planNode {
		return planNode{Operator: name, Args: map[string]any{"Details": details}, Children: children}
	}
	root := func(cols string, children ...planNode) *planNode {
		n := op("ProduceResults", cols, children...)
		return &n
	}
	const mem = 256 << 20
	for _, tc := range []struct {
		name string
		plan *planNode
		want string // "" when allowed
	}{
		{"Finding1", root("n", op("Projection", "size(reduce(s = $autostring_1, x IN range($autoint_2, $autoint_3) | s + $autostring_0)) AS n")), "range()"},
		{"UnwindRange", root("x", op("Unwind", "range($autoint_0, $autoint_1) AS x")), ""},
		{"SizeRange", root("n", op("Projection", "size(range($autoint_0, $autoint_1)) AS n")), ""},
		{"RangeOut", root("r", op("Projection", "range($autoint_0, $autoint_1) AS r")), "range()"},
		{"Doubling", root("s", op("Projection", "s + s AS s", op("Projection", "s + s AS s", op("Projection", "$autostring_0 AS s")))), ""},
		{"Regex", root("m", op("Projection", "n.x =~ $autostring_0 AS m")), "regular expressions"},
		{"ReduceMax", root("m", op("Projection", "reduce(m = $autoint_0, x IN n.l | CASE WHEN x > m THEN x ELSE m END) AS m")), ""},
		{"ReduceSum", root("m", op("Projection", "reduce(m = $autoint_0, x IN n.l | m + x) AS m")), "may grow"},
		{"RollUp", root("l", op("Projection", "[x IN pc | [y IN pc | y]] AS l", op("RollUpApply", "pc, anon_0"))), "value"},
		{"Pattern", root("p", op("VarLengthExpand(All)", "p = (a)-[r*..3]->(b) WHERE all(x IN relationships(p) WHERE x.w > $autoint_0)")), ""},
		{"PatternRisky", root("p", op("StatefulShortestPath(All)", "SHORTEST 1 (a)-[r*]->(b)\n inlined predicates: any(x IN range($autoint_0, $autoint_1) WHERE x > 0)\n")), "cannot estimate"},
		{"Replace", root("r", op("Projection", "replace(replace(replace(replace($autostring_0, $autostring_1, $autostring_2), $autostring_1, $autostring_2), $autostring_1, $autostring_2), $autostring_1, $autostring_2) AS r")), "value"},
	} {
		err := checkCost(tc.plan, 200, 200, mem)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasPrefix(kgeval.ErrorMessage(err), "refused:") || !strings.Contains(kgeval.ErrorMessage(err), tc.want)):
			t.Errorf("%s: err %v, want a refusal with %q", tc.name, err, tc.want)
		}
	}
	// A WITH chain doubles a 200-character literal: refused once it
	// passes consoleMaxValue, 15 doublings later.
	var chain planNode = op("Projection", "$autostring_0 AS s")
	for i := 0; i < 15; i++ {
		chain = op("Projection", "s + s AS s", chain)
	}
	if err := checkCost(root("s", chain), 200, 200, mem); err == nil || !strings.Contains(err.Error(), "can build a value") {
		t.Errorf("15 doublings: %v", err)
	}
	// 14 doublings (3.3 million characters) pass; size() of that string
	// costs its length, so 200 of them in a loop are over the budget.
	chain = op("Projection", "$autostring_0 AS s")
	for i := 0; i < 14; i++ {
		chain = op("Projection", "s + s AS s", chain)
	}
	if err := checkCost(root("s", chain), 200, 200, mem); err != nil {
		t.Errorf("14 doublings: %v", err)
	}
	loop := root("n", op("Projection", "any(x IN $autolist_0 WHERE size(s) > $autoint_1) AS n", chain))
	if err := checkCost(loop, 200, 200, mem); err == nil || !strings.Contains(err.Error(), "steps of work") {
		t.Errorf("size() of a long string in a loop: %v", err)
	}
}

package graphstore

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// TestPlanCalls checks how the guard reads calls out of a plan's text:
// labels of index operators and keywords are no calls, and a parenthesis
// after a name it cannot read is refused.
func TestPlanCalls(t *testing.T) {
	for _, tc := range []struct {
		text  string
		index bool
		want  string // the names, joined by spaces; "!" for a refusal
	}{
		{"count( () ) AS `count(n)`", false, "count count"},
		{"gds.graph.project($autostring_0, s, t) AS `gds.graph.project('x', s, t)`", false, "gds.graph.project gds.graph.project"},
		{"RANGE INDEX n:Entity(run) WHERE run = $autostring_0, cache[n.run]", true, ""},
		{"RANGE INDEX n:Entity(run) WHERE run = {a: gds.version()}.a", true, "gds.version"},
		{"n:Entity(run)", false, "Entity"},
		{"n.x = 1 AND (n.y = 2 OR NOT (n.z = 3))", false, ""},
		{"SHORTEST 2 GROUPS (a)-[`anon_0`*]->(b)", false, ""},
		{"(anon_0) (...){1, } (anon_2)", false, ""},
		{"CASE\n  WHEN n.x IS NULL THEN toUpper (n.y)\nEND AS c", false, "toUpper"},
		{"date.truncate($autostring_0, date()) AS d, datetime().epochMillis", false, "date.truncate date datetime"},
		{"```gds``.``graph``.``project``('x', 1, 2)`", false, "!"},
		{"`gds\\u002egraph\\u002eproject('x')`", false, "!"},
		{"gds.graph.project\u2028('x')", false, "!"},
		{"$autostring_0('x')", false, "!"},
		{"n.x.(1)", false, "!"},
		{"1 (a)", false, ""},
	} {
		names, err := planCalls(tc.text, tc.index)
		got := strings.Join(names, " ")
		if err != nil {
			got = "!"
			if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasPrefix(kgeval.ErrorMessage(err), "refused:") {
				t.Errorf("%q: err %v, want a refusal", tc.text, err)
			}
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestCheckPlan checks the guard's decision on plans made by hand,
// including one whose tree lacks an operator its table lists.
func TestCheckPlan(t *testing.T) {
	leaf := func(op, details string) planNode {
		return planNode{Operator: op, Args: map[string]any{"Details": details}}
	}
	root := func(table string, children ...planNode) *planNode {
		return &planNode{Operator: "ProduceResults", Args: map[string]any{"Details": "x", "string-representation": table}, Children: children}
	}
	table := func(ops ...string) string {
		var b strings.Builder
		for i, op := range ops {
			b.WriteString("| " + strings.Repeat("| ", i) + "+" + op + " | " + "\n| |  +----+\n")
		}
		return b.String()
	}
	ok := root(table("ProduceResults", "Projection"), leaf("Projection", "toUpper($autostring_0) AS x"))
	for _, tc := range []struct {
		name string
		st   neo4j.StatementType
		plan *planNode
		want string // "" when allowed, else a part of the refusal
	}{
		{"Read", neo4j.StatementTypeReadOnly, ok, ""},
		{"Write", neo4j.StatementTypeWriteOnly, ok, "plans this query as w"},
		{"Schema", neo4j.StatementTypeSchemaWrite, ok, "plans this query as s"},
		{"NoPlan", neo4j.StatementTypeReadOnly, nil, "no plan"},
		{"NoTable", neo4j.StatementTypeReadOnly, root("", leaf("Projection", "1 AS x")), "no description"},
		{"LoadCSV", neo4j.StatementTypeReadOnly, root(table("ProduceResults", "LoadCSV"), leaf("LoadCSV", "r")), "LOAD CSV"},
		{"Procedure", neo4j.StatementTypeReadOnly, root(table("ProduceResults", "Apply", "ProcedureCall", "NodeByLabelScan"),
			planNode{Operator: "Apply", Children: []planNode{leaf("ProcedureCall", "db.labels() :: (label :: STRING)"), leaf("NodeByLabelScan", "n:Sample")}}), "procedure (db.labels)"},
		{"Unknown", neo4j.StatementTypeReadOnly, root(table("ProduceResults", "Frobnicate"), leaf("Frobnicate", "")), "Frobnicate, which is not on"},
		{"Show", neo4j.StatementTypeReadOnly, root(table("ProduceResults", "ShowSettings"), leaf("ShowSettings", "allSettings")), "administration"},
		{"GDS", neo4j.StatementTypeReadOnly, root(table("ProduceResults", "EagerAggregation"), leaf("EagerAggregation", "gds.graph.project($autostring_0, s, t) AS g")), "gds.graph.project: the console calls no gds."},
		{"UnknownFunction", neo4j.StatementTypeReadOnly, root(table("ProduceResults", "Projection"), leaf("Projection", "my.fn(1) AS x")), "my.fn is not on"},
		{"HiddenFromTree", neo4j.StatementTypeReadOnly, root(table("ProduceResults", "Apply", "ProcedureCall", "Argument"),
			planNode{Operator: "Apply", Children: []planNode{leaf("Argument", ""), leaf("Argument", "")}}), "calls no procedure"},
	} {
		err := checkPlan(tc.st, tc.plan)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasPrefix(kgeval.ErrorMessage(err), "refused:") || !strings.Contains(kgeval.ErrorMessage(err), tc.want)):
			t.Errorf("%s: err %v, want a refusal with %q", tc.name, err, tc.want)
		}
	}
}

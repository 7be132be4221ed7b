package graphstore

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
)

// chain returns EXPLAIN MATCH (v0:Entity)-[:REL]-(v1:Entity)-...-(z) with
// hops relationships, its variables named after prefix (fresh names dodge
// Neo4j's plan cache).
func chain(prefix string, hops int) string {
	var b strings.Builder
	b.WriteString("EXPLAIN MATCH ")
	for i := range hops {
		fmt.Fprintf(&b, "(%s%d:Entity)-[:REL]-", prefix, i)
	}
	b.WriteString("(z) RETURN count(*)")
	return b.String()
}

// TestCheckShape checks the caps on a query's structure, read from its
// parse tree before anything is sent to Neo4j: patterns too long for
// Neo4j's planner to plan in time, lists that Neo4j's memory guard does not
// count, and the caps on clauses, subqueries, path bounds and query
// options.
func TestCheckShape(t *testing.T) {
	subqueries := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "CALL { RETURN %d AS x%d } ", i, i)
		}
		return b.String() + "RETURN 1 AS one"
	}
	for _, tc := range []struct {
		name, q string
		want    string // "" when allowed, else a part of the refusal
	}{
		{"Plain", "MATCH (a:Entity)-[r:SIMILAR]->(b) WHERE a.run = 'x' RETURN a, r, b LIMIT 25", ""},
		{"Chain8", chain("b", 8), ""},
		{"Chain9", chain("b", 9), "over 8 relationships, the console's limit per pattern"},
		{"Chain102", chain("b", 102), "over 8 relationships"},
		{"Escaped102", strings.ReplaceAll(chain("b", 102), "-[:REL]-", `-[:REL]\u002d`), "over 8 relationships"},
		{"Rels12", "MATCH (a)-->(b)-->(c)-->(d), (d)-->(e)-->(f)-->(g) MATCH (g)-->(h)-->(i)-->(j)-->(k)-->(l)-->(m) RETURN a", ""},
		{"Rels13", "MATCH (a)-->(b)-->(c)-->(d), (d)-->(e)-->(f)-->(g) MATCH (g)-->(h)-->(i)-->(j)-->(k)-->(l)-->(m)-->(n) RETURN a", "over 12 relationships together"},
		{"RelsInSubqueries", "MATCH (a) WHERE EXISTS { (a)-->()-->()-->()-->()-->()-->() } AND COUNT { (a)<--()<--()<--()<--()<--()<--()<--() } > 1 RETURN a", "over 12 relationships together"},
		{"RelsInWhere", "MATCH (a) WHERE (a)-->()-->()-->()-->()-->()-->()-->()-->()-->() RETURN a", "over 8 relationships"},
		{"Patterns8", "MATCH " + strings.Repeat("(a), ", 7) + "(b) RETURN a", ""},
		{"Patterns9", "MATCH " + strings.Repeat("(a), ", 8) + "(b) RETURN a", "over 8 patterns"},
		{"PatternsInSubqueries", "MATCH (a), (b) WHERE EXISTS { (a)--() } AND EXISTS { (b)--() } AND COUNT { (a)--(b) } > 0 AND (a)--() AND EXISTS { MATCH (c), (d), (e) } RETURN a", "over 8 patterns"},
		{"Clauses", "WITH 1 AS a" + strings.Repeat(" WITH a", 40) + " RETURN a", "over 40 clauses"},
		{"Unions", strings.Repeat("RETURN 1 AS x UNION ", 40) + "RETURN 1 AS x", "over 40 clauses"},
		{"Subqueries16", subqueries(16), ""},
		{"Subqueries17", subqueries(17), "over 16 subqueries"},
		{"Nested3", "MATCH (a) WHERE EXISTS { MATCH (a)--(b) WHERE COUNT { MATCH (b)--(c) WHERE EXISTS { (c)--() } } > 0 } RETURN a", ""},
		{"Nested4", "MATCH (a) CALL (a) { MATCH (a)--(b) WHERE EXISTS { MATCH (b)--(c) WHERE COUNT { MATCH (c)--(d) WHERE EXISTS { (d)--() } } > 0 } RETURN b } RETURN a", "deeper than the console's limit of 3"},
		// variable-length bounds
		{"VarBounded", "MATCH p = (a)-[*1..10]->(b) RETURN p", ""},
		{"VarFixed", "MATCH p = (a)-[*3]->(b) RETURN p", ""},
		{"VarUpperOnly", "MATCH p = (a)-[:R*..4]->(b) RETURN p", ""},
		{"VarStar", "MATCH p = (a)-[*]->(b) RETURN p", "needs an upper bound"},
		{"VarOpen", "MATCH p = (a)-[*2..]->(b) RETURN p", "needs an upper bound"},
		{"VarOver", "MATCH p = (a)-[*1..11]->(b) RETURN p", "upper bound 11"},
		{"VarHuge", "MATCH p = (a)-[*..99999999999999999999]->(b) RETURN p", "upper bound 99999999999999999999"},
		{"VarFixedOver", "MATCH p = (a)-[*20]->(b) RETURN p", "upper bound 20"},
		{"QppBounded", "MATCH ((a)-[:R]->(b)){1,3} RETURN count(*)", ""},
		{"QppPlus", "MATCH ((a)-[:R]->(b))+ RETURN count(*)", "needs an upper bound"},
		{"QppStar", "MATCH ((a)-[:R]->(b))* RETURN count(*)", "needs an upper bound"},
		{"QppOpen", "MATCH ((a)-[:R]->(b)){2,} RETURN count(*)", "needs an upper bound"},
		{"QppOver", "MATCH ((a)-[:R]->(b)){1,50} RETURN count(*)", "upper bound 50"},
		{"QppShorthand", "MATCH (a)-[:R]->{1,}(b) RETURN count(*)", "needs an upper bound"},
		{"QppInCount", "MATCH (a) RETURN COUNT { MATCH ((a)--()){1,} } AS c", "needs an upper bound"},
		{"Shortest", "MATCH p = SHORTEST 1 (a:Entity)-[*]->(b:Entity) RETURN length(p)", ""},
		{"ShortestGroups", "MATCH p = SHORTEST 2 GROUPS (a:Entity)-[*]->(b:Entity) RETURN length(p)", ""},
		{"AllShortest", "MATCH p = ALL SHORTEST (a:Entity)((x)-->(y))+(b:Entity) RETURN length(p)", ""},
		{"ShortestPath", "MATCH (a:Entity), (b:Entity) MATCH p = shortestPath((a)-[*]-(b)) RETURN p", ""},
		{"ShortestPathExpr", "MATCH (a:Entity), (b:Entity) RETURN allShortestPaths((a)-[*]-(b)) AS p", ""},
		{"AnyPath", "MATCH p = ANY 2 (a:Entity)-[*]->(b:Entity) RETURN p", "needs an upper bound"},
		// lists that Neo4j's memory guard does not count
		{"Comprehension", "MATCH (a:Entity) RETURN [p=(a)-[*1..4]-() | p] AS ps", "pattern comprehensions"},
		{"ComprehensionSize", "MATCH (a:Entity) RETURN size([p=(a)-[*1..4]-()|1]) AS n", "pattern comprehensions"},
		{"ComprehensionOneHop", "MATCH (a:Entity) RETURN [(a)-->(b) | b.label] AS l", "pattern comprehensions"},
		{"CollectNoLimit", "MATCH (a:Entity) RETURN COLLECT { MATCH p=(a)-[*1..4]-() RETURN p } AS ps", "must end in RETURN ... LIMIT n"},
		{"CollectParamLimit", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN b LIMIT $n } AS ps", "must end in RETURN ... LIMIT n"},
		{"CollectOverLimit", "MATCH (a:Entity) RETURN COLLECT { MATCH p=(a)-[*1..4]-() RETURN p LIMIT 5000000 } AS ps", "up to 5.0 million elements"},
		{"CollectUnion", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN b LIMIT 3000000 UNION MATCH (a)--(b) RETURN b LIMIT 3000000 } AS ps", "up to 6.0 million elements"},
		{"CollectTwo", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN b LIMIT 3000000 } AS x, COLLECT { MATCH (a)--(b) RETURN b LIMIT 3000000 } AS y", "up to 6.0 million elements"},
		{"CollectNested", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN COLLECT { MATCH (b)--(c) RETURN c LIMIT 3000 } AS cs LIMIT 3000 } AS x", "up to 9.0 million elements"},
		{"CollectNestedSmall", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN COLLECT { MATCH (b)--(c) RETURN c LIMIT 100 } AS cs LIMIT 100 } AS x, COLLECT { MATCH (a)--(b) RETURN b LIMIT 10 } AS y", ""},
		{"CollectHuge", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN COLLECT { MATCH (b)--(c) RETURN c LIMIT 4000000 } AS cs LIMIT 4000000 } AS x", "over the console's limit"},
		{"CollectUnionOneOpen", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN b LIMIT 3 UNION MATCH (a)--(b) RETURN b } AS ps", "must end in RETURN ... LIMIT n"},
		{"CollectUnwind", "RETURN COLLECT { UNWIND range(1, 100000000) AS x RETURN x } AS l", "must end in RETURN ... LIMIT n"},
		{"CollectLimited", "MATCH (a:Entity) RETURN COLLECT { MATCH (a)--(b) RETURN b.label LIMIT 100 } AS l", ""},
		{"CountVar", "MATCH (a:Entity) RETURN COUNT { (a)-[*1..4]-() } AS n", ""},
		// query options
		{"Runtime", "CYPHER runtime=slotted MATCH (n) RETURN n", ""},
		{"Version", "CYPHER 5 EXPLAIN MATCH (n) RETURN n", ""},
		{"PlannerDP", "CYPHER planner=dp " + strings.TrimPrefix(chain("b", 8), "EXPLAIN "), "no query option but CYPHER runtime=slotted (planner=dp)"},
		{"PlannerDPAfterExplain", "EXPLAIN CYPHER Planner=DP MATCH (n) RETURN n", "(Planner=DP)"},
		{"Version25", "CYPHER 25 MATCH (n) RETURN n", "Cypher 5 only"},
		{"ShortestPathExprLong", "MATCH (a), (b) RETURN shortestPath((a)-->()-->()-->()-->()-->()-->()-->()-->()-->(b)) AS p", "over 8 relationships"},
		// what the text check cannot read is refused, never sent
		{"Syntax", "MATCH (n RETURN n", "cannot read this query as Cypher 5"},
		{"TwoStatements", "MATCH (n) RETURN n; CREATE (x)", "cannot read this query"},
		{"Empty", "", "cannot read this query"},
	} {
		start := time.Now()
		err := checkShape(tc.q)
		took := time.Since(start)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasPrefix(kgeval.ErrorMessage(err), "refused:") || !strings.Contains(kgeval.ErrorMessage(err), tc.want)):
			t.Errorf("%s: err %v, want a refusal with %q", tc.name, err, tc.want)
		}
		if took > 200*time.Millisecond {
			t.Errorf("%s: read in %v", tc.name, took)
		}
	}
}

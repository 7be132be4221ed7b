package parser_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval/cypher/parser"
)

// valid are Cypher 5 statements Neo4j 5.26 accepts, the console's tests'
// reads among them.
var valid = []string{
	"MATCH (n:WebSentinel {tag: 'x'}) CALL { WITH n MATCH (n)-->(m) RETURN count(m) AS out } RETURN n.name, out ORDER BY n.name",
	"MATCH (n) CALL (n) { MATCH (n)-->(m) RETURN m.name AS next } RETURN n.name, next",
	"MATCH (n) WHERE exists { (n)-->() } RETURN n.name, count { (n)-->() } AS c",
	"MATCH p = SHORTEST 1 (a:WebSentinel {tag: 'x'})-[*]->(b:WebSentinel) RETURN length(p)",
	"MATCH ((a:WebSentinel {tag: 'x'})-[:WEB_SENTINEL]->(b)){1,3} RETURN count(*) AS c",
	"MATCH (a)-[:R]->{2,4}(b) RETURN a",
	"MATCH (n) WITH n, labels(n) AS ls RETURN [x IN ls WHERE x STARTS WITH 'Web'] AS a, reduce(m = 0, x IN ls | CASE WHEN size(x) > m THEN size(x) ELSE m END) AS longest",
	"RETURN duration.inDays(date('2020-01-01'), date('2020-02-01')).days AS d, 1 IS :: INTEGER AS t, 'a' IS NOT NORMALIZED AS n",
	"CYPHER runtime=slotted MATCH (n) RETURN n",
	"EXPLAIN MATCH (n) RETURN n",
	"profile MATCH (n) RETURN count(n) AS c",
	"MATCH (profile) RETURN profile.explain AS cypher",
	"MATCH (a)-[:A|B]->(b:X&!Y) RETURN COLLECT { MATCH (a)--(c) RETURN c LIMIT 5 } AS cs",
	"MATCH p = shortestPath((a)-[*..5]-(b)) RETURN p",
	"MATCH (n) RETURN n {.name, .score} AS m, n.name AS csv ORDER BY csv SKIP 1 LIMIT 2;",
	"UNWIND range(1, 3) AS x RETURN x UNION RETURN 4 AS x",
	"MATCH (n)\u2028RETURN\u00a0count(n) AS c",
	"// a comment\nMATCH (n) /* another */ RETURN count(n) AS c",
	"CREATE (:X {a: 1})",
	"CALL db.labels() YIELD label RETURN label",
	"LOAD CSV FROM 'file:///x' AS r RETURN r",
}

func TestParse(t *testing.T) {
	for _, q := range valid {
		start := time.Now()
		if _, err := parser.Parse(q, time.Second); err != nil {
			t.Errorf("%q: %v", q, err)
		}
		t.Logf("%.60q parsed in %v", q, time.Since(start))
	}
	for _, q := range []string{"", "  ;  ", "// only a comment", "MATCH (n RETURN n", "MATCH (n) RETURN 'x", "MATCH (n) RETURN n; CREATE (x)"} {
		_, err := parser.Parse(q, time.Second)
		var se *parser.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: err %v, want a syntax error", q, err)
		}
	}
}

// TestParse_Budget checks that a parse stops at its budget.
func TestParse_Budget(t *testing.T) {
	q := "RETURN " + strings.Repeat("CASE WHEN true THEN ", 39) + "1" + strings.Repeat(" END", 39)
	start := time.Now()
	_, err := parser.Parse(q+" +", time.Millisecond) // a syntax error at the end: SLL fails, LL runs
	if !errors.Is(err, parser.ErrBudget) || time.Since(start) > 500*time.Millisecond {
		t.Errorf("err %v after %v, want ErrBudget at once", err, time.Since(start))
	}
	if _, err := parser.Parse(q, time.Second); err != nil {
		t.Errorf("39 nested CASEs: %v", err)
	}
}

// TestParse_Concurrent parses from many goroutines at once (go test -race:
// the generated parsers share their prediction cache).
func TestParse_Concurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range valid {
				q := valid[(i+j)%len(valid)]
				if _, err := parser.Parse(q, 5*time.Second); err != nil {
					t.Errorf("%q: %v", q, err)
				}
			}
		}()
	}
	wg.Wait()
}

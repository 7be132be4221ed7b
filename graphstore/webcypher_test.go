package graphstore_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
)

// TestCheckReadOnly checks the text guard on its own: reads pass, and
// keywords hidden in comments, strings or quoted names neither trip it nor
// hide a write.
func TestCheckReadOnly(t *testing.T) {
	for _, q := range []string{
		"MATCH (n:Entity) RETURN n LIMIT 5",
		"MATCH (n) RETURN n;",
		"MATCH (n) WHERE n.label = 'CREATE (x)' RETURN n // then DELETE n",
		"MATCH (n) /* SET n.x = 1 */ RETURN n.set, n.delete",
		"MATCH (n:`CREATE`) RETURN count(n)",
		"RETURN \"it's; fine\" AS s",
		"MATCH (s:Sample) WITH s ORDER BY s.record RETURN s.id SKIP 2 LIMIT 3",
		"UNWIND [1, 2] AS x RETURN x",
	} {
		if err := graphstore.CheckReadOnly(q); err != nil {
			t.Errorf("%q refused: %v", q, err)
		}
	}
	for _, q := range []string{"", "  ;  ", "// only a comment", "MATCH (n) RETURN 'x", "MATCH (n) /* RETURN n", "MATCH (n:`x) RETURN n"} {
		if err := graphstore.CheckReadOnly(q); kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("%q: err %v, want EINVALID", q, err)
		}
	}
}

// writeCorpus returns write and admin attempts aimed at the sentinels of
// tag and at the GDS projection proj.
func writeCorpus(tag, proj string) []string {
	s := fmt.Sprintf("(n:WebSentinel {tag: '%s'})", tag)
	return []string{
		fmt.Sprintf("CREATE (:WebAttack {tag: '%s'})", tag),
		"CREATE (x)",
		fmt.Sprintf("MERGE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("MATCH %s SET n.score = 99", s),
		fmt.Sprintf("MATCH %s SET n:Owned", s),
		fmt.Sprintf("MATCH %s DELETE n", s),
		fmt.Sprintf("MATCH %s DETACH DELETE n", s),
		fmt.Sprintf("MATCH %s REMOVE n.name", s),
		fmt.Sprintf("MATCH %s-[r]->() DELETE r", s),
		fmt.Sprintf("CALL gds.graph.drop('%s')", proj),
		fmt.Sprintf("call gds.graph.drop('%s') YIELD graphName RETURN graphName", proj),
		"CALL dbms.components()",
		"CALL dbms.listConfig()",
		"CALL db.clearQueryCaches()",
		"LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row",
		"load csv with headers from 'http://127.0.0.1:1/x.csv' AS row CREATE (:WebAttack {tag: row.t})",
		fmt.Sprintf("/* */CREATE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("/* MATCH (n) RETURN n */ CREATE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("// read only\nCREATE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("MATCH (n) RETURN n // harmless\n; CREATE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("cReAtE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("MaTcH %s dEtAcH dElEtE n", s),
		fmt.Sprintf("MATCH (n) RETURN n; CREATE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("MATCH (n) RETURN n LIMIT 1;CREATE (x {tag: '%s'});", tag),
		fmt.Sprintf("MATCH %s FOREACH (i IN [1] | CREATE (:WebAttack {tag: '%s'}))", s, tag),
		fmt.Sprintf("MATCH %s FOREACH (i IN [1] | SET n.score = 0)", s),
		fmt.Sprintf("CALL { CREATE (:WebAttack {tag: '%s'}) } RETURN 1", tag),
		fmt.Sprintf("MATCH %s CALL (n) { DETACH DELETE n } RETURN 1", s),
		fmt.Sprintf("UNWIND range(1, 3) AS i CALL { WITH i CREATE (:WebAttack {tag: '%s'}) } IN TRANSACTIONS RETURN i", tag),
		"CREATE INDEX web_attack IF NOT EXISTS FOR (n:WebAttack) ON (n.tag)",
		"DROP INDEX entity_graph",
		"DROP CONSTRAINT run_name",
		"CREATE DATABASE attack",
		"STOP DATABASE neo4j",
		"SHOW USERS",
		"ALTER USER neo4j SET PASSWORD 'x'",
		"CREATE USER mallory SET PASSWORD 'secret123'",
		"GRANT ROLE admin TO mallory",
		"TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
		"USE system SHOW DATABASES",
		"EXPLAIN CREATE (x)",
		fmt.Sprintf("PROFILE CREATE (:WebAttack {tag: '%s'})", tag),
		fmt.Sprintf("CYPHER runtime=slotted CREATE (:WebAttack {tag: '%s'})", tag),
		"RETURN apoc.create.uuid()",
		fmt.Sprintf("MATCH %s WITH n SET n += {score: 7}", s),
		fmt.Sprintf("MATCH %s\tSET\tn.score\t=\t5", s),
		fmt.Sprintf("MATCH %s\nDELETE\nn", s),
	}
}

// TestDB_RunConsole_WriteAttempts runs the write corpus through the console
// against the real Neo4j: every attempt is refused, the sentinels, their
// relationship and the GDS projection are unchanged, no tagged or unlabelled
// node appears. The database is shared with tests running in parallel, so
// what is compared is everything the corpus aims at, not global counts
// (those are logged).
func TestDB_RunConsole_WriteAttempts(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	tag := fmt.Sprintf("webattack-%d", time.Now().UnixNano())
	proj := "webtest-" + tag
	if err := db.SentinelForTest(ctx, tag); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.DeleteSentinelForTest(context.Background(), tag) })
	if err := db.ProjectForTest(ctx, proj); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.DropProjectionForTest(context.Background(), proj) })
	before, err := db.SentinelStateForTest(ctx, tag, proj)
	if err != nil {
		t.Fatal(err)
	}
	if before["projection"] != true || len(before["sentinels"].([]any)) != 2 || len(before["rels"].([]any)) != 1 {
		t.Fatalf("setup: %v", before)
	}
	n0, r0, _ := db.CountsForTest(ctx)
	lim := graphstore.ConsoleLimits{Timeout: 5 * time.Second, MaxRows: 10}
	for _, q := range writeCorpus(tag, proj) {
		res, err := db.RunConsole(ctx, q, lim)
		if err == nil {
			t.Errorf("not refused: %q (%d rows)", q, len(res.Rows))
			continue
		}
		if kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("%q: err %v, want EINVALID", q, err)
		}
	}
	// Without the text guard, the EXPLAIN check and the READ transaction
	// still refuse every write. Procedures, LOAD CSV and administration
	// commands are left out: they plan as reads (TERMINATE TRANSACTIONS even
	// runs in a READ transaction), which is why the text guard refuses them.
	layered := 0
	for _, q := range writeCorpus(tag, proj) {
		u := strings.ToUpper(q)
		if strings.Contains(u, "CALL") || strings.Contains(u, "LOAD") || strings.Contains(u, "APOC") || strings.Contains(u, "SHOW") || strings.Contains(u, "TERMINATE") {
			continue
		}
		layered++
		if res, err := db.RunConsoleUncheckedForTest(ctx, q, lim); err == nil {
			t.Errorf("without the text guard, not refused: %q (%d rows)", q, len(res.Rows))
		}
	}
	after, err := db.SentinelStateForTest(ctx, tag, proj)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the database changed:\nbefore %v\nafter  %v", before, after)
	}
	n1, r1, _ := db.CountsForTest(ctx)
	t.Logf("%d attempts refused (%d also without the text guard); global counts %d nodes / %d rels before, %d / %d after (other test packages write in parallel)", len(writeCorpus(tag, proj)), layered, n0, r0, n1, r1)
}

// TestDB_RunConsole checks the console's results and limits.
func TestDB_RunConsole(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	tag := fmt.Sprintf("webconsole-%d", time.Now().UnixNano())
	if err := db.SentinelForTest(ctx, tag); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.DeleteSentinelForTest(context.Background(), tag) })
	lim := graphstore.ConsoleLimits{Timeout: 5 * time.Second, MaxRows: 1}
	t.Run("OK", func(t *testing.T) {
		q := fmt.Sprintf("MATCH (a:WebSentinel {tag: '%s'})-[r]->(b) RETURN a, r, b, a.score AS score, [a.name, b.name] AS names", tag)
		res, err := db.RunConsole(ctx, q, graphstore.ConsoleLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(res.Columns, ",") != "a,r,b,score,names" || len(res.Rows) != 1 || len(res.Nodes) != 2 || len(res.Rels) != 1 || res.Truncated {
			t.Fatalf("result: %+v", res)
		}
		a := res.Rows[0][0].(map[string]any)
		if a["_kind"] != "node" || a["properties"].(map[string]any)["name"] != "alpha" || res.Rows[0][3] != int64(1) {
			t.Errorf("row: %v", res.Rows[0])
		}
		if res.Rels[0].Start != res.Nodes[0].ID || res.Rels[0].Type != "WEB_SENTINEL" {
			t.Errorf("relationship: %+v, nodes %+v", res.Rels[0], res.Nodes)
		}
	})
	t.Run("RowCap", func(t *testing.T) {
		res, err := db.RunConsole(ctx, "UNWIND range(1, 50) AS x RETURN x", lim)
		if err != nil || len(res.Rows) != 1 || !res.Truncated {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("Timeout", func(t *testing.T) {
		start := time.Now()
		_, err := db.RunConsole(ctx, "UNWIND range(1, 300000000) AS x WITH x WHERE x = -1 RETURN count(x)", graphstore.ConsoleLimits{Timeout: time.Second, MaxRows: 1})
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || time.Since(start) > 8*time.Second {
			t.Errorf("err %v after %v, want EUNAVAILABLE within the limit", err, time.Since(start))
		}
	})
	t.Run("EINVALID", func(t *testing.T) {
		if _, err := db.RunConsole(ctx, "MATCH (n RETURN n", lim); kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("syntax error: err %v, want EINVALID", err)
		}
	})
}

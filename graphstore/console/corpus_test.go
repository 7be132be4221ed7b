package console_test

import (
	"fmt"
	"strings"
)

// writeCorpus returns write and admin attempts aimed at the sentinels of
// tag and at the GDS projection proj, in plain text.
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

// escapeCorpus returns the same kinds of attempt with the keywords hidden
// from a reader of the text but not from Neo4j: \uHHHH escapes in every
// keyword position, mixed case, comments and unusual separators between
// keywords (U+2028, U+2029, no-break space, form feed, vertical tab), and
// everything aimed at the loopback URL url (SSRF), at GDS (functions and
// procedures, tag-named projections) and at the db and dbms procedures.
func escapeCorpus(tag, proj, url string) []string {
	s := fmt.Sprintf("(n:WebSentinel {tag: '%s'})", tag)
	g := "webattack-" + tag // a GDS graph the attempts try to create
	q := []string{
		// LOAD CSV with an escape in each keyword, and in all
		`LO\u0041D CSV FROM '` + url + `' AS r RETURN r`,
		`LOAD C\u0053V FROM '` + url + `' AS r RETURN r`,
		`LOAD CSV FR\u004fM '` + url + `' AS r RETURN r`,
		`LOAD CSV FROM '` + url + `' \u0041S r RETURN r`,
		`LOAD CSV FROM '` + url + `' AS r R\u0045TURN r`,
		`LOAD CSV WITH H\u0045ADERS FROM '` + url + `' AS r RETURN r`,
		`\u004cOAD CSV FROM '` + url + `' AS r RETURN r`,
		`L\u004f\u0041D \u0043\u0053\u0056 \u0046ROM '` + url + `' \u0041S r \u0052ETURN r`,
		`LOAD\u0020CSV FROM '` + url + `' AS r RETURN r`,
		`LOAD\u2028CSV FROM '` + url + `' AS r RETURN r`,
		"LOAD\u2028CSV\u2029FROM '" + url + "'\u00a0AS r\fRETURN r",
		"LOAD\vCSV\r\nFROM '" + url + "' AS r RETURN r",
		"LoAd CsV fRoM '" + url + "' aS r ReTuRn r",
		"LOAD/**/CSV/* x */FROM '" + url + "' AS r RETURN r",
		"LOAD // comment\nCSV FROM '" + url + "' AS r RETURN r",
		"/* MATCH */ LOAD CSV FROM '" + url + "' AS r RETURN r",
		`LOAD CSV FROM 'http:\u002f\u002f` + strings.TrimPrefix(url, "http://") + `' AS r RETURN r`,
		"LOAD CSV FROM '" + url + "' AS r RETURN linenumber(), file(), r",
		"CALL { LOAD CSV FROM '" + url + "' AS r RETURN r } RETURN r",
		"MATCH " + s + " CALL (n) { LOAD CSV FROM '" + url + "' AS r RETURN r } RETURN r",
		"UNWIND [1] AS i CALL { WITH i LOAD CSV FROM '" + url + "' AS r RETURN r } IN TRANSACTIONS RETURN r",
		"EXPLAIN LOAD CSV FROM '" + url + "' AS r RETURN r",
		"PROFILE LOAD CSV FROM '" + url + "' AS r RETURN r",
		"CYPHER runtime=slotted LOAD CSV FROM '" + url + "' AS r RETURN r",
		"WITH '" + url + "' AS u LOAD CSV FROM u AS r RETURN r",
		// procedures, escaped or not, GDS ones that drop or fill the catalog
		fmt.Sprintf(`CA\u004cL gds.graph.drop('%s')`, proj),
		fmt.Sprintf(`C\u0041LL gds.graph.drop('%s', false) YIELD graphName RETURN graphName`, proj),
		fmt.Sprintf(`CALL gds\u002egraph\u002edrop('%s')`, proj),
		fmt.Sprintf("CALL `gds`.graph.drop('%s')", proj),
		fmt.Sprintf("CALL /* */ gds.graph.drop('%s')", proj),
		fmt.Sprintf("cAlL gds.graph.drop('%s')", proj),
		fmt.Sprintf("CALL\u2028gds.graph.drop('%s')", proj),
		"CALL gds.graph.list() YIELD graphName CALL gds.graph.drop(graphName) YIELD nodeCount RETURN graphName",
		fmt.Sprintf(`CA\u004cL gds.louvain.mutate('%s', {mutateProperty: 'webattack'})`, proj),
		fmt.Sprintf("CALL gds.louvain.stream('%s') YIELD nodeId RETURN nodeId", proj),
		fmt.Sprintf("CALL gds.louvain.write('%s', {writeProperty: 'webattack'})", proj),
		fmt.Sprintf("CALL gds.graph.project('%s', '*', '*')", g),
		fmt.Sprintf("CALL gds.graph.project.cypher('%s', 'MATCH (n) RETURN id(n) AS id', 'MATCH (a)-->(b) RETURN id(a) AS source, id(b) AS target')", g),
		"CALL gds.graph.list()",
		"CALL gds.version()",
		"CALL db.labels()",
		"CALL db.labels() YIELD label WITH label MATCH (n:Sample) RETURN label, count(n)",
		"CALL gds.graph.list() YIELD graphName WITH graphName MATCH " + s + " RETURN graphName, n",
		"MATCH " + s + " CALL (n) { CALL db.labels() YIELD label RETURN label } RETURN label",
		"CALL dbms.listConfig() YIELD name RETURN name",
		"CALL dbms.security.listUsers()",
		`SH\u004fW PROCEDURES`,
		`SHOW PR\u004fCEDURES`,
		"SHOW FUNCTIONS",
		"SHOW SETTINGS",
		"SHOW TRANSACTIONS",
		"SHOW INDEXES",
		"SHOW CONSTRAINTS",
		"sHoW uSeRs",
		`T\u0045RMINATE TRANSACTIONS 'neo4j-transaction-1'`,
		// GDS functions, gds.graph.project above all (an
		// aggregation function: RETURN alone creates a graph)
		fmt.Sprintf("RETURN gds.graph.project('%s', 1, 2)", g),
		fmt.Sprintf("MATCH (s)-->(t) RETURN gds.graph.project('%s', s, t)", g),
		fmt.Sprintf("MATCH %s-->(t) WITH gds.graph.project('%s', n, t) AS p RETURN p.graphName", s, g),
		fmt.Sprintf(`RETURN gd\u0073.graph.project('%s', 1, 2)`, g),
		fmt.Sprintf(`RETURN gds\u002egraph\u002eproject('%s', 1, 2)`, g),
		fmt.Sprintf("RETURN `gds`.`graph`.`project`('%s', 1, 2)", g),
		fmt.Sprintf("RETURN gds.graph./* */project('%s', 1, 2)", g),
		fmt.Sprintf("RETURN gds.graph.project\u2028('%s', 1, 2)", g),
		fmt.Sprintf("CALL { RETURN gds.graph.project('%s', 1, 2) AS p } MATCH %s RETURN p, n", g, s),
		fmt.Sprintf("MATCH %s RETURN [x IN [1] | gds.graph.project('%s', x, x)] AS p", s, g),
		fmt.Sprintf("RETURN CASE WHEN true THEN gds.graph.project('%s', 1, 2) END AS p", g),
		fmt.Sprintf("RETURN {a: gds.graph.project('%s', 1, 2)} AS p", g),
		fmt.Sprintf("MATCH (n:Entity) WHERE n.run = {a: gds.graph.exists('%s')}.a RETURN n", proj),
		"RETURN gds.version()",
		fmt.Sprintf("RETURN gds.graph.exists('%s')", proj),
		"RETURN gds.util.asNode(0)",
		"RETURN gds.similarity.cosine([1.0], [1.0])",
		"RETURN gds.util.NaN()",
		"RETURN linenumber()",
		"RETURN file()",
		// writes in escapes, case and separators
		fmt.Sprintf(`CR\u0045ATE (:WebAttack {tag: '%s'})`, tag),
		fmt.Sprintf(`M\u0045RGE (:WebAttack {tag: '%s'})`, tag),
		fmt.Sprintf(`MATCH %s S\u0045T n.score = 99`, s),
		fmt.Sprintf(`MATCH %s D\u0045TACH D\u0045LETE n`, s),
		fmt.Sprintf(`MATCH %s R\u0045MOVE n:WebSentinel`, s),
		fmt.Sprintf(`MATCH %s F\u004fREACH (i IN [1] | SET n.score = 0)`, s),
		fmt.Sprintf("MATCH %s\u2028SET\u2029n.score = 98", s),
		fmt.Sprintf("MATCH %s /* */ SeT n.score = 97", s),
		fmt.Sprintf(`\u0043REATE INDEX web_attack_idx IF NOT EXISTS FOR (n:WebAttack) ON (n.tag)`),
		`DR\u004fP INDEX entity_graph`,
	}
	return q
}

package cypher_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/cypher"
)

func TestGet(t *testing.T) {
	if _, err := cypher.Get("no_such_query"); err == nil {
		t.Error("unknown query: no error")
	}
	defer func() {
		if recover() == nil {
			t.Error("MustGet of an unknown query did not panic")
		}
	}()
	cypher.MustGet("no_such_query")
}

// TestSchema checks that every schema statement is idempotent and named.
func TestSchema(t *testing.T) {
	st := cypher.Schema()
	if len(st) < 10 {
		t.Fatalf("%d schema statements", len(st))
	}
	for _, s := range st {
		if !strings.Contains(s.Query, "IF NOT EXISTS") {
			t.Errorf("%s is not idempotent: %s", s.Name, s.Query)
		}
		name := s.Name[strings.IndexByte(s.Name, '_')+1:]
		if !strings.Contains(s.Query, " "+name+" ") {
			t.Errorf("%s: the statement does not create %q", s.Name, name)
		}
	}
}

// TestQueries_Parameters guards against values spliced into query text: no
// query holds a string literal other than fixed labels, keys and names, and
// every query but a few fixed reads takes parameters.
func TestQueries_Parameters(t *testing.T) {
	allowed := map[string]bool{"'ctx'": true, "'in'": true, "'cost'": true, "'weight'": true, "'*'": true, "'Neo4j Kernel'": true, "''": true,
		// run_counts names its rows.
		"'samples'": true, "'entities'": true, "'relations'": true, "'similar_edges'": true, "'head_edges'": true, "'tail_edges'": true, "'scores'": true,
		"'relation_similar_edges'": true, "'conflict_edges'": true}
	fixed := map[string]bool{"server_info": true, "gds_version": true, "schema_constraints": true, "schema_indexes": true,
		"test_drop_relation_run_index": true, "web_test_counts": true, "run_list": true,
		"web_test_snapshot_schema": true, "web_test_snapshot_users": true}
	lit := regexp.MustCompile(`'[^']*'`)
	if len(cypher.Names()) < 40 {
		t.Fatalf("%d queries: the embedded files are missing", len(cypher.Names()))
	}
	for _, name := range cypher.Names() {
		var code []string
		for _, line := range strings.Split(cypher.MustGet(name), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				code = append(code, line)
			}
		}
		q := strings.Join(code, "\n")
		for _, l := range lit.FindAllString(q, -1) {
			if !allowed[l] {
				t.Errorf("%s: literal %s in query text", name, l)
			}
		}
		if !strings.Contains(q, "$") && !fixed[name] {
			t.Errorf("%s takes no parameter", name)
		}
	}
}

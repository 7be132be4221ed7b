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
// query holds a string literal other than fixed labels, keys and names.
func TestQueries_Parameters(t *testing.T) {
	allowed := map[string]bool{"'ctx'": true, "'cost'": true, "'weight'": true, "'*'": true, "'Neo4j Kernel'": true}
	lit := regexp.MustCompile(`'[^']*'`)
	for _, name := range []string{"pairgraph_entities", "pairgraph_edges_similar", "gds_project_paths", "gds_project_communities",
		"gds_louvain", "gds_dijkstra", "cache_get", "cache_put", "kgscore_write", "run_delete_graphs"} {
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
		if !strings.Contains(q, "$") {
			t.Errorf("%s takes no parameter", name)
		}
	}
}

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

// TestNames_ProductionOnly checks that the binary embeds no test-only
// query: those live in graphstore/graphstoretest/testdata.
func TestNames_ProductionOnly(t *testing.T) {
	for _, name := range cypher.Names() {
		if strings.HasPrefix(name, "test_") {
			t.Errorf("%s: a test-only query among the production queries", name)
		}
	}
}

// TestQueries_Parameters guards against values spliced into query text: no
// query holds a string literal other than fixed labels, keys and names, and
// every query but a few fixed reads takes parameters.
func TestQueries_Parameters(t *testing.T) {
	allowed := map[string]bool{"'ctx'": true, "'in'": true, "'cost'": true, "'weight'": true, "'*'": true, "'Neo4j Kernel'": true, "''": true}
	fixed := map[string]bool{"server_info": true, "gds_version": true, "schema_constraints": true, "schema_indexes": true, "run_list": true}
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

// TestStrictQueries_Parameters guards the queries behind the dashboard's
// reads more strictly: no string literal at all, and at least one parameter
// (the console's one query is user text, guarded by package
// graphstore/console instead).
func TestStrictQueries_Parameters(t *testing.T) {
	lit := regexp.MustCompile(`'[^']*'|"[^"]*"`)
	for _, name := range []string{"sample_page", "kgscore_by_uid", "sample_get", "kgscore_with_system", "sample_systems",
		"metricscore_by_uid", "metricscore_sample", "metricscore_groups", "metricscore_null_reasons", "kgscore_sweep_means",
		"kgscore_verdicts_by_uid", "kgscore_claims_run"} {
		var code []string
		for _, line := range strings.Split(cypher.MustGet(name), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				code = append(code, line)
			}
		}
		q := strings.Join(code, "\n")
		if l := lit.FindString(q); l != "" {
			t.Errorf("%s: literal %s in query text", name, l)
		}
		if !strings.Contains(q, "$") {
			t.Errorf("%s takes no parameter", name)
		}
	}
}

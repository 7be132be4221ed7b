package graphstoretest_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/graphstore/graphstoretest"
)

// uncommented returns q without its comment lines.
func uncommented(q string) string {
	var code []string
	for _, line := range strings.Split(q, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			code = append(code, line)
		}
	}
	return strings.Join(code, "\n")
}

// TestQuery checks that an unknown test query panics.
func TestQuery(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Query of an unknown name did not panic")
		}
	}()
	graphstoretest.Query("no_such_query")
}

// TestQueries_Parameters holds the test-only queries to the rule of package
// cypher: no string literal other than fixed names, and parameters unless
// the query is a fixed read.
func TestQueries_Parameters(t *testing.T) {
	allowed := map[string]bool{"''": true,
		// test_run_counts names its rows.
		"'samples'": true, "'entities'": true, "'relations'": true, "'similar_edges'": true, "'head_edges'": true, "'tail_edges'": true, "'scores'": true,
		"'relation_similar_edges'": true, "'conflict_edges'": true}
	fixed := map[string]bool{"test_drop_relation_run_index": true, "test_counts": true,
		"test_console_snapshot_schema": true, "test_console_snapshot_users": true}
	lit := regexp.MustCompile(`'[^']*'`)
	names := graphstoretest.QueryNames()
	if len(names) < 12 {
		t.Fatalf("%d test queries: the embedded files are missing", len(names))
	}
	for _, name := range names {
		q := uncommented(graphstoretest.Query(name))
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

// TestSentinelQueries_Parameters guards the console tests' sentinels more
// strictly: no string literal at all, and at least one parameter.
func TestSentinelQueries_Parameters(t *testing.T) {
	lit := regexp.MustCompile(`'[^']*'|"[^"]*"`)
	for _, name := range []string{"test_sentinel_create", "test_sentinel_state", "test_sentinel_delete"} {
		q := uncommented(graphstoretest.Query(name))
		if l := lit.FindString(q); l != "" {
			t.Errorf("%s: literal %s in query text", name, l)
		}
		if !strings.Contains(q, "$") {
			t.Errorf("%s takes no parameter", name)
		}
	}
}

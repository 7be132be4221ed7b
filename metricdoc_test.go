package kgeval_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/metricreg"
)

var update = flag.Bool("update", false, "rewrite the registry table of docs/METRICS.md")

// registryTable is the metric registry as the Markdown table of
// docs/METRICS.md.
func registryTable() string {
	var b strings.Builder
	b.WriteString("| metric | family | better | scale | validity type | meaning |\n|---|---|---|---|---|---|\n")
	for _, m := range metricreg.Registry() {
		typ := m.Type
		if m.Family == metricreg.FamilyKG {
			typ = "the pair's"
		}
		better := "higher"
		if m.Direction == metricreg.LowerIsBetter {
			better = "lower"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %g – %g | %s | %s |\n", m.Name, m.Family, better, m.Lo, m.Hi, typ, m.Meaning)
	}
	return b.String()
}

// TestMetricsDoc checks that docs/METRICS.md shows the registry as it is
// (go test -run TestMetricsDoc -update rewrites it).
func TestMetricsDoc(t *testing.T) {
	const file, begin, end = "docs/METRICS.md", "<!-- registry:begin -->\n", "<!-- registry:end -->"
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q ... %q block", file, begin, end)
	}
	want := registryTable()
	if got := doc[i+len(begin) : j]; got != want {
		if *update {
			if err := os.WriteFile(file, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s is not the registry (go test -run TestMetricsDoc -update):\n%s", file, want)
	}
}

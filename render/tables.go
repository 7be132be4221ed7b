// Package render draws what the CLI prints and writes: tables, reports
// (Markdown, JUnit XML, JSON, CSV) and PNG plots (gonum.org/v1/plot) of the
// use cases' results and the read models of package analysis. It computes
// nothing that the dashboard would need: the numbers come from analysis.
package render

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/kgeval/kgeval/analysis"
)

func optf(p *float64, format string) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}

func num(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

func reasons(m map[string]string) string {
	var out []string
	for _, k := range sortedKeys(m) {
		out = append(out, k+": "+m[k])
	}
	return strings.Join(out, "; ")
}

func optTest(t *analysis.Test) string {
	if t == nil {
		return "-"
	}
	return fmt.Sprintf("%.3g", t.P)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func fmtNum(x float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

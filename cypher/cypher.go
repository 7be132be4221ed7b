// Package cypher holds every Cypher query kgeval runs, one query per .cypher
// file, embedded in the binary. Values always reach a query as parameters;
// query text is never built from user input.
//
// Schema (see also README "Graph schema"):
//
//	(:Run {name, dataset, fingerprint, config, llm, encoder, engine, status, ...})
//	(:Sample {uid, run, id, record, question, answer, reference, contexts, system, human})
//	(:Entity {uid, graph, run, sample, pair, nid, side, key, label, community, best_cost, best_path, passed})
//	(:Relation {uid, graph, run, sample, pair, nid, side, label, passage, community})
//	(:Entity)-[:REL {weight, cost}]->(:Relation)-[:REL {weight, cost}]->(:Entity)
//	(:Entity {side:'in'})-[:SIMILAR {weight, cost}]->(:Entity {side:'ctx'})
//	(:PairScore {uid, graph, run, sample, pair, variant, engine, multihop, community_overlap, community_coverage, reason})
//	(:MetricScore {uid, run, sample, metric, family, value, reason, explanation})
//	(:CacheEntry {key, value, updated, runs})   // runs: the runs that used the entry
//
// graph is the pair graph's id: run, sample and pair joined by U+001F; a
// node's uid is graph, U+001F and nid (its index in the pair graph); a
// PairScore's uid is graph, U+001F and the variant; a MetricScore's uid is
// run, sample and metric joined by U+001F.
package cypher

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.cypher schema/*.cypher
var files embed.FS

// Get returns the query in name (without the .cypher extension).
func Get(name string) (string, error) {
	b, err := files.ReadFile(name + ".cypher")
	if err != nil {
		return "", fmt.Errorf("cypher query %q: %w", name, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// Names returns the name of every query (not the schema statements), sorted.
func Names() []string {
	names, _ := fs.Glob(files, "*.cypher")
	for i, n := range names {
		names[i] = strings.TrimSuffix(n, ".cypher")
	}
	sort.Strings(names)
	return names
}

// MustGet returns the query in name and panics when there is none, so that a
// misspelt name fails at startup, not at first use.
func MustGet(name string) string {
	q, err := Get(name)
	if err != nil {
		panic(err)
	}
	return q
}

// Schema returns the schema statements (constraints and indexes) in the order
// they are applied. Each is idempotent (IF NOT EXISTS).
func Schema() []Statement {
	names, _ := fs.Glob(files, "schema/*.cypher")
	sort.Strings(names)
	out := make([]Statement, 0, len(names))
	for _, n := range names {
		b, _ := files.ReadFile(n)
		out = append(out, Statement{Name: strings.TrimSuffix(strings.TrimPrefix(n, "schema/"), ".cypher"), Query: strings.TrimSpace(string(b))})
	}
	return out
}

// Statement is a named query.
type Statement struct {
	Name  string
	Query string
}

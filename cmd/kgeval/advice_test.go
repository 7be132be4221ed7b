package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
)

// TestMain_Advice checks that the command line adds its own advice to the
// messages of the layers below, which stay free of flags, commands and make
// targets because the dashboard shows them too.
func TestMain_Advice(t *testing.T) {
	run := func(t *testing.T, args ...string) (*Main, error) {
		t.Helper()
		var out strings.Builder
		m := NewMain(&out, &out)
		return m, m.Run(context.Background(), args)
	}
	check := func(t *testing.T, m *Main, err error, code, message, line string) {
		t.Helper()
		if kgeval.ErrorCode(err) != code {
			t.Fatalf("err %v, want code %s", err, code)
		}
		if got := kgeval.ErrorMessage(err); got != message {
			t.Errorf("message %q, want %q", got, message)
		}
		if got := m.oneLine(err); !strings.HasPrefix(got, line) {
			t.Errorf("printed %q, want it to start with %q", got, line)
		}
	}
	t.Run("RunExists", func(t *testing.T) {
		r := graphstoretest.MustWebRun(t, graphstoretest.MustOpenDB(t), 1)
		m, err := run(t, "evaluate", "--dataset", filepath.Join("..", "..", "testdata", "wikieval.jsonl"), "--run", r.Name, "--limit", "1")
		msg := fmt.Sprintf("run %q exists (status done)", r.Name)
		check(t, m, err, kgeval.ECONFLICT, msg, msg+": add --resume to finish it, --replace to start it over, or choose another --run")
	})
	t.Run("ResumeMismatch", func(t *testing.T) {
		r := graphstoretest.MustWebRun(t, graphstoretest.MustOpenDB(t), 1)
		m, err := run(t, "evaluate", "--dataset", filepath.Join("..", "..", "testdata", "wikieval.jsonl"), "--run", r.Name, "--limit", "1", "--resume")
		msg := kgeval.ErrorMessage(err)
		if !strings.HasPrefix(msg, fmt.Sprintf("cannot resume run %q: the dataset changed", r.Name)) || strings.Contains(msg, "--") {
			t.Fatalf("message %q, want the fact without a flag", msg)
		}
		check(t, m, err, kgeval.EINVALID, msg, msg+"; use --replace or another --run")
	})
	t.Run("NoSuchRun", func(t *testing.T) {
		m, err := run(t, "runs", "show", "no-such-run-advice")
		msg := `no run "no-such-run-advice"`
		check(t, m, err, kgeval.ENOTFOUND, msg, msg+" (see `kgeval runs list`)")
	})
	t.Run("NoSuchVariant", func(t *testing.T) {
		r := graphstoretest.MustWebRun(t, graphstoretest.MustOpenDB(t), 1)
		m, err := run(t, "correlate", "--run", r.Name, "--variant", "tau=0.9,delta=9")
		msg := fmt.Sprintf("run %q has no variant %q", r.Name, "tau=0.9,delta=9")
		check(t, m, err, kgeval.ENOTFOUND, msg, msg+" (see `kgeval sweep-report --run "+r.Name+"`)")
	})
	t.Run("UnknownVariables", func(t *testing.T) {
		r := graphstoretest.MustWebRun(t, graphstoretest.MustOpenDB(t), 1)
		m, err := run(t, "correlate", "--run", r.Name, "--metrics", "multihop,nope")
		msg := kgeval.ErrorMessage(err)
		if !strings.HasPrefix(msg, "no such variable in this run: nope (it has: ") || strings.Contains(msg, "--") {
			t.Fatalf("message %q, want the unknown pattern without a flag", msg)
		}
		check(t, m, err, kgeval.EINVALID, msg, msg+"; check --metrics")
	})
	t.Run("GateOptions", func(t *testing.T) {
		for _, tc := range []struct {
			name    string
			args    []string
			message string
			advice  string
		}{
			{"GateNoRun", []string{"gate", "--require", "x>1"}, "the run is required", ": give --run (see `kgeval runs list`)"},
			{"GateNoCheck", []string{"gate", "--run", "r"}, "nothing to check: give a requirement or a regression bound", " (--require or --max-regression)"},
			{"GateNoBaseline", []string{"gate", "--run", "r", "--max-regression", "x=1"}, "a regression bound needs a baseline run", " (--max-regression needs --baseline)"},
			{"GateSameRun", []string{"gate", "--run", "r", "--baseline", "r", "--require", "x>1"}, "the baseline r is the run itself: compare two different runs", " (--baseline is --run)"},
			{"CompareNoRun", []string{"compare", "--baseline", "main"}, "the run is required", ": give --run (see `kgeval runs list`)"},
			{"CompareSameRun", []string{"compare", "--run", "r", "--baseline", "r"}, "the baseline r is the run itself: compare two different runs", " (--baseline is --run)"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				m, err := run(t, tc.args...)
				check(t, m, err, kgeval.EINVALID, tc.message, tc.message+tc.advice)
			})
		}
		// A requirement that does not parse is printed after its flag.
		m, err := run(t, "gate", "--run", "r", "--require", "x=>1")
		want := `--require: requirement "x=>1" at column 2: want an operator`
		if got := m.oneLine(err); kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.HasPrefix(got, want) {
			t.Errorf("printed %q, want it to start with %q", got, want)
		}
	})
	t.Run("NotReachable", func(t *testing.T) {
		t.Setenv("KGEVAL_NEO4J_URI", "bolt://127.0.0.1:1")
		t.Setenv("KGEVAL_NEO4J_CONNECT_TIMEOUT", "2s")
		m, err := run(t, "runs", "list")
		msg := "neo4j at bolt://127.0.0.1:1 is not reachable"
		check(t, m, err, kgeval.EUNAVAILABLE, msg, msg+" (is it running? start the bundled one with `kgeval neo4j start` (needs Java 17 or 21) or `make neo4j-start`, or point KGEVAL_NEO4J_URI and KGEVAL_NEO4J_PASSWORD at a Neo4j 5.26 with GDS): ")
	})
	t.Run("NoPassword", func(t *testing.T) {
		t.Setenv("KGEVAL_NEO4J_PASSWORD", "")
		file := filepath.Join(t.TempDir(), "password")
		t.Setenv("KGEVAL_NEO4J_PASSWORD_FILE", file)
		m, err := run(t, "runs", "list")
		msg := "no Neo4j password: set neo4j.password / KGEVAL_NEO4J_PASSWORD"
		check(t, m, err, kgeval.EUNAUTHORIZED, msg, msg+", or start the bundled server with `kgeval neo4j start` or `make neo4j-start` (it writes "+file+")")
	})
}

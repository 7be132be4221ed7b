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
	t.Run("NotReachable", func(t *testing.T) {
		t.Setenv("KGEVAL_NEO4J_URI", "bolt://127.0.0.1:1")
		t.Setenv("KGEVAL_NEO4J_CONNECT_TIMEOUT", "2s")
		m, err := run(t, "runs", "list")
		msg := "neo4j at bolt://127.0.0.1:1 is not reachable"
		check(t, m, err, kgeval.EUNAVAILABLE, msg, msg+" (is it running? try `make neo4j-start`): ")
	})
	t.Run("NoPassword", func(t *testing.T) {
		t.Setenv("KGEVAL_NEO4J_PASSWORD", "")
		file := filepath.Join(t.TempDir(), "password")
		t.Setenv("KGEVAL_NEO4J_PASSWORD_FILE", file)
		m, err := run(t, "runs", "list")
		msg := "no Neo4j password: set neo4j.password / KGEVAL_NEO4J_PASSWORD"
		check(t, m, err, kgeval.EUNAUTHORIZED, msg, msg+", or start the bundled server with `make neo4j-start` (it writes "+file+")")
	})
}

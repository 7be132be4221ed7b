package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis/check"
	"github.com/kgeval/kgeval/configs"
)

// TestExitCode pins the exit status of each error code (docs/OPERATIONS.md
// "Exit status"): 0, 2 and 3 keep their meaning for scripts.
func TestExitCode(t *testing.T) {
	for code, want := range map[string]int{
		kgeval.EINTERNAL: 1, kgeval.EINVALID: 2, kgeval.EUNAVAILABLE: 3, kgeval.ENOTFOUND: 4, kgeval.ECONFLICT: 5,
		kgeval.EUNAUTHORIZED: 6, kgeval.EFORBIDDEN: 7, kgeval.ETOOLARGE: 8, kgeval.ETOOMANY: 9,
	} {
		if got := exitCode(kgeval.Errorf(code, "x")); got != want {
			t.Errorf("%s: exit %d, want %d", code, got, want)
		}
	}
	if got := exitCode(&check.GateError{}); got != 1 {
		t.Errorf("gate failure: exit %d, want 1", got)
	}
	if got := exitCode(io.EOF); got != 1 {
		t.Errorf("error without a code: exit %d, want 1", got)
	}
}

// TestMain_JSONErrors: with KGEVAL_ERROR_FORMAT=json, or a command's own
// boolean --json, the error is one JSON object with its code, message and
// exit status; gate's --json FILE does not ask for it.
func TestMain_JSONErrors(t *testing.T) {
	t.Setenv("KGEVAL_NEO4J_URI", "bolt://127.0.0.1:1")
	t.Setenv("KGEVAL_NEO4J_CONNECT_TIMEOUT", "2s")
	run := func(args ...string) (*Main, error) {
		m := NewMain(io.Discard, io.Discard)
		return m, m.Run(context.Background(), args)
	}
	m, err := run("evaluate", "--dataset", "../../testdata/wikieval50.jsonl", "--limit", "1", "--json", "--metrics", "kg")
	if err == nil || !m.jsonErrors([]string{"evaluate", "--json"}) {
		t.Fatalf("evaluate --json: err %v, json errors %v", err, m.jsonErrors([]string{"evaluate", "--json"}))
	}
	var buf bytes.Buffer
	writeJSONError(&buf, err, m.oneLine(err))
	var got jsonError
	if e := json.Unmarshal(buf.Bytes(), &got); e != nil {
		t.Fatalf("%v: %s", e, buf.String())
	}
	if got.Code != kgeval.EUNAVAILABLE || got.Kind != kgeval.KindUnreachable || got.Exit != 3 || !bytes.Contains([]byte(got.Message), []byte("not reachable")) {
		t.Errorf("JSON error = %+v", got)
	}
	if m, _ := run("gate", "--run", "x", "--json", "/dev/null"); m.jsonErrors([]string{"gate", "--run", "x", "--json", "/dev/null"}) {
		t.Error("gate --json FILE asked for JSON errors")
	}
	if m, _ := run("runs", "list"); m.jsonErrors([]string{"runs", "list"}) {
		t.Error("runs list asked for JSON errors")
	}
	t.Setenv("KGEVAL_ERROR_FORMAT", "json")
	if m, _ := run("runs", "list"); !m.jsonErrors([]string{"runs", "list"}) {
		t.Error("KGEVAL_ERROR_FORMAT=json did not ask for JSON errors")
	}
	buf.Reset()
	writeJSONError(&buf, &check.GateError{}, "gate failed")
	if !bytes.Contains(buf.Bytes(), []byte(`"code":"gate_failed"`)) || !bytes.Contains(buf.Bytes(), []byte(`"exit":1`)) {
		t.Errorf("gate failure: %s", buf.String())
	}
}

// TestConfig_Keys: `kgeval config --keys` prints configs.Keys, one a line.
func TestConfig_Keys(t *testing.T) {
	out, err := runMain(t, "config", "--keys")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(out)
	if want := configs.Keys(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("config --keys = %v, want %v", got, want)
	}
}

package configs

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
)

var updateRunRecord = flag.Bool("update", false, "rewrite testdata/runrecord/old.clean.json (TestCleanRunConfig)")

// secretConfig is the defaults with every secret and server path set, as
// on a server: web users and tokens, passwords, API keys, absolute folders.
func secretConfig(t *testing.T) *Config {
	t.Helper()
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Root, c.StateDir = "/srv/kgeval", "/srv/kgeval/.kgeval"
	c.Neo4j.Password, c.Neo4j.PasswordFile = "neo4j-secret-password", "/srv/kgeval/.kgeval/neo4j/password"
	c.LLM.APIKey, c.Embedding.APIKey = "sk-llm-secret", "sk-embedding-secret"
	c.Embedding.ModelsDir, c.Web.StateDir = "/home/ops/.cache/kgeval/models", "/srv/kgeval/.kgeval/web"
	c.Web.Users = []WebUser{{Name: "admin", PasswordHash: "$2a$10$4Fj2nFYzV7k3b6m9QkR1XeQmO1WZr8p0e5Xx1YcLkQ0Sx0i7rDq5W", Admin: true}}
	c.Web.Tokens = []WebToken{{Name: "ci", SHA256: "9f2c1a1e8d5b4c3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a", Admin: true}}
	return c
}

// secrets are what no run record may hold: the values secretConfig sets
// and testdata/runrecord/old.json holds, the users' and tokens' keys, the
// masked passwords.
var secrets = []string{"$2a$", "9f2c1a1e8d5b4c3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a", "neo4j-secret", "sk-llm-secret",
	"sk-embedding-secret", "***", "/srv/", "/home/", `"PasswordHash"`, `"SHA256"`, `"Password"`, `"PasswordFile"`, `"APIKey"`, `"Users"`,
	`"Tokens"`, `"StateDir"`, `"ModelsDir"`, `"BaseURL"`, `"URI"`, `"Root"`, `"Web"`, `"Neo4j"`}

// noSecrets fails t for each of secrets in record.
func noSecrets(t *testing.T, what, record string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(record, s) {
			t.Errorf("%s holds %q: %s", what, s, record)
		}
	}
}

// readers decodes record as each reader of Run.Config does: the scoring
// settings (graphstore's decodeRunSettings, compare), extraction.method
// (analysis.ExtractionMethod) and llm.cache_only (a dashboard resume).
func readers(t *testing.T, record string) (*kgeval.RunSettings, string, bool) {
	t.Helper()
	var r struct {
		Scoring    *kgeval.RunSettings
		Extraction struct{ Method string }
		LLM        struct{ CacheOnly bool }
	}
	if err := json.Unmarshal([]byte(record), &r); err != nil {
		t.Fatalf("%v in %s", err, record)
	}
	return r.Scoring, r.Extraction.Method, r.LLM.CacheOnly
}

// TestConfig_RunConfig checks what a run records of a server's
// configuration (issue 49, N2: every user's bcrypt hash and token sha256
// were recorded): the allowlist's settings, none of the secrets or paths;
// the readers get the same settings as from the whole configuration; the
// migration leaves it as it is.
func TestConfig_RunConfig(t *testing.T) {
	c := secretConfig(t)
	c.Extraction.Method, c.LLM.CacheOnly = "both", true
	rec := c.RunConfig()
	t.Logf("run record: %d bytes: %s", len(rec), rec)
	noSecrets(t, "RunConfig", rec)
	old, err := json.Marshal(c.Redacted()) // what a run recorded before
	if err != nil {
		t.Fatal(err)
	}
	s, method, cacheOnly := readers(t, rec)
	s0, method0, cacheOnly0 := readers(t, string(old))
	if !reflect.DeepEqual(s, s0) || method != method0 || cacheOnly != cacheOnly0 || method != "both" || !cacheOnly {
		t.Errorf("the readers get %+v %s %v from the record, %+v %s %v from the whole configuration", s, method, cacheOnly, s0, method0, cacheOnly0)
	}
	var top map[string]json.RawMessage
	json.Unmarshal([]byte(rec), &top)
	if keys := slices.Sorted(func(yield func(string) bool) {
		for k := range top {
			if !yield(k) {
				return
			}
		}
	}); !slices.Equal(keys, []string{"Dataset", "Embedding", "Extraction", "LLM", "Scoring"}) {
		t.Errorf("sections %v", keys)
	}
	if again, err := CleanRunConfig(rec); err != nil || again != rec {
		t.Errorf("CleanRunConfig of a new record changed it: %v\n%s\n%s", err, rec, again)
	}
	if clean, err := CleanRunConfig(string(old)); err != nil || clean != rec {
		t.Errorf("the whole configuration cleaned is not the new record: %v\n%s\n%s", err, clean, rec)
	}
}

// TestCleanRunConfig cleans a record made before issue 49 (testdata:
// json.Marshal of Config.Redacted(), with web users, a token and server
// paths): none of them is left, every reader's setting is, a second clean
// changes nothing, and bad records are refused.
func TestCleanRunConfig(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "runrecord", "old.json"))
	if err != nil {
		t.Fatal(err)
	}
	old = bytes.TrimSpace(old)
	for _, s := range []string{"$2a$", "9f2c1a1e8d5b", "/srv/"} {
		if !bytes.Contains(old, []byte(s)) {
			t.Fatalf("testdata holds no %q: not a record from before", s)
		}
	}
	clean, err := CleanRunConfig(string(old))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("old record %d bytes, clean %d bytes", len(old), len(clean))
	noSecrets(t, "the cleaned record", clean)
	golden := filepath.Join("testdata", "runrecord", "old.clean.json")
	if *updateRunRecord {
		os.WriteFile(golden, []byte(clean+"\n"), 0o644)
	}
	if want, err := os.ReadFile(golden); err != nil || strings.TrimSpace(string(want)) != clean {
		t.Errorf("cleaned record differs from %s (go test -run TestCleanRunConfig -update): %v\n%s", golden, err, clean)
	}
	s, method, cacheOnly := readers(t, clean)
	s0, method0, cacheOnly0 := readers(t, string(old))
	if s == nil || !reflect.DeepEqual(s, s0) || method != method0 || cacheOnly != cacheOnly0 {
		t.Errorf("the readers get %+v %s %v from the cleaned record, %+v %s %v from the old", s, method, cacheOnly, s0, method0, cacheOnly0)
	}
	if again, err := CleanRunConfig(clean); err != nil || again != clean {
		t.Errorf("a second clean changed it: %v\n%s", err, again)
	}
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"{}", "{}"},
		{`{"Scoring": {"Verify": "prob"}, "Extraction": {"Method": "rules"}, "Web": {"Users": [{"PasswordHash": "$2a$10$x"}]}}`,
			`{"Scoring":{"Engine":"","Communities":"","Tau":0,"TauRel":0,"Verify":"prob","VerifyPairs":null,"Evidence":"","EvidenceTokens":0,"Delta":0,"StructuralWeight":0,"StructuralCost":0,"Directed":false,"EmptyAsZero":false,"Seed":0,"Pairs":null,"Metrics":null},"Extraction":{"Method":"rules","WindowChars":0,"Grounding":""}}`},
		{`{"scoring": {"tau": 0.6}}`, `{"Scoring":{"Engine":"","Communities":"","Tau":0.6,"TauRel":0,"Verify":"","VerifyPairs":null,"Evidence":"","EvidenceTokens":0,"Delta":0,"StructuralWeight":0,"StructuralCost":0,"Directed":false,"EmptyAsZero":false,"Seed":0,"Pairs":null,"Metrics":null}}`},
	} {
		if got, err := CleanRunConfig(tc.in); err != nil || got != tc.want {
			t.Errorf("CleanRunConfig(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"not json", "[1]", `{"Scoring": 3}`} {
		if _, err := CleanRunConfig(bad); kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("CleanRunConfig(%s): %v, want EINVALID", bad, err)
		}
	}
}

// TestConfig_RunDataset checks what a run records as its dataset (issue
// 49, N6: the server's absolute paths were shown in the console): an
// upload is uploads/ID, a project file its path in the project, any other
// file its base name; stored paths are cleaned the same way.
func TestConfig_RunDataset(t *testing.T) {
	c := secretConfig(t)
	c.Web.StateDir = ".kgeval/web" // relative to Root, as configured by default
	id := strings.Repeat("ab", 16) + ".jsonl"
	for _, tc := range []struct{ path, want string }{
		{"/srv/kgeval/.kgeval/web/uploads/" + id, "uploads/" + id},
		{"/srv/kgeval/testdata/wikieval.jsonl", "testdata/wikieval.jsonl"},
		{"/srv/kgeval/../other/data.jsonl", "data.jsonl"},
		{"/tmp/run-7/data.parquet", "data.parquet"},
		{"/srv/kgeval/.kgeval/web/uploads/sub/" + id, ".kgeval/web/uploads/sub/" + id},
	} {
		if got := c.RunDataset(tc.path); got != tc.want {
			t.Errorf("RunDataset(%s) = %q, want %q", tc.path, got, tc.want)
		}
		if got := c.CleanRunDataset(tc.path); got != tc.want {
			t.Errorf("CleanRunDataset(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
	for _, tc := range []struct{ stored, want string }{
		{"", ""},
		{"uploads/" + id, "uploads/" + id},
		{"testdata/wikieval.jsonl", "testdata/wikieval.jsonl"},
		{"../../home/ops/data.jsonl", "data.jsonl"},
	} {
		if got := c.CleanRunDataset(tc.stored); got != tc.want {
			t.Errorf("CleanRunDataset(%s) = %q, want %q", tc.stored, got, tc.want)
		}
	}
	c.Root = ""
	if got := c.RunDataset("/srv/kgeval/testdata/wikieval.jsonl"); got != "wikieval.jsonl" {
		t.Errorf("without a project: %q, want the base name", got)
	}
	if id2, ok := kgeval.UploadOf(c.RunDataset(filepath.Join(c.UploadsDir(), id))); !ok || id2 != id {
		t.Errorf("UploadOf(RunDataset(an upload)) = %q %v", id2, ok)
	}
}

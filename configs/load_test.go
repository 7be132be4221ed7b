package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
)

func TestLoad(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		c, err := Load("", nil)
		if err != nil {
			t.Fatal(err)
		}
		p := c.GraphParams()
		if p != kgeval.DefaultGraphParams() {
			t.Errorf("graph params %+v, want the SPEC defaults %+v", p, kgeval.DefaultGraphParams())
		}
		if len(c.Scoring.Pairs) != 4 || c.Scoring.Pairs[1] != kgeval.DefaultPairs()[1] {
			t.Errorf("pairs %+v", c.Scoring.Pairs)
		}
		if c.Scoring.Engine != "gds" || c.Neo4j.Database != "neo4j" || c.LLM.Concurrency < 1 {
			t.Errorf("config %+v", c)
		}
		if c.Web.CypherMaxBytes != 2<<20 || c.Web.UploadMaxBytes != 32<<20 || len(c.Web.TrustedProxies) != 0 || !c.Web.Auth || c.Web.MinN != 10 ||
			c.Web.Thresholds["support"] != 0.5 || c.Web.Thresholds["contradiction"] != 0 {
			t.Errorf("web %+v", c.Web)
		}
		if c.Dataset.MaxRecords != 100000 || c.Dataset.MaxDecodedBytes != 64<<20 || c.Web.UploadMemoryBytes != 512<<20 ||
			c.Dataset.MaxDepth != 32 || c.Dataset.MaxValues != 20000 || c.Dataset.MaxFileValues != 2000000 {
			t.Errorf("upload limits: dataset %+v, web.upload_memory_bytes %d", c.Dataset, c.Web.UploadMemoryBytes)
		}
		if c.Web.UploadQuotaFiles != 20 || c.Web.UploadQuotaBytes != 256<<20 || c.Web.UploadCleanupAge != 24*time.Hour || c.Web.UploadCleanupInterval != 10*time.Minute {
			t.Errorf("upload quota and cleanup: %d files, %d bytes, age %v, every %v", c.Web.UploadQuotaFiles, c.Web.UploadQuotaBytes, c.Web.UploadCleanupAge, c.Web.UploadCleanupInterval)
		}
	})
	t.Run("FileEnvFlag", func(t *testing.T) {
		t.Setenv("KGEVAL_SCORING_DELTA", "0.3")
		t.Setenv("KGEVAL_SCORING_TAU", "0.75") // the file says 0.8; the environment wins
		c, err := Load("testdata/custom.yaml", nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Scoring.Tau != 0.75 || c.Scoring.Delta != 0.3 || c.Neo4j.Database != "other" || len(c.Scoring.Pairs) != 1 {
			t.Errorf("tau %v delta %v db %q pairs %+v", c.Scoring.Tau, c.Scoring.Delta, c.Neo4j.Database, c.Scoring.Pairs)
		}
	})
	t.Run("OpenAIEnv", func(t *testing.T) {
		t.Setenv("KGEVAL_LLM_BASE_URL", "")
		t.Setenv("OPENAI_BASE_URL", "https://example.invalid/v1")
		t.Setenv("OPENAI_API_KEY", "sk-test")
		c, err := Load("testdata/custom.yaml", nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.LLM.APIKey != "sk-test" {
			t.Errorf("api key %q", c.LLM.APIKey)
		}
	})
	bad := []struct {
		name, env, value, file, want string
	}{
		{"TauNotNumber", "KGEVAL_SCORING_TAU", "abc", "", "config: scoring.tau = abc: not a valid number"},
		{"TauRange", "KGEVAL_SCORING_TAU", "1.5", "", "config: scoring.tau = 1.5: a cosine threshold must be in [0, 1]"},
		{"DeltaNegative", "KGEVAL_SCORING_DELTA", "-1", "", "config: scoring.delta = -1: must be >= 0"},
		{"Engine", "KGEVAL_SCORING_ENGINE", "spark", "", "config: scoring.engine = spark: want gds or native"},
		{"Communities", "KGEVAL_SCORING_COMMUNITIES", "louvain", "", "config: scoring.communities = louvain: want louvain-per-graph, batch or leiden-per-graph"},
		{"EvidenceAggregate", "KGEVAL_SCORING_EVIDENCE_AGGREGATE", "median", "", "config: scoring.evidence_aggregate = median: must be one of max, mean, top2"},
		{"AtomicWords", "KGEVAL_SCORING_ATOMIC_WORDS", "-1", "", "config: scoring.atomic_words = -1: must be >= 0 (0: claims are not split)"},
		{"URI", "KGEVAL_NEO4J_URI", "http://x", "", "config: neo4j.uri = http://x"},
		{"Timeout", "KGEVAL_NEO4J_QUERY_TIMEOUT", "soon", "", "config: neo4j.query_timeout = soon: not a valid duration"},
		{"Concurrency", "KGEVAL_LLM_CONCURRENCY", "0", "", "config: llm.concurrency = 0: must be at least 1"},
		{"Metric", "KGEVAL_SCORING_METRICS", "multihop,bogus", "", "config: scoring.metrics = bogus: unknown metric"},
		{"Provider", "KGEVAL_EMBEDDING_PROVIDER", "magic", "", "config: embedding.provider = magic"},
		{"CypherMaxBytes", "KGEVAL_WEB_CYPHER_MAX_BYTES", "10", "", "config: web.cypher_max_bytes = 10: must be at least 1024"},
		{"UploadMaxBytes", "KGEVAL_WEB_UPLOAD_MAX_BYTES", "10", "", "config: web.upload_max_bytes = 10: must be between 1024 and 1073741824"},
		{"TrustedProxy", "KGEVAL_WEB_TRUSTED_PROXIES", "proxy.example", "", "config: web.trusted_proxies[0] = proxy.example: want an IP address or a CIDR"},
		{"ThresholdMetric", "", "", "testdata/bad_threshold_metric.yaml", "config: web.thresholds.bogus = 0.5: not a KG metric"},
		{"ThresholdRange", "", "", "testdata/bad_threshold_range.yaml", "config: web.thresholds.support = 1.5: must be in [0, 1]"},
		{"MinN", "KGEVAL_WEB_MIN_N", "1", "", "config: web.min_n = 1: must be at least 2"},
		{"UploadQuotaFiles", "KGEVAL_WEB_UPLOAD_QUOTA_FILES", "0", "", "config: web.upload_quota_files = 0: must be at least 1"},
		{"UploadQuotaBytes", "KGEVAL_WEB_UPLOAD_QUOTA_BYTES", "100", "", "config: web.upload_quota_bytes = 100: must be at least 1024"},
		{"UploadCleanupAge", "KGEVAL_WEB_UPLOAD_CLEANUP_AGE", "10s", "", "config: web.upload_cleanup_age = 10s: must be at least 1m"},
		{"UploadCleanupInterval", "KGEVAL_WEB_UPLOAD_CLEANUP_INTERVAL", "often", "", "config: web.upload_cleanup_interval = often: not a valid duration"},
		{"MaxRecords", "KGEVAL_DATASET_MAX_RECORDS", "-1", "", "config: dataset.max_records = -1: must be >= 0 (0: no cap)"},
		{"MaxDecodedBytes", "KGEVAL_DATASET_MAX_DECODED_BYTES", "lots", "", "config: dataset.max_decoded_bytes = lots: not a valid integer"},
		{"MaxDepth", "KGEVAL_DATASET_MAX_DEPTH", "1", "", "config: dataset.max_depth = 1: must be 0 (no cap) or at least 2 (a record and its fields)"},
		{"MaxValues", "KGEVAL_DATASET_MAX_VALUES", "-5", "", "config: dataset.max_values = -5: must be >= 0 (0: no cap)"},
		{"MaxFileValues", "KGEVAL_DATASET_MAX_FILE_VALUES", "-1", "", "config: dataset.max_file_values = -1: must be >= 0 (0: no cap)"},
		{"UploadMemoryBytes", "KGEVAL_WEB_UPLOAD_MEMORY_BYTES", "1048576", "", "config: web.upload_memory_bytes = 1048576: must be at least 67108864 (64 MiB)"},
		{"SamePair", "", "", "testdata/bad_pairs.yaml", "config: scoring.pairs[0] = p1: input and context must be different texts"},
		{"BrokenFile", "", "", "testdata/broken.yaml", "config file testdata/broken.yaml"},
		{"MissingFile", "", "", "testdata/nope.yaml", "config file testdata/nope.yaml"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv(tc.env, tc.value)
			}
			_, err := Load(tc.file, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if kgeval.ErrorCode(err) != kgeval.EINVALID || strings.Contains(err.Error(), "\n") {
				t.Errorf("want a one-line EINVALID error, got %q (%s)", err.Error(), kgeval.ErrorCode(err))
			}
		})
	}
}

// TestLoad_Root: the project root and the state directory are found once,
// when the configuration loads, and relative paths are under the root.
func TestLoad_Root(t *testing.T) {
	proj := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proj, "configs", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, "configs", "kgeval.yaml")
	if err := os.WriteFile(file, []byte("log:\n  level: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KGEVAL_HOME", "")
	t.Setenv("KGEVAL_STATE_DIR", "")
	for _, tc := range []struct {
		name, file, wd, root string
	}{
		{"the file's project", file, t.TempDir(), proj},
		{"above the working directory", "", filepath.Join(proj, "configs", "sub"), proj},
		{"none", "", t.TempDir(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.wd)
			c, err := Load(tc.file, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.Root != tc.root {
				t.Fatalf("Root = %q, want %q", c.Root, tc.root)
			}
			if tc.root == "" {
				if c.Path("x") != "x" || !strings.HasSuffix(c.StateDir, filepath.Join(".local", "share", "kgeval")) {
					t.Fatalf("without a root: Path(x) = %q, StateDir = %q", c.Path("x"), c.StateDir)
				}
				return
			}
			if want := filepath.Join(proj, ".kgeval"); c.StateDir != want {
				t.Fatalf("StateDir = %q, want %q", c.StateDir, want)
			}
			if want := filepath.Join(proj, ".kgeval", "web"); c.Path(c.Web.StateDir) != want {
				t.Fatalf("Path(web.state_dir) = %q, want %q", c.Path(c.Web.StateDir), want)
			}
		})
	}
	t.Setenv("KGEVAL_HOME", "/elsewhere")
	t.Setenv("KGEVAL_STATE_DIR", "/state")
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Root != "/elsewhere" || c.StateDir != "/state" {
		t.Fatalf("KGEVAL_HOME, KGEVAL_STATE_DIR: Root %q, StateDir %q", c.Root, c.StateDir)
	}
}

// TestModelUses: the bundled defaults ask the model nothing (issue 50:
// rules extraction, no claim check, encoder metrics only), so doctor does
// not want a model server; each setting that does ask it is named.
func TestModelUses(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if uses := c.ModelUses(); len(uses) != 0 {
		t.Fatalf("the defaults ask the model: %v", uses)
	}
	c.Extraction.Method, c.Scoring.Verify, c.Scoring.Metrics = "both", "cascade", []string{"bert_score_f1", "ragas"}
	got := strings.Join(c.ModelUses(), "; ")
	for _, want := range []string{"extraction.method both", "scoring.verify cascade", "the LLM-judged metrics answer_class"} {
		if !strings.Contains(got, want) {
			t.Errorf("ModelUses = %q, want %q in it", got, want)
		}
	}
	if strings.Contains(got, "bert_score_f1") {
		t.Errorf("ModelUses = %q names an encoder metric", got)
	}
}

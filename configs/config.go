// Package configs holds kgeval's configuration: the Config the commands
// run with, its validation, and its defaults (kgeval.yaml, embedded in the
// binary so that the defaults a user reads are exactly the ones in force).
// Load reads the defaults, a file, the environment and the flags into a Config.
package configs

import (
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/metricreg"
	"gopkg.in/yaml.v3"
)

// Config is kgeval's whole configuration. Its defaults are configs/kgeval.yaml.
type Config struct {
	// Root is the project's directory, found once by Load (KGEVAL_HOME, the
	// configuration file's project, or configs/kgeval.yaml at or above the
	// working directory; "" for none): relative paths are under it (Path).
	Root string `mapstructure:"-" yaml:"-"`
	// StateDir is where the bundled Neo4j keeps its jars, store and
	// password: KGEVAL_STATE_DIR, else Root/.kgeval, else
	// ~/.local/share/kgeval (a binary installed without the repository).
	StateDir string `mapstructure:"-" yaml:"-"`

	Neo4j struct {
		URI            string        `mapstructure:"uri"`
		User           string        `mapstructure:"user"`
		Password       string        `mapstructure:"password"`
		PasswordFile   string        `mapstructure:"password_file"`
		Database       string        `mapstructure:"database"`
		ConnectTimeout time.Duration `mapstructure:"connect_timeout"`
		QueryTimeout   time.Duration `mapstructure:"query_timeout"`
		MaxConnections int           `mapstructure:"max_connections"`
	} `mapstructure:"neo4j"`
	LLM struct {
		BaseURL     string        `mapstructure:"base_url"`
		Model       string        `mapstructure:"model"`
		APIKey      string        `mapstructure:"api_key"`
		Timeout     time.Duration `mapstructure:"timeout"`
		MaxRetries  int           `mapstructure:"max_retries"`
		Concurrency int           `mapstructure:"concurrency"`
		Temperature float64       `mapstructure:"temperature"`
		MaxTokens   int           `mapstructure:"max_tokens"`
		// ContextTokens is the endpoint's context in tokens: a longer
		// request fails before it is sent, and the claim verifier cuts its
		// evidence to fit.
		ContextTokens int  `mapstructure:"context_tokens"`
		Required      bool `mapstructure:"required"`
		// CacheOnly refuses every model request the cache cannot answer
		// (evaluate --cache-only): a replay from a cache snapshot.
		CacheOnly bool `mapstructure:"cache_only"`
	} `mapstructure:"llm"`
	Embedding struct {
		Provider  string `mapstructure:"provider"`
		Model     string `mapstructure:"model"`
		ModelsDir string `mapstructure:"models_dir"`
		BaseURL   string `mapstructure:"base_url"`
		APIKey    string `mapstructure:"api_key"`
		BatchSize int    `mapstructure:"batch_size"`
	} `mapstructure:"embedding"`
	// Scoring is recorded with every run (kgeval.Run.Settings).
	Scoring kgeval.RunSettings `mapstructure:"scoring"`
	Dataset struct {
		MaxTextChars  int  `mapstructure:"max_text_chars"`
		MaxLabelChars int  `mapstructure:"max_label_chars"`
		Strict        bool `mapstructure:"strict"`
		// MaxRecords and MaxDecodedBytes bound what a dataset file may
		// expand to: its records, and its bytes decoded (a
		// Parquet file's pages decompressed, its rows' values). 0: no cap.
		MaxRecords      int   `mapstructure:"max_records"`
		MaxDecodedBytes int64 `mapstructure:"max_decoded_bytes"`
		// MaxDepth and MaxValues bound a record's structure, MaxFileValues
		// the values of all a file's records (dataset.Options).
		// 0: no cap.
		MaxDepth      int   `mapstructure:"max_depth"`
		MaxValues     int   `mapstructure:"max_values"`
		MaxFileValues int64 `mapstructure:"max_file_values"`
	} `mapstructure:"dataset"`
	Extraction struct {
		Method      string `mapstructure:"method"`
		WindowChars int    `mapstructure:"window_chars"`
		Grounding   string `mapstructure:"grounding"`
	} `mapstructure:"extraction"`
	Server struct {
		Addr string `mapstructure:"addr"`
	} `mapstructure:"server"`
	Log struct {
		Level string `mapstructure:"level"`
	} `mapstructure:"log"`
	// Web configures `kgeval serve` (see serve.go; the listen address is server.addr).
	Web WebConfig `mapstructure:"web"`
}

// GraphParams returns the scoring parameters of c.
func (c *Config) GraphParams() kgeval.GraphParams { return c.Scoring.GraphParams() }

// EncoderDir is the local encoder's model directory:
// embedding.models_dir/embedding.model (where scripts/fetch-minilm.sh puts
// all-MiniLM-L6-v2).
func (c *Config) EncoderDir() string { return filepath.Join(c.Embedding.ModelsDir, c.Embedding.Model) }

// DatasetOptions are the dataset limits of c (text sizes, records,
// decoded bytes, structure) that dataset.Load reads a file with.
func (c *Config) DatasetOptions() dataset.Options {
	return dataset.Options{MaxTextChars: c.Dataset.MaxTextChars, MaxLabelChars: c.Dataset.MaxLabelChars,
		MaxRecords: c.Dataset.MaxRecords, MaxDecodedBytes: c.Dataset.MaxDecodedBytes,
		MaxDepth: c.Dataset.MaxDepth, MaxValues: c.Dataset.MaxValues, MaxFileValues: c.Dataset.MaxFileValues}
}

// Redacted returns a copy of c without secrets, for run records and
// `kgeval config`.
func (c *Config) Redacted() Config {
	r := *c
	r.Neo4j.Password = redact(r.Neo4j.Password)
	r.LLM.APIKey = redact(r.LLM.APIKey)
	r.Embedding.APIKey = redact(r.Embedding.APIKey)
	return r
}

// WriteYAML writes c without its secrets (Redacted) as YAML indented by
// two spaces: what `kgeval config` prints.
func (c *Config) WriteYAML(w io.Writer) error {
	r := c.Redacted()
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	return enc.Encode(&r)
}

func redact(s string) string {
	if s == "" {
		return ""
	}
	return "***"
}

// Validate checks every value; the error names the key and the bad value.
// badValue returns the error for a bad configuration value: it names the
// key and the value.
type badValue func(key string, val any, why string) error

// Validate checks every value; the error names the key and the bad value.
// The checks run in a fixed order, so that a configuration with several bad
// values always reports the same one.
func (c *Config) Validate() error {
	bad := func(key string, val any, why string) error {
		return kgeval.Errorf(kgeval.EINVALID, "config: %s = %v: %s", key, val, why)
	}
	for _, check := range []func(badValue) error{c.validateNeo4j, c.validateLLM, c.validateEmbedding, c.validateScoring,
		c.validateClaimChecks, c.validateExtraction, c.validateDatasetCaps, c.Web.validate, c.validateLog} {
		if err := check(bad); err != nil {
			return err
		}
	}
	return nil
}

// validateNeo4j checks the neo4j section.
func (c *Config) validateNeo4j(bad badValue) error {
	if u, err := url.Parse(c.Neo4j.URI); err != nil || u.Host == "" || !strings.Contains("bolt neo4j bolt+s neo4j+s bolt+ssc neo4j+ssc", u.Scheme) {
		return bad("neo4j.uri", c.Neo4j.URI, "want bolt://host:port or neo4j://host:port")
	}
	if c.Neo4j.Database == "" {
		return bad("neo4j.database", `""`, "must not be empty")
	}
	if c.Neo4j.ConnectTimeout <= 0 {
		return bad("neo4j.connect_timeout", c.Neo4j.ConnectTimeout, "must be positive")
	}
	if c.Neo4j.QueryTimeout <= 0 {
		return bad("neo4j.query_timeout", c.Neo4j.QueryTimeout, "must be positive")
	}
	return nil
}

// validateLLM checks the llm section.
func (c *Config) validateLLM(bad badValue) error {
	if c.LLM.BaseURL != "" {
		if u, err := url.Parse(c.LLM.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad("llm.base_url", c.LLM.BaseURL, "want http(s)://host[:port]/v1")
		}
	}
	if c.LLM.Concurrency < 1 {
		return bad("llm.concurrency", c.LLM.Concurrency, "must be at least 1")
	}
	if c.LLM.MaxRetries < 0 {
		return bad("llm.max_retries", c.LLM.MaxRetries, "must be >= 0")
	}
	if c.LLM.MaxTokens < 64 {
		return bad("llm.max_tokens", c.LLM.MaxTokens, "must be at least 64")
	}
	if c.LLM.Timeout <= 0 {
		return bad("llm.timeout", c.LLM.Timeout, "must be positive")
	}
	if c.LLM.ContextTokens <= 0 {
		return bad("llm.context_tokens", c.LLM.ContextTokens, "must be positive")
	}
	return nil
}

// validateEmbedding checks the embedding section.
func (c *Config) validateEmbedding(bad badValue) error {
	switch c.Embedding.Provider {
	case "local", "openai":
	default:
		return bad("embedding.provider", c.Embedding.Provider, "want local or openai")
	}
	if c.Embedding.BatchSize < 1 {
		return bad("embedding.batch_size", c.Embedding.BatchSize, "must be at least 1")
	}
	return nil
}

// validateScoring checks the scoring engine, its thresholds, the pairs and the metrics.
func (c *Config) validateScoring(bad badValue) error {
	switch c.Scoring.Engine {
	case "gds", "native":
	default:
		return bad("scoring.engine", c.Scoring.Engine, "want gds or native")
	}
	switch c.Scoring.Communities {
	case kgeval.CommunitiesLouvainPerGraph, kgeval.CommunitiesBatch, kgeval.CommunitiesLeidenPerGraph:
	default:
		return bad("scoring.communities", c.Scoring.Communities, "want louvain-per-graph, batch or leiden-per-graph")
	}
	for _, p := range []struct {
		key string
		v   float64
	}{{"scoring.tau", c.Scoring.Tau}, {"scoring.delta", c.Scoring.Delta},
		{"scoring.structural_weight", c.Scoring.StructuralWeight}, {"scoring.structural_cost", c.Scoring.StructuralCost}} {
		if p.v < 0 || p.v != p.v {
			return bad(p.key, p.v, "must be >= 0")
		}
	}
	if c.Scoring.Tau > 1 {
		return bad("scoring.tau", c.Scoring.Tau, "a cosine threshold must be in [0, 1]")
	}
	if len(c.Scoring.Pairs) == 0 {
		return bad("scoring.pairs", "[]", "at least one pair is needed")
	}
	names := map[string]bool{}
	for i, p := range c.Scoring.Pairs {
		key := fmt.Sprintf("scoring.pairs[%d]", i)
		if p.Name == "" || names[p.Name] {
			return bad(key+".name", fmt.Sprintf("%q", p.Name), "must be non-empty and unique")
		}
		names[p.Name] = true
		if !p.Input.Valid() {
			return bad(key+".input", p.Input, "want question, answer, reference or contexts")
		}
		if !p.Context.Valid() {
			return bad(key+".context", p.Context, "want question, answer, reference or contexts")
		}
		if p.Input == p.Context {
			return bad(key, p.Name, "input and context must be different texts")
		}
	}
	for _, m := range c.Scoring.Metrics {
		if _, unknown := metricreg.ExpandMetrics([]string{m}); len(unknown) > 0 {
			return bad("scoring.metrics", m, "unknown metric (known: "+strings.Join(metricreg.KnownMetrics(), ", ")+")")
		}
	}
	return nil
}

// validateClaimChecks checks the settings of the claim checks: the text cap, the relation
// threshold, the verifier and the evidence.
func (c *Config) validateClaimChecks(bad badValue) error {
	if c.Dataset.MaxTextChars < 0 {
		return bad("dataset.max_text_chars", c.Dataset.MaxTextChars, "must be >= 0")
	}
	if c.Scoring.TauRel < -1 || c.Scoring.TauRel > 1 {
		return bad("scoring.tau_rel", c.Scoring.TauRel, "must be a cosine in [-1, 1]")
	}
	switch c.Scoring.Verify {
	case "off", "llm", "prob", "cascade":
	default:
		return bad("scoring.verify", c.Scoring.Verify, "must be off, llm, prob or cascade")
	}
	for _, f := range c.Scoring.VerifyForms {
		if !slices.Contains(kgeval.ClaimForms, f) {
			return bad("scoring.verify_forms", f, "each must be one of "+strings.Join(kgeval.ClaimForms, ", "))
		}
	}
	switch c.Scoring.Evidence {
	case "graph", "cosine", "whole":
	default:
		return bad("scoring.evidence", c.Scoring.Evidence, "must be graph, cosine or whole")
	}
	if a := c.Scoring.EvidenceAggregate; a != "" && !slices.Contains(kgeval.EvidenceAggregates, a) {
		return bad("scoring.evidence_aggregate", a, "must be one of "+strings.Join(kgeval.EvidenceAggregates, ", "))
	}
	if c.Scoring.AtomicWords < 0 {
		return bad("scoring.atomic_words", c.Scoring.AtomicWords, "must be >= 0 (0: claims are not split)")
	}
	if c.Scoring.EvidenceTokens < 64 {
		return bad("scoring.evidence_tokens", c.Scoring.EvidenceTokens, "must be >= 64 (estimated tokens)")
	}
	return nil
}

// validateExtraction checks the extraction section.
func (c *Config) validateExtraction(bad badValue) error {
	if c.Extraction.WindowChars < 0 {
		return bad("extraction.window_chars", c.Extraction.WindowChars, "must be >= 0 (0: whole texts)")
	}
	switch c.Extraction.Method {
	case "llm", "rules", "both":
	default:
		return bad("extraction.method", c.Extraction.Method, "must be llm, rules or both")
	}
	switch c.Extraction.Grounding {
	case "drop", "keep", "off":
	default:
		return bad("extraction.grounding", c.Extraction.Grounding, "must be drop, keep or off")
	}
	return nil
}

// validateDatasetCaps checks the dataset caps on labels, records, decoded
// bytes and structure.
func (c *Config) validateDatasetCaps(bad badValue) error {
	if c.Dataset.MaxLabelChars < 0 {
		return bad("dataset.max_label_chars", c.Dataset.MaxLabelChars, "must be >= 0")
	}
	if c.Dataset.MaxRecords < 0 {
		return bad("dataset.max_records", c.Dataset.MaxRecords, "must be >= 0 (0: no cap)")
	}
	if c.Dataset.MaxDecodedBytes < 0 {
		return bad("dataset.max_decoded_bytes", c.Dataset.MaxDecodedBytes, "must be >= 0 (0: no cap)")
	}
	if c.Dataset.MaxDepth < 0 || c.Dataset.MaxDepth == 1 {
		return bad("dataset.max_depth", c.Dataset.MaxDepth, "must be 0 (no cap) or at least 2 (a record and its fields)")
	}
	if c.Dataset.MaxValues < 0 {
		return bad("dataset.max_values", c.Dataset.MaxValues, "must be >= 0 (0: no cap)")
	}
	if c.Dataset.MaxFileValues < 0 {
		return bad("dataset.max_file_values", c.Dataset.MaxFileValues, "must be >= 0 (0: no cap)")
	}
	return nil
}

// validateLog checks the log section.
func (c *Config) validateLog(bad badValue) error {
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return bad("log.level", c.Log.Level, "want debug, info, warn or error")
	}
	return nil
}

// WebConfig is the web: section of the configuration.
type WebConfig struct {
	Auth           bool          `mapstructure:"auth"`
	Users          []WebUser     `mapstructure:"users"`
	Tokens         []WebToken    `mapstructure:"tokens"`
	StateDir       string        `mapstructure:"state_dir"`
	SecureCookies  bool          `mapstructure:"secure_cookies"`
	SessionTTL     time.Duration `mapstructure:"session_ttl"`
	TrustedProxies []string      `mapstructure:"trusted_proxies"` // the only peers whose X-Forwarded-For and -Proto count
	CypherTimeout  time.Duration `mapstructure:"cypher_timeout"`
	CypherMaxRows  int           `mapstructure:"cypher_max_rows"`
	CypherMaxBytes int           `mapstructure:"cypher_max_bytes"`
	// Thresholds are the pass marks of KG metrics on the run page's triage
	// (a value passes when >= the mark, <= for a lower-is-better metric);
	// a metric not named keeps its default (0.5, 0 for contradiction).
	Thresholds map[string]float64 `mapstructure:"thresholds"`
	// MinN is the fewest samples under which the dashboard hides p-values
	// and correlations, saying why.
	MinN int `mapstructure:"min_n"`
	// UploadMaxBytes caps a dataset uploaded on the dashboard's jobs page.
	UploadMaxBytes int64 `mapstructure:"upload_max_bytes"`
	// UploadMemoryBytes is the memory the uploads being read at once
	// share: each reserves what it may hold within the dataset limits
	// (dataset.MemoryBound) or waits for it.
	UploadMemoryBytes int64 `mapstructure:"upload_memory_bytes"`

	// The upload quota and cleanup: what one user (or token)
	// may keep uploaded at once, and when an upload that no unfinished run
	// needs is removed (checked every UploadCleanupInterval while serving).
	UploadQuotaFiles      int           `mapstructure:"upload_quota_files"`
	UploadQuotaBytes      int64         `mapstructure:"upload_quota_bytes"`
	UploadCleanupAge      time.Duration `mapstructure:"upload_cleanup_age"`
	UploadCleanupInterval time.Duration `mapstructure:"upload_cleanup_interval"`
}

// WebUser is a dashboard user with the bcrypt hash of their password; an
// admin may also list and revoke sessions.
type WebUser struct {
	Name         string `mapstructure:"name"`
	PasswordHash string `mapstructure:"password_hash"`
	Admin        bool   `mapstructure:"admin"`
}

// WebToken is an API token, stored as the hex sha256 of the token.
type WebToken struct {
	Name   string `mapstructure:"name"`
	SHA256 string `mapstructure:"sha256"`
	Admin  bool   `mapstructure:"admin"`
}

// Accounts are the users' password hashes by name and the tokens' names
// by lower-case hex sha256, as the dashboard's auth looks them up, and who
// is an admin ("user:NAME", "token:NAME").
func (w *WebConfig) Accounts() (users, tokens map[string]string, admins map[string]bool) {
	users, tokens, admins = map[string]string{}, map[string]string{}, map[string]bool{}
	for _, u := range w.Users {
		users[u.Name] = u.PasswordHash
		admins["user:"+u.Name] = u.Admin
	}
	for _, t := range w.Tokens {
		tokens[strings.ToLower(t.SHA256)] = t.Name
		admins["token:"+t.Name] = t.Admin
	}
	return users, tokens, admins
}

func (w *WebConfig) validate(bad badValue) error {
	names := map[string]bool{}
	for i, u := range w.Users {
		key := fmt.Sprintf("web.users[%d]", i)
		if u.Name == "" || names[u.Name] {
			return bad(key+".name", fmt.Sprintf("%q", u.Name), "must be non-empty and unique")
		}
		names[u.Name] = true
		if !strings.HasPrefix(u.PasswordHash, "$2") || len(u.PasswordHash) != 60 {
			return bad(key+".password_hash", "(hidden)", "want a bcrypt hash ($2a$...), see `kgeval serve hash-password`")
		}
	}
	for i, t := range w.Tokens {
		key := fmt.Sprintf("web.tokens[%d]", i)
		if t.Name == "" {
			return bad(key+".name", `""`, "must not be empty")
		}
		if b, err := hex.DecodeString(t.SHA256); err != nil || len(b) != 32 {
			return bad(key+".sha256", t.SHA256, "want 64 hex digits, see `kgeval serve new-token`")
		}
	}
	if w.StateDir == "" {
		return bad("web.state_dir", `""`, "must not be empty")
	}
	if w.SessionTTL <= 0 {
		return bad("web.session_ttl", w.SessionTTL, "must be positive")
	}
	if w.CypherTimeout <= 0 {
		return bad("web.cypher_timeout", w.CypherTimeout, "must be positive")
	}
	if w.CypherMaxRows < 1 {
		return bad("web.cypher_max_rows", w.CypherMaxRows, "must be at least 1")
	}
	if w.CypherMaxBytes < 1024 {
		return bad("web.cypher_max_bytes", w.CypherMaxBytes, "must be at least 1024")
	}
	for _, m := range slices.Sorted(maps.Keys(w.Thresholds)) {
		v := w.Thresholds[m]
		info, ok := metricreg.LookupMetric(m)
		if !ok || info.Family != metricreg.FamilyKG {
			return bad("web.thresholds."+m, v, "not a KG metric (want one of "+strings.Join(metricreg.KGMetricNames, ", ")+")")
		}
		if v < info.Lo || v > info.Hi || v != v {
			return bad("web.thresholds."+m, v, fmt.Sprintf("must be in [%g, %g]", info.Lo, info.Hi))
		}
	}
	if w.MinN < 2 {
		return bad("web.min_n", w.MinN, "must be at least 2")
	}
	if w.UploadMaxBytes < 1024 || w.UploadMaxBytes > 1<<30 {
		return bad("web.upload_max_bytes", w.UploadMaxBytes, "must be between 1024 and 1073741824")
	}
	if w.UploadMemoryBytes < 64<<20 {
		return bad("web.upload_memory_bytes", w.UploadMemoryBytes, "must be at least 67108864 (64 MiB)")
	}
	for i, p := range w.TrustedProxies {
		if net.ParseIP(p) == nil {
			if _, _, err := net.ParseCIDR(p); err != nil {
				return bad(fmt.Sprintf("web.trusted_proxies[%d]", i), p, "want an IP address or a CIDR")
			}
		}
	}
	return w.validateUploadQuota(bad)
}

// validateUploadQuota checks the upload quota and cleanup keys.
func (w *WebConfig) validateUploadQuota(bad badValue) error {
	if w.UploadQuotaFiles < 1 {
		return bad("web.upload_quota_files", w.UploadQuotaFiles, "must be at least 1")
	}
	if w.UploadQuotaBytes < 1024 {
		return bad("web.upload_quota_bytes", w.UploadQuotaBytes, "must be at least 1024")
	}
	if w.UploadCleanupAge < time.Minute {
		return bad("web.upload_cleanup_age", w.UploadCleanupAge, "must be at least 1m")
	}
	if w.UploadCleanupInterval < time.Second {
		return bad("web.upload_cleanup_interval", w.UploadCleanupInterval, "must be at least 1s")
	}
	return nil
}

// CheckValue decodes the value raw of one configuration key ("llm.timeout")
// on its own, so that a bad value is reported with the key's name and the
// value, not as a wall of mapstructure text. An unknown key is not checked.
// Errors: EINVALID.
func CheckValue(key string, raw any) error {
	field, ok := fieldByKey(reflect.ValueOf(&Config{}).Elem(), strings.Split(key, "."))
	if !ok {
		return nil
	}
	dst := reflect.New(field.Type())
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		Result: dst.Interface(), WeaklyTypedInput: true,
		DecodeHook: mapstructure.ComposeDecodeHookFunc(mapstructure.StringToTimeDurationHookFunc(), mapstructure.StringToSliceHookFunc(",")),
	})
	if err != nil {
		return err
	}
	if err := dec.Decode(raw); err != nil {
		return kgeval.Errorf(kgeval.EINVALID, "config: %s = %v: not a valid %s", key, raw, kindName(field.Type()))
	}
	return nil
}

func kindName(t reflect.Type) string {
	if t == reflect.TypeOf(time.Duration(0)) {
		return "duration (e.g. 30s, 2m)"
	}
	switch t.Kind() {
	case reflect.Float64:
		return "number"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Bool:
		return "boolean (true/false)"
	case reflect.Slice:
		return "list"
	}
	return t.Kind().String()
}

func fieldByKey(v reflect.Value, path []string) (reflect.Value, bool) {
	if len(path) == 0 {
		return v, true
	}
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Tag.Get("mapstructure") == path[0] {
			return fieldByKey(v.Field(i), path[1:])
		}
	}
	return reflect.Value{}, false
}

// ModelUses names the settings of c that send requests to the model
// (llm.*): model extraction, a claim check other than off on a pair it
// applies to, and the LLM-judged metrics. None: the configuration scores
// without a model (doctor does not want one, evaluate does not probe it).
func (c Config) ModelUses() []string {
	var uses []string
	if m := c.Extraction.Method; m != "rules" {
		uses = append(uses, "extraction.method "+m)
	}
	if v := c.Scoring.Verify; v != "off" {
		for _, p := range c.Scoring.Pairs {
			if slices.Contains(c.Scoring.VerifyPairs, p.Name) {
				uses = append(uses, "scoring.verify "+v)
				break
			}
		}
	}
	var judged []string
	names, _ := metricreg.ExpandMetrics(c.Scoring.Metrics)
	for _, m := range names {
		if f := metricreg.MetricFamily(m); (f == metricreg.FamilyLLM || f == metricreg.FamilyRAGAS) && !slices.Contains(metricreg.EncoderMetricNames, m) {
			judged = append(judged, m)
		}
	}
	if len(judged) > 0 {
		uses = append(uses, "the LLM-judged metrics "+strings.Join(judged, ", "))
	}
	return uses
}

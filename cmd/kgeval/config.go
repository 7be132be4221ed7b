package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Config is kgeval's whole configuration. Its defaults are configs/kgeval.yaml.
type Config struct {
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
		Required    bool          `mapstructure:"required"`
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
	} `mapstructure:"dataset"`
	Extraction struct {
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

// Metrics returns the metric names scoring.metrics selects (families and
// triplet-similarity base names expanded).
func (c *Config) Metrics() []string {
	names, _ := kgeval.ExpandMetrics(c.Scoring.Metrics)
	return names
}

// loadConfig builds the configuration: embedded defaults, then the file
// (if any), then KGEVAL_* environment variables, then the flags that were set.
func loadConfig(file string, flags *pflag.FlagSet) (*Config, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(configs.Default)); err != nil {
		return nil, fmt.Errorf("embedded defaults: %w", err)
	}
	if file != "" {
		v.SetConfigFile(file)
		if err := v.MergeInConfig(); err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "config file %s", file)
		}
	}
	v.SetEnvPrefix("KGEVAL")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	if flags != nil {
		var bindErr error
		flags.VisitAll(func(f *pflag.Flag) {
			if key, ok := flagKeys[f.Name]; ok && f.Changed {
				if err := v.BindPFlag(key, f); err != nil {
					bindErr = err
				}
			}
		})
		if bindErr != nil {
			return nil, bindErr
		}
	}
	var c Config
	for _, key := range v.AllKeys() {
		if err := decodeKey(v, key, &c); err != nil {
			return nil, err
		}
	}
	if err := v.Unmarshal(&c, viper.DecodeHook(mapstructure.ComposeDecodeHookFunc(
		mapstructure.StringToTimeDurationHookFunc(), mapstructure.StringToSliceHookFunc(",")))); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "config")
	}
	if err := c.resolve(); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// decodeKey decodes one key on its own so that a bad value is reported with
// the key's name and the value, not as a wall of mapstructure text.
func decodeKey(v *viper.Viper, key string, c *Config) error {
	field, ok := fieldByKey(reflect.ValueOf(c).Elem(), strings.Split(key, "."))
	if !ok {
		return nil // unknown keys are reported by Validate via strictKeys
	}
	raw := v.Get(key)
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

// resolve fills values that come from elsewhere: the password file, the
// usual OPENAI_* variables, and ~ in paths.
func (c *Config) resolve() error {
	if c.Neo4j.Password == "" && c.Neo4j.PasswordFile != "" {
		p := expandHome(c.Neo4j.PasswordFile)
		if !filepath.IsAbs(p) {
			if root := projectRoot(); root != "" {
				p = filepath.Join(root, p)
			}
		}
		if b, err := os.ReadFile(p); err == nil {
			c.Neo4j.Password = strings.TrimSpace(string(b))
		}
		c.Neo4j.PasswordFile = p
	}
	if c.LLM.BaseURL == "" {
		c.LLM.BaseURL = os.Getenv("OPENAI_BASE_URL")
	}
	if c.LLM.APIKey == "" {
		c.LLM.APIKey = os.Getenv("OPENAI_API_KEY")
	}
	if c.Embedding.APIKey == "" {
		c.Embedding.APIKey = c.LLM.APIKey
	}
	c.Embedding.ModelsDir = expandHome(c.Embedding.ModelsDir)
	return nil
}

// Validate checks every value; the error names the key and the bad value.
func (c *Config) Validate() error {
	bad := func(key string, val any, why string) error {
		return kgeval.Errorf(kgeval.EINVALID, "config: %s = %v: %s", key, val, why)
	}
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
	switch c.Embedding.Provider {
	case "local", "openai":
	default:
		return bad("embedding.provider", c.Embedding.Provider, "want local or openai")
	}
	if c.Embedding.BatchSize < 1 {
		return bad("embedding.batch_size", c.Embedding.BatchSize, "must be at least 1")
	}
	switch c.Scoring.Engine {
	case "gds", "native":
	default:
		return bad("scoring.engine", c.Scoring.Engine, "want gds or native")
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
		if _, unknown := kgeval.ExpandMetrics([]string{m}); len(unknown) > 0 {
			return bad("scoring.metrics", m, "unknown metric (known: "+strings.Join(kgeval.KnownMetrics(), ", ")+")")
		}
	}
	if c.Dataset.MaxTextChars < 0 {
		return bad("dataset.max_text_chars", c.Dataset.MaxTextChars, "must be >= 0")
	}
	if c.Scoring.TauRel < -1 || c.Scoring.TauRel > 1 {
		return bad("scoring.tau_rel", c.Scoring.TauRel, "must be a cosine in [-1, 1]")
	}
	switch c.Scoring.Verify {
	case "off", "llm":
	default:
		return bad("scoring.verify", c.Scoring.Verify, "must be off or llm")
	}
	if c.Extraction.WindowChars < 0 {
		return bad("extraction.window_chars", c.Extraction.WindowChars, "must be >= 0 (0: whole texts)")
	}
	switch c.Extraction.Grounding {
	case "drop", "keep", "off":
	default:
		return bad("extraction.grounding", c.Extraction.Grounding, "must be drop, keep or off")
	}
	if c.Dataset.MaxLabelChars < 0 {
		return bad("dataset.max_label_chars", c.Dataset.MaxLabelChars, "must be >= 0")
	}
	if err := c.Web.validate(bad); err != nil {
		return err
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return bad("log.level", c.Log.Level, "want debug, info, warn or error")
	}
	return nil
}

func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}

// projectRoot is the directory holding go.mod above the working directory,
// or the KGEVAL_HOME variable; "" when neither exists.
func projectRoot() string {
	if h := os.Getenv("KGEVAL_HOME"); h != "" {
		return h
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "configs", "kgeval.yaml")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

var errUsage = errors.New("usage")

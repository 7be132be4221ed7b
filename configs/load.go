package configs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/kgeval/kgeval"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// FlagKeys maps the command line's flags to configuration keys: Load binds
// those that were set over the file and the environment.
var FlagKeys = map[string]string{
	"neo4j-uri":      "neo4j.uri",
	"neo4j-user":     "neo4j.user",
	"neo4j-password": "neo4j.password",
	"neo4j-database": "neo4j.database",
	"llm-base-url":   "llm.base_url",
	"llm-model":      "llm.model",
	"engine":         "scoring.engine",
	"tau":            "scoring.tau",
	"delta":          "scoring.delta",
	"metrics":        "scoring.metrics",
	"concurrency":    "llm.concurrency",
	"cache-only":     "llm.cache_only",
	"strict":         "dataset.strict",
	"addr":           "server.addr",
	"log-level":      "log.level",
}

// Load builds the configuration: embedded defaults, then the file
// (if any), then KGEVAL_* environment variables, then the flags that were set.
func Load(file string, flags *pflag.FlagSet) (*Config, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(Default)); err != nil {
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
			if key, ok := FlagKeys[f.Name]; ok && f.Changed {
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
		if err := CheckValue(key, v.Get(key)); err != nil {
			return nil, err
		}
	}
	if err := v.Unmarshal(&c, viper.DecodeHook(mapstructure.ComposeDecodeHookFunc(
		mapstructure.StringToTimeDurationHookFunc(), mapstructure.StringToSliceHookFunc(",")))); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "config")
	}
	c.Root = projectRoot(file)
	c.StateDir = stateDir(c.Root)
	if err := resolve(&c); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// resolve fills values that come from elsewhere: the password file, the
// usual OPENAI_* variables, and ~ in paths.
func resolve(c *Config) error {
	if c.Neo4j.Password == "" && c.Neo4j.PasswordFile != "" {
		p := c.Path(c.Neo4j.PasswordFile)
		b, err := os.ReadFile(p)
		if alt := filepath.Join(c.StateDir, "neo4j", "password"); err != nil && c.Neo4j.PasswordFile == defaultPasswordFile {
			// The default file is not here: the password `kgeval neo4j
			// start` wrote into the state directory.
			if b, err = os.ReadFile(alt); err == nil {
				p = alt
			}
		}
		if err == nil {
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
	c.Embedding.ModelsDir = ExpandHome(c.Embedding.ModelsDir)
	return nil
}

// defaultPasswordFile is neo4j.password_file in configs/kgeval.yaml.
const defaultPasswordFile = ".kgeval/neo4j/password"

// stateDir is where the bundled Neo4j keeps its jars, store and password
// (`kgeval neo4j start`, `make neo4j-start`): KGEVAL_STATE_DIR, else .kgeval
// under the project root, else ~/.local/share/kgeval (a binary installed
// without the repository, e.g. by pip).
func stateDir(root string) string {
	if d := os.Getenv("KGEVAL_STATE_DIR"); d != "" {
		return d
	}
	if root != "" {
		return filepath.Join(root, ".kgeval")
	}
	return ExpandHome("~/.local/share/kgeval")
}

// ExpandHome replaces a leading ~/ with the user's home directory.
func ExpandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}

// Path is p with ~ expanded and, when relative, under the project root
// (p as it is when there is none).
func (c *Config) Path(p string) string {
	p = ExpandHome(p)
	if !filepath.IsAbs(p) && c.Root != "" {
		p = filepath.Join(c.Root, p)
	}
	return p
}

// projectRoot is found once, when the configuration loads: KGEVAL_HOME;
// else the project of the configuration file, when it is a project's
// configs/kgeval.yaml; else the nearest directory at or above the working
// directory that holds configs/kgeval.yaml; "" when there is none.
func projectRoot(file string) string {
	if h := os.Getenv("KGEVAL_HOME"); h != "" {
		return h
	}
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil && isRoot(filepath.Dir(filepath.Dir(abs))) {
			return filepath.Dir(filepath.Dir(abs))
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for ; !isRoot(dir); dir = filepath.Dir(dir) {
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
	return dir
}

// isRoot reports whether dir is a project's root: it holds configs/kgeval.yaml.
func isRoot(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "configs", "kgeval.yaml"))
	return err == nil
}

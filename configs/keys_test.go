package configs_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/configs"
	"gopkg.in/yaml.v3"
)

// TestKeys: every leaf of the embedded defaults is a key, and Keys names
// the maps with ".*".
func TestKeys(t *testing.T) {
	keys := configs.Keys()
	for _, k := range []string{"neo4j.password", "scoring.tau", "scoring.pairs", "llm.required", "extraction.method", "web.thresholds.*"} {
		if !slices.Contains(keys, k) {
			t.Errorf("Keys() lacks %s", k)
		}
	}
	var defaults map[string]any
	if err := yaml.NewDecoder(bytes.NewReader(configs.Default)).Decode(&defaults); err != nil {
		t.Fatal(err)
	}
	var walk func(m map[string]any, prefix string)
	walk = func(m map[string]any, prefix string) {
		for k, v := range m {
			key := prefix + k
			if sub, ok := v.(map[string]any); ok && !slices.Contains(keys, key+".*") {
				walk(sub, key+".")
				continue
			}
			if !slices.Contains(keys, key) && !slices.Contains(keys, key+".*") {
				t.Errorf("default %s is not among Keys()", key)
			}
		}
	}
	walk(defaults, "")
	for _, k := range keys {
		if strings.Contains(k, "..") || strings.HasPrefix(k, ".") {
			t.Errorf("bad key %q", k)
		}
	}
}

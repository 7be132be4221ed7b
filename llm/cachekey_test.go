package llm_test

import (
	"testing"

	"github.com/kgeval/kgeval/llm"
)

// TestCacheKey pins the key layout every committed snapshot is keyed by:
// the prefix, then SHA-256 over the parts each followed by NUL (the value
// computed apart, by Python's hashlib). A change here would make every
// replay ask the model again.
func TestCacheKey(t *testing.T) {
	got := llm.CacheKey("claim:", "qwen", "claim_threeway.v1", "Is it so?")
	want := "claim:cf72f6e18a519c83bf667c3f845836d729b92c1355b3bf55643ff41cba09ba7a"
	if got != want {
		t.Errorf("CacheKey = %s, want %s", got, want)
	}
	if a, b := llm.CacheKey("x:", "ab", "c"), llm.CacheKey("x:", "a", "bc"); a == b {
		t.Errorf("parts ab|c and a|bc share the key %s", a)
	}
}

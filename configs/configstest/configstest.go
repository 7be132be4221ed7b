// Package configstest gives tests what the configuration says, read the way
// the commands read it (configs.Load: the defaults and KGEVAL_*
// variables), so that no test package reads an environment variable of its
// own.
package configstest

import (
	"testing"

	"github.com/kgeval/kgeval/configs"
)

// EncoderDir is the local encoder's model directory
// (configs.Config.EncoderDir: embedding.models_dir, set by
// KGEVAL_EMBEDDING_MODELS_DIR).
func EncoderDir(tb testing.TB) string {
	tb.Helper()
	cfg, err := configs.Load("", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg.EncoderDir()
}

package kgeval_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestContainer_Defaults checks the container path against the bundled
// defaults: the compose file's default model is the one the bundled model
// server serves (configs/kgeval.yaml, scripts/llm.sh), and the image
// carries the MiniLM files the local encoder reads, where its configuration
// looks for them.
func TestContainer_Defaults(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cfg, compose, docker := read("configs/kgeval.yaml"), read("docker-compose.yml"), read("Dockerfile")
	want := regexp.MustCompile(`(?m)^\s+model: (\S+)`).FindStringSubmatch(cfg)
	got := regexp.MustCompile(`KGEVAL_LLM_MODEL: \$\{KGEVAL_LLM_MODEL:-([^}]+)\}`).FindStringSubmatch(compose)
	if want == nil || got == nil {
		t.Fatalf("model names not found: config %v, compose %v", want, got)
	}
	if got[1] != want[1] {
		t.Errorf("docker-compose.yml's default model is %s, configs/kgeval.yaml's (the bundled server's) %s", got[1], want[1])
	}
	for _, s := range []string{"fetch-minilm.sh", "COPY --from=minilm /models /models", "KGEVAL_EMBEDDING_MODELS_DIR=/models", "CGO_ENABLED=0"} {
		if !strings.Contains(docker, s) {
			t.Errorf("Dockerfile lacks %q", s)
		}
	}
}

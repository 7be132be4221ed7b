package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
)

// TestNeo4j_Java: `kgeval neo4j start` says that Neo4j needs Java 17 or
// 21 when JAVA_HOME holds none or an older one, before anything starts.
func TestNeo4j_Java(t *testing.T) {
	t.Setenv("KGEVAL_STATE_DIR", t.TempDir())
	t.Run("NoJava", func(t *testing.T) {
		t.Setenv("JAVA_HOME", filepath.Join(t.TempDir(), "none"))
		_, err := runMain(t, "neo4j", "start")
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || !strings.Contains(kgeval.ErrorMessage(err), "no java found") ||
			!strings.Contains(kgeval.ErrorMessage(err), "Neo4j 5.26 needs Java 17 or 21") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("OldJava", func(t *testing.T) {
		home := t.TempDir()
		if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		fake := "#!/bin/sh\necho '    java.specification.version = 11' >&2\necho 'openjdk version \"11.0.2\"' >&2\n"
		if err := os.WriteFile(filepath.Join(home, "bin", "java"), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("JAVA_HOME", home)
		_, err := runMain(t, "neo4j", "start")
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || !strings.Contains(kgeval.ErrorMessage(err), "Java 11 at") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("BadAction", func(t *testing.T) {
		if _, err := runMain(t, "neo4j", "launch"); kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Fatalf("got %v", err)
		}
	})
}

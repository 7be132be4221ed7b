// Package graphstoretest connects tests to the real Neo4j + GDS that
// `make test` starts. Tests fail, never skip, when it is not there.
package graphstoretest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/console"
)

// URI returns the Bolt URI of the test Neo4j (KGEVAL_NEO4J_URI, default
// bolt://127.0.0.1:7687).
func URI() string {
	if uri := os.Getenv("KGEVAL_NEO4J_URI"); uri != "" {
		return uri
	}
	return "bolt://127.0.0.1:7687"
}

// Password returns KGEVAL_NEO4J_PASSWORD, else the bundled server's password
// file, else "".
func Password() string {
	if pw := os.Getenv("KGEVAL_NEO4J_PASSWORD"); pw != "" {
		return pw
	}
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", ".kgeval", "neo4j", "password"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// Config returns how the tests reach the test Neo4j.
func Config() graphstore.Config {
	return graphstore.Config{URI: URI(), User: "neo4j", Password: Password(), Database: "neo4j", QueryTimeout: 5 * time.Minute}
}

// MustConsole returns a Cypher console on the test Neo4j, closed when the
// test ends.
func MustConsole(tb testing.TB) *console.Console {
	tb.Helper()
	if Password() == "" {
		tb.Fatal("no Neo4j password (KGEVAL_NEO4J_PASSWORD or .kgeval/neo4j/password): run `make test`, which starts Neo4j")
	}
	c := console.New(Config())
	tb.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// MustOpenDB connects to the test Neo4j, applies kgeval's schema and closes
// the connection when the test ends.
func MustOpenDB(tb testing.TB) *graphstore.DB {
	tb.Helper()
	pw := Password()
	if pw == "" {
		tb.Fatal("no Neo4j password (KGEVAL_NEO4J_PASSWORD or .kgeval/neo4j/password): run `make test`, which starts Neo4j")
	}
	ctx := context.Background()
	db, err := graphstore.Open(ctx, Config())
	if err != nil {
		tb.Fatalf("open Neo4j at %s: %v (run `make test`, which starts it)", URI(), err)
	}
	if err := db.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close(context.Background()) })
	return db
}

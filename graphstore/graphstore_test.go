package graphstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
)

// MustOpenDB connects to the Neo4j that `make test` started (KGEVAL_NEO4J_URI
// and KGEVAL_NEO4J_PASSWORD, else the bundled server's password file). It
// fails, never skips, when Neo4j is not there: these tests are the point.
func MustOpenDB(tb testing.TB) *graphstore.DB {
	tb.Helper()
	uri := os.Getenv("KGEVAL_NEO4J_URI")
	if uri == "" {
		uri = "bolt://127.0.0.1:7687"
	}
	pw := os.Getenv("KGEVAL_NEO4J_PASSWORD")
	if pw == "" {
		b, err := os.ReadFile(filepath.Join("..", ".kgeval", "neo4j", "password"))
		if err != nil {
			tb.Fatalf("no Neo4j password (KGEVAL_NEO4J_PASSWORD or .kgeval/neo4j/password): run `make test`, which starts Neo4j")
		}
		pw = strings.TrimSpace(string(b))
	}
	ctx := context.Background()
	db, err := graphstore.Open(ctx, graphstore.Config{URI: uri, User: "neo4j", Password: pw, Database: "neo4j", QueryTimeout: 5 * time.Minute})
	if err != nil {
		tb.Fatalf("open Neo4j at %s: %v (run `make test`, which starts it)", uri, err)
	}
	if err := db.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close(context.Background()) })
	return db
}

// MustRun returns a run name unique to this test and deletes its data after.
func MustRun(tb testing.TB, db *graphstore.DB) string {
	tb.Helper()
	run := fmt.Sprintf("test-%s-%d", strings.ReplaceAll(tb.Name(), "/", "_"), time.Now().UnixNano())
	tb.Cleanup(func() {
		if err := db.DeleteRunGraphs(context.Background(), run); err != nil {
			tb.Errorf("cleanup %s: %v", run, err)
		}
	})
	return run
}

func TestDB_Info(t *testing.T) {
	db := MustOpenDB(t)
	info, err := db.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.Version, "5.26") || !strings.HasPrefix(info.GDSVersion, "2.13") {
		t.Errorf("server %+v: want Neo4j 5.26.x with GDS 2.13.x", info)
	}
	t.Logf("Neo4j %s %s, GDS %s", info.Version, info.Edition, info.GDSVersion)
	missing, err := db.MissingSchema(context.Background())
	if err != nil || len(missing) > 0 {
		t.Errorf("after Migrate: missing %v, err %v", missing, err)
	}
	if err := db.Migrate(context.Background()); err != nil {
		t.Errorf("second Migrate: %v", err)
	}
}

func TestOpen_Errors(t *testing.T) {
	ctx := context.Background()
	t.Run("Unavailable", func(t *testing.T) {
		_, err := graphstore.Open(ctx, graphstore.Config{URI: "bolt://127.0.0.1:1", User: "neo4j", Password: "x", ConnectTimeout: 2 * time.Second})
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE {
			t.Errorf("err = %v (%s), want EUNAVAILABLE", err, kgeval.ErrorCode(err))
		}
	})
	t.Run("Unauthorized", func(t *testing.T) {
		uri := os.Getenv("KGEVAL_NEO4J_URI")
		if uri == "" {
			uri = "bolt://127.0.0.1:7687"
		}
		_, err := graphstore.Open(ctx, graphstore.Config{URI: uri, User: "neo4j", Password: "wrong-password"})
		if kgeval.ErrorCode(err) != kgeval.EUNAUTHORIZED {
			t.Errorf("err = %v (%s), want EUNAUTHORIZED", err, kgeval.ErrorCode(err))
		}
	})
}

package graphstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
)

// MustOpenDB connects to the Neo4j that `make test` started.
func MustOpenDB(tb testing.TB) *graphstore.DB { return graphstoretest.MustOpenDB(tb) }

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
		_, err := graphstore.Open(ctx, graphstore.Config{URI: graphstoretest.URI(), User: "neo4j", Password: "wrong-password"})
		if kgeval.ErrorCode(err) != kgeval.EUNAUTHORIZED {
			t.Errorf("err = %v (%s), want EUNAUTHORIZED", err, kgeval.ErrorCode(err))
		}
	})
}

// TestDB_Migrate_Concurrent runs the migrations from several goroutines at
// once, as parallel test packages or two kgeval processes starting together do.
func TestDB_Migrate_Concurrent(t *testing.T) {
	db := MustOpenDB(t)
	graphstoretest.DropRelationRunIndex(t)
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() { errs <- db.Migrate(context.Background()) }()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Errorf("concurrent Migrate: %v", err)
		}
	}
	if missing, err := db.MissingSchema(context.Background()); err != nil || len(missing) > 0 {
		t.Errorf("after concurrent Migrate: missing %v, err %v", missing, err)
	}
}

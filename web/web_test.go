package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/web"
)

// downHealth injects the fault of a Neo4j that does not answer.
type downHealth struct{}

func (downHealth) Check(context.Context) (map[string]string, error) {
	return nil, kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j at bolt://127.0.0.1:1 is not reachable")
}

// TestServer_Healthz checks /healthz against the real Neo4j, then against a
// Neo4j that does not answer.
func TestServer_Healthz(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv := httptest.NewServer(web.NewServer(&graphstore.Health{DB: db}, "test").Handler())
	defer srv.Close()
	down := httptest.NewServer(web.NewServer(downHealth{}, "test").Handler())
	defer down.Close()
	get := func(base string) (int, map[string]any) {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	code, body := get(srv.URL)
	if code != 200 || body["status"] != "ok" || body["neo4j"] == nil || body["gds"] == nil {
		t.Errorf("healthy: %d %v", code, body)
	}
	code, body = get(down.URL)
	if code != http.StatusServiceUnavailable || body["status"] != "unavailable" {
		t.Errorf("Neo4j closed: %d %v", code, body)
	}
}

package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/web"
)

// countingStore counts the store round trips of the dashboard's reads.
type countingStore struct {
	readmodel.Services
	mu sync.Mutex
	n  map[string]int
}

func (s *countingStore) count(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n[name]++
}

// take returns the counts so far and starts again.
func (s *countingStore) take() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.n
	s.n = map[string]int{}
	return n
}

func (s *countingStore) GetRun(ctx context.Context, name string) (kgeval.Run, error) {
	s.count("GetRun")
	return s.Services.GetRun(ctx, name)
}

func (s *countingStore) ListRuns(ctx context.Context) ([]kgeval.Run, error) {
	s.count("ListRuns")
	return s.Services.ListRuns(ctx)
}

func (s *countingStore) RunSummary(ctx context.Context, run, variant string) ([]readmodel.PairSummary, error) {
	s.count("RunSummary")
	return s.Services.RunSummary(ctx, run, variant)
}

func (s *countingStore) RunSystems(ctx context.Context, run string) ([]readmodel.SystemCount, error) {
	s.count("RunSystems")
	return s.Services.RunSystems(ctx, run)
}

func (s *countingStore) RunSweep(ctx context.Context, run string) ([]readmodel.VariantMeans, error) {
	s.count("RunSweep")
	return s.Services.RunSweep(ctx, run)
}

func (s *countingStore) RunScoreRows(ctx context.Context, run, variant string) ([]readmodel.SystemScore, error) {
	s.count("RunScoreRows")
	return s.Services.RunScoreRows(ctx, run, variant)
}

func (s *countingStore) RunMetricGroups(ctx context.Context, run string) ([]readmodel.MetricGroup, error) {
	s.count("RunMetricGroups")
	return s.Services.RunMetricGroups(ctx, run)
}

func (s *countingStore) RunNullReasons(ctx context.Context, run string) ([]readmodel.ReasonCount, error) {
	s.count("RunNullReasons")
	return s.Services.RunNullReasons(ctx, run)
}

func (s *countingStore) RunKGScores(ctx context.Context, run, variant string) ([]readmodel.SampleScores, error) {
	s.count("RunKGScores")
	return s.Services.RunKGScores(ctx, run, variant)
}

func (s *countingStore) RunScores(ctx context.Context, run, variant string) ([]readmodel.SampleScores, error) {
	s.count("RunScores")
	return s.Services.RunScores(ctx, run, variant)
}

func (s *countingStore) GetSample(ctx context.Context, run, id, variant string, pairs []kgeval.Pair) (*readmodel.SampleDetail, error) {
	s.count("GetSample")
	return s.Services.GetSample(ctx, run, id, variant, pairs)
}

func (s *countingStore) Variants(ctx context.Context, run string) ([]readmodel.Variant, error) {
	s.count("Variants")
	return s.Services.Variants(ctx, run)
}

func (s *countingStore) MetricExplanations(ctx context.Context, run string, metrics []string) (map[string]map[string][]byte, error) {
	s.count("MetricExplanations")
	return s.Services.MetricExplanations(ctx, run, metrics)
}

func (s *countingStore) SampleOrder(ctx context.Context, q readmodel.SampleQuery) ([]readmodel.SampleRow, error) {
	s.count("SampleOrder")
	return s.Services.SampleOrder(ctx, q)
}

func (s *countingStore) SampleScores(ctx context.Context, run, variant string, rows []readmodel.SampleRow, pairs []kgeval.Pair, metrics []string) error {
	s.count("SampleScores")
	return s.Services.SampleScores(ctx, run, variant, rows, pairs, metrics)
}

func (s *countingStore) ListSamples(ctx context.Context, q readmodel.SampleQuery, pairs []kgeval.Pair) (*readmodel.SamplePage, error) {
	s.count("ListSamples")
	return s.Services.ListSamples(ctx, q, pairs)
}

// settled waits until the store has been quiet for a while (the run page
// starts the triage in the background) and returns the counts.
func (s *countingStore) settled() map[string]int {
	total := func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		n := 0
		for _, v := range s.n {
			n += v
		}
		return n
	}
	last := -1
	for range 50 {
		if n := total(); n == last {
			break
		} else {
			last = n
		}
		time.Sleep(100 * time.Millisecond)
	}
	return s.take()
}

func describe(n map[string]int) string {
	var parts []string
	sum := 0
	for k, v := range n {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
		sum += v
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d: %s", sum, strings.Join(parts, ", "))
}

// TestServer_RunPageRoundTrips counts the store round trips of the run
// page: the run is read once (GetRun once), a second visit of the finished
// run is answered from the cache but for the run record and the run list.
func TestServer_RunPageRoundTrips(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustWebRun(t, db, 8)
	cs := &countingStore{Services: db, n: map[string]int{}}
	hash, err := web.HashPassword(testPassword)
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.NewServer(web.Config{Version: "test", Auth: web.AuthConfig{Users: map[string]string{testUser: hash},
		Tokens: map[string]string{web.HashToken(testToken): "ci"}, SessionKey: []byte(strings.Repeat("k", 64)), InsecureCookies: true}},
		&graphstore.Health{DB: db}, cs)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	c := &client{tb: t, base: srv.URL, token: testToken}
	page := "/runs/" + url.PathEscape(r.Name)
	if resp, _ := c.get(page); resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	cold := cs.settled()
	t.Logf("run page, cold: %s", describe(cold))
	if resp, _ := c.get(page); resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	warm := cs.settled()
	t.Logf("run page, warm: %s", describe(warm))
	if cold["GetRun"] != 1 || warm["GetRun"] != 1 {
		t.Errorf("GetRun %d times cold, %d warm: want once", cold["GetRun"], warm["GetRun"])
	}
}

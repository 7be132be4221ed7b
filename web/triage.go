package web

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"golang.org/x/sync/errgroup"
)

// DefaultMinN is the fewest samples under which the dashboard hides
// p-values and correlations (web.min_n).
const DefaultMinN = 10

// TriagePageRows is the rows per pair the run page first asks for
// (web/assets/triage.js).
const TriagePageRows = 5

// triageQuery parses the triage's query string. Errors: EINVALID.
func triageQuery(c *gin.Context) (analysis.TriageQuery, error) {
	q := analysis.TriageQuery{Pair: c.Query("pair"), Metric: c.Query("metric"), Sort: c.Query("sort")}
	num := func(key string) (*float64, error) {
		v := c.Query(key)
		if v == "" {
			return nil, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f != f {
			return nil, kgeval.Errorf(kgeval.EINVALID, "%s=%q: not a number", key, v)
		}
		return &f, nil
	}
	var err error
	if q.Min, err = num("min"); err != nil {
		return q, err
	}
	if q.Max, err = num("max"); err != nil {
		return q, err
	}
	if v := c.Query("limit"); v != "" {
		if q.Limit, err = strconv.Atoi(v); err != nil {
			return q, kgeval.Errorf(kgeval.EINVALID, "limit=%q: not an integer", v)
		}
	}
	switch c.Query("order") {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, kgeval.Errorf(kgeval.EINVALID, "order=%q: want asc or desc", c.Query("order"))
	}
	if v, ok := c.GetQuery("reason"); ok && v != "" {
		q.Reason = &v
	}
	if v, ok := c.GetQuery("system"); ok {
		q.System = &v
	}
	return q, nil
}

func triageKey(q analysis.TriageQuery) string {
	return strings.Join([]string{strconv.Quote(q.Pair), keyStr(q.System), strconv.Quote(q.Metric), keyNum(q.Min), keyNum(q.Max), keyStr(q.Reason),
		strconv.Quote(q.Sort), strconv.FormatBool(q.Desc), strconv.Itoa(q.Limit)}, " ")
}

// triage serves GET /api/runs/:run/triage: per pair the samples that need
// attention (analysis.Triage), with the why of the first failing ones.
func (s *Server) triage(c *gin.Context) (any, error) {
	q, err := triageQuery(c)
	if err != nil {
		return nil, err
	}
	ctx := c.Request.Context()
	r, st, err := s.run(ctx, c.Param("run"))
	if err != nil {
		return nil, err
	}
	return s.triageOf(ctx, r, st, variantOf(c), q)
}

// triageRun is what the triage keeps of a finished run: the index of
// every row and the why of the samples it explained (by sample and pair),
// so that another filter over the same worst samples reads no sample again.
type triageRun struct {
	ix  *analysis.TriageIndex
	mu  sync.Mutex
	why map[string]analysis.RowWhy
}

// maxWhys bounds triageRun.why (then it starts again).
const maxWhys = 4096

// whyFetches is how many samples one triage request reads at once.
const whyFetches = 4

func (s *Server) triageOf(ctx context.Context, r kgeval.Run, st analysis.Display, variant string, q analysis.TriageQuery) (*analysis.Triage, error) {
	ixKey, ok := s.cache.key(r, "triage-index", variant)
	tr, err := cached(s.cache, ixKey, ok, func() (*triageRun, error) {
		rows, err := s.store.RunKGScores(ctx, r.Name, variant)
		if err != nil {
			return nil, err
		}
		return &triageRun{ix: analysis.BuildTriageIndex(rows, st.Pairs, s.cfg.Thresholds), why: map[string]analysis.RowWhy{}}, nil
	})
	if err != nil {
		return nil, err
	}
	// A range filter is not cached: its values are endless, and they would
	// push the index (and the run's other entries) out of the cache.
	key, _ := s.cache.key(r, "triage", variant, triageKey(q))
	return cached(s.cache, key, ok && q.Min == nil && q.Max == nil, func() (*analysis.Triage, error) {
		t, err := tr.ix.Query(q)
		if err != nil {
			return nil, err
		}
		t.Tau, t.Delta = st.Tau, st.Delta
		if err := s.explainRows(ctx, tr, r.Name, variant, st.Pairs, t.WhyTargets()); err != nil {
			return nil, err
		}
		tr.mu.Lock()
		defer tr.mu.Unlock()
		t.AttachWhy(func(id, pair string) (analysis.RowWhy, bool) {
			w, ok := tr.why[kgeval.JoinKey(id, pair)]
			return w, ok
		})
		return t, nil
	})
}

// explainRows reads, for the targets tr has no why of yet, their samples
// with the pairs needed (whyFetches samples at a time), and keeps the why
// of each.
func (s *Server) explainRows(ctx context.Context, tr *triageRun, run, variant string, pairs []kgeval.Pair, targets []analysis.WhyTarget) error {
	need := map[string][]kgeval.Pair{}
	var ids []string
	tr.mu.Lock()
	for _, t := range targets {
		if _, ok := tr.why[kgeval.JoinKey(t.ID, t.Pair)]; ok {
			continue
		}
		for _, p := range pairs {
			if p.Name == t.Pair && !slices.Contains(need[t.ID], p) {
				if need[t.ID] == nil {
					ids = append(ids, t.ID)
				}
				need[t.ID] = append(need[t.ID], p)
			}
		}
	}
	tr.mu.Unlock()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(whyFetches)
	for _, id := range ids {
		g.Go(func() error {
			d, err := s.store.GetSample(gctx, run, id, variant, need[id])
			if err != nil {
				return err
			}
			whys := make(map[string]analysis.RowWhy, len(need[id]))
			for _, p := range need[id] {
				whys[p.Name] = analysis.WhyOfRow(d, p.Name)
			}
			tr.mu.Lock()
			defer tr.mu.Unlock()
			if len(tr.why)+len(whys) > maxWhys {
				clear(tr.why)
			}
			for p, w := range whys {
				tr.why[kgeval.JoinKey(id, p)] = w
			}
			return nil
		})
	}
	return g.Wait()
}

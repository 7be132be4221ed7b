package analysis

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/readmodel"
	"golang.org/x/sync/errgroup"
)

// Source is what a Reader reads: run records, a run's summary,
// statistics rows, sweep means, scores, samples and pair graphs
// (graphstore implements it on Neo4j).
type Source interface {
	ScoreSource
	StatsSource
	ListRuns(ctx context.Context) ([]kgeval.Run, error)
	RunSummary(ctx context.Context, run, variant string) ([]readmodel.PairSummary, error)
	RunSystems(ctx context.Context, run string) ([]readmodel.SystemCount, error)
	RunSweep(ctx context.Context, run string) ([]readmodel.VariantMeans, error)
	RunKGScores(ctx context.Context, run, variant string) ([]readmodel.SampleScores, error)
	GetSample(ctx context.Context, run, id, variant string, pairs []kgeval.Pair) (*readmodel.SampleDetail, error)
	ReadGraphExplanation(ctx context.Context, run, sample, pair string) (*readmodel.GraphExplanation, error)
	ListSamples(ctx context.Context, q readmodel.SampleQuery, pairs []kgeval.Pair) (*readmodel.SamplePage, error)
	SampleOrder(ctx context.Context, q readmodel.SampleQuery) ([]readmodel.SampleRow, error)
	SampleScores(ctx context.Context, run, variant string, rows []readmodel.SampleRow, pairs []kgeval.Pair, metrics []string) error
	RunClaims(ctx context.Context, run, variant string) (map[string]map[string][]kgeval.ClaimCheck, error)
}

// ReaderOptions configure a Reader.
type ReaderOptions struct {
	// Thresholds are the triage's pass marks of KG metrics (the defaults
	// of DefaultThresholds for the metrics not named).
	Thresholds map[string]float64
	// CacheTTL is how long a read model of a finished run is kept (default
	// 5 minutes: a sweep may add scores to a finished run), CacheEntries
	// how many are kept (default 64).
	CacheTTL     time.Duration
	CacheEntries int
}

// Reader is the read service of stored runs, for the CLI and the dashboard
// alike: it reads a run's record once per request and computes the run's
// read models (overview, statistics, triage, sweep, sample list, sample,
// comparison of two runs) from the rows the store returns. What it derives
// from a finished run is cached (keyed by the run's name, start and finish,
// so that a replaced or resumed run is read anew); a run that may still
// change is read every time.
type Reader struct {
	st    Source
	o     ReaderOptions
	cache *runCache
}

// NewReader returns a reader of st.
func NewReader(st Source, o ReaderOptions) *Reader {
	if o.CacheTTL <= 0 {
		o.CacheTTL = 5 * time.Minute
	}
	if o.CacheEntries <= 0 {
		o.CacheEntries = 64
	}
	return &Reader{st: st, o: o, cache: newRunCache(o.CacheTTL, o.CacheEntries)}
}

// Run reads a run's record and its display settings. Errors: ENOTFOUND.
func (rd *Reader) Run(ctx context.Context, name string) (kgeval.Run, Display, error) {
	r, err := rd.st.GetRun(ctx, name)
	if err != nil {
		return r, Display{}, err
	}
	return r, DisplayOf(r), nil
}

// RunRow is a run as the runs list shows it.
type RunRow struct {
	Name     string    `json:"name"`
	Dataset  string    `json:"dataset"`
	Status   string    `json:"status"`
	Error    string    `json:"error,omitempty"`
	Engine   string    `json:"engine"`
	Encoder  string    `json:"encoder"`
	LLM      string    `json:"llm"`
	Samples  int       `json:"samples"`
	Rejected int       `json:"rejected"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
	// Sensitivity names the sensitivity experiment (its run prefix) the
	// run belongs to, if any (Runs fills it; the API leaves it out).
	Sensitivity string `json:"-"`
}

// RunRowOf is the row of run r.
func RunRowOf(r kgeval.Run) RunRow {
	return RunRow{Name: r.Name, Dataset: r.Dataset, Status: r.Status, Error: r.Error, Engine: r.Engine, Encoder: r.Encoder,
		LLM: r.LLM, Samples: r.Samples, Rejected: r.Rejected, Started: r.Started, Finished: r.Finished}
}

// Runs reads the stored runs, newest first, each with the sensitivity
// experiment it belongs to. It is not cached: a run may start or end at
// any time.
func (rd *Reader) Runs(ctx context.Context) ([]RunRow, error) {
	runs, err := rd.st.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	names := runNames(runs)
	out := make([]RunRow, 0, len(runs))
	for _, r := range runs {
		row := RunRowOf(r)
		row.Sensitivity, _ = SensitivityPrefix(names, r.Name)
		out = append(out, row)
	}
	return out, nil
}

// runNames is the set of the names of runs.
func runNames(runs []kgeval.Run) map[string]bool {
	names := make(map[string]bool, len(runs))
	for _, r := range runs {
		names[r.Name] = true
	}
	return names
}

// RunView is one run with its settings, summary and systems; Record is
// the run's record as read (for the CLI, which prints more of it than
// RunRow holds).
type RunView struct {
	Record   kgeval.Run              `json:"-"`
	Run      RunRow                  `json:"run"`
	Settings Display                 `json:"settings"`
	Summary  []readmodel.PairSummary `json:"summary"`
	Systems  []readmodel.SystemCount `json:"systems"`
	Stages   kgeval.Stages           `json:"stages,omitempty"`
	Calls    *kgeval.Calls           `json:"calls,omitempty"`
}

// View reads a run's view for one scoring variant. Errors: ENOTFOUND.
func (rd *Reader) View(ctx context.Context, name, variant string) (*RunView, error) {
	r, d, err := rd.Run(ctx, name)
	if err != nil {
		return nil, err
	}
	return rd.view(ctx, r, d, variant)
}

func (rd *Reader) view(ctx context.Context, r kgeval.Run, d Display, variant string) (*RunView, error) {
	key, ok := rd.cache.key(r, "view", variant)
	return cached(rd.cache, key, ok, func() (*RunView, error) {
		sum, err := rd.st.RunSummary(ctx, r.Name, variant)
		if err != nil {
			return nil, err
		}
		systems, err := rd.st.RunSystems(ctx, r.Name)
		if err != nil {
			return nil, err
		}
		if sum == nil {
			sum = []readmodel.PairSummary{}
		}
		return &RunView{Record: r, Run: RunRowOf(r), Settings: d, Summary: sum, Systems: systems, Stages: r.Stages, Calls: r.Calls}, nil
	})
}

// Stats reads a run's statistics for one scoring variant (RunStats).
// Errors: ENOTFOUND.
func (rd *Reader) Stats(ctx context.Context, name, variant string) (*RunStats, error) {
	r, d, err := rd.Run(ctx, name)
	if err != nil {
		return nil, err
	}
	return rd.stats(ctx, r, d, variant)
}

func (rd *Reader) stats(ctx context.Context, r kgeval.Run, d Display, variant string) (*RunStats, error) {
	key, ok := rd.cache.key(r, "stats", variant)
	return cached(rd.cache, key, ok, func() (*RunStats, error) { return LoadRunStats(ctx, rd.st, r.Name, variant, d) })
}

// Overview is what a run's page shows: the run's view, statistics and
// sweep, and the sensitivity experiment it belongs to (its prefix, if any).
type Overview struct {
	View        *RunView
	Stats       *RunStats
	Sweep       *SweepView
	Sensitivity string
}

// OverviewOptions say what Overview reads.
type OverviewOptions struct {
	// Variant is the scoring variant of the view and statistics (default
	// kgeval.DefaultVariant).
	Variant string
	// Prefetch, when set, is the triage query the caller will ask for
	// next: for a finished run it is computed in the background, so that
	// the next call joins it or finds it cached.
	Prefetch *TriageQuery
}

// Overview reads a run once and computes its page's read models. Errors:
// ENOTFOUND.
func (rd *Reader) Overview(ctx context.Context, name string, o OverviewOptions) (*Overview, error) {
	if o.Variant == "" {
		o.Variant = kgeval.DefaultVariant
	}
	r, d, err := rd.Run(ctx, name)
	if err != nil {
		return nil, err
	}
	v, err := rd.view(ctx, r, d, o.Variant)
	if err != nil {
		return nil, err
	}
	if _, ok := rd.cache.key(r, "triage"); ok && o.Prefetch != nil {
		go rd.triage(context.WithoutCancel(ctx), r, d, o.Variant, *o.Prefetch)
	}
	st, err := rd.stats(ctx, r, d, o.Variant)
	if err != nil {
		return nil, err
	}
	sw, err := rd.sweep(ctx, r, d)
	if err != nil {
		return nil, err
	}
	runs, err := rd.st.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	ov := &Overview{View: v, Stats: st, Sweep: sw}
	ov.Sensitivity, _ = SensitivityPrefix(runNames(runs), r.Name)
	return ov, nil
}

// Sweep reads a run's sweep (SweepView). Errors: ENOTFOUND.
func (rd *Reader) Sweep(ctx context.Context, name string) (*SweepView, error) {
	r, d, err := rd.Run(ctx, name)
	if err != nil {
		return nil, err
	}
	return rd.sweep(ctx, r, d)
}

func (rd *Reader) sweep(ctx context.Context, r kgeval.Run, d Display) (*SweepView, error) {
	key, ok := rd.cache.key(r, "sweep")
	return cached(rd.cache, key, ok, func() (*SweepView, error) {
		pts, err := rd.st.RunSweep(ctx, r.Name)
		if err != nil {
			return nil, err
		}
		return NewSweepView(r.Name, d, pts), nil
	})
}

// Sample reads one sample of a run with its why (SampleView). Errors:
// ENOTFOUND for an unknown run or sample.
func (rd *Reader) Sample(ctx context.Context, run, id, variant string) (*SampleView, error) {
	_, d, err := rd.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	sd, err := rd.st.GetSample(ctx, run, id, variant, d.Pairs)
	if err != nil {
		return nil, err
	}
	sd.Delta = d.Delta
	return NewSampleView(sd), nil
}

// Samples reads a page of a run's samples as q filters and sorts them;
// for a finished run the order of the whole list is cached, so that
// paging does not sort again. Errors: ENOTFOUND for an unknown run,
// EINVALID for a bad sort, metric or page.
func (rd *Reader) Samples(ctx context.Context, q readmodel.SampleQuery) (*readmodel.SamplePage, error) {
	r, d, err := rd.Run(ctx, q.Run)
	if err != nil {
		return nil, err
	}
	key, ok := rd.cache.key(r, "samples", filterKey(q))
	if !ok {
		return rd.st.ListSamples(ctx, q, d.Pairs)
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 0 || q.Limit > readmodel.MaxPageSize || q.Offset < 0 {
		return rd.st.ListSamples(ctx, q, d.Pairs) // reports the bad page
	}
	order, err := cached(rd.cache, key, ok, func() ([]readmodel.SampleRow, error) { return rd.st.SampleOrder(ctx, q) })
	if err != nil {
		return nil, err
	}
	lo, hi := min(q.Offset, len(order)), min(q.Offset+q.Limit, len(order))
	page := &readmodel.SamplePage{Total: len(order), Offset: q.Offset, Limit: q.Limit, Samples: append([]readmodel.SampleRow(nil), order[lo:hi]...)}
	if err := rd.st.SampleScores(ctx, r.Name, q.Variant, page.Samples, d.Pairs, readmodel.OtherMetric(q.Metric)); err != nil {
		return nil, err
	}
	return page, nil
}

// filterKey is a sample query without its page, for cache keys.
func filterKey(q readmodel.SampleQuery) string {
	null := "-"
	if q.Null != nil {
		null = strconv.FormatBool(*q.Null)
	}
	return strings.Join([]string{strconv.Quote(q.Variant), strconv.Quote(q.Pair), strconv.Quote(q.Metric), strconv.Quote(q.Sort),
		strconv.FormatBool(q.Desc), keyNum(q.Min), keyNum(q.Max), null, keyStr(q.Reason), keyStr(q.System)}, " ")
}

// keyStr and keyNum write an optional filter value into a cache key ("-"
// when unset).
func keyStr(p *string) string {
	if p == nil {
		return "-"
	}
	return strconv.Quote(*p)
}

func keyNum(p *float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

func triageKey(q TriageQuery) string {
	return strings.Join([]string{strconv.Quote(q.Pair), keyStr(q.System), strconv.Quote(q.Metric), keyNum(q.Min), keyNum(q.Max), keyStr(q.Reason),
		strconv.Quote(q.Sort), strconv.FormatBool(q.Desc), strconv.Itoa(q.Limit)}, " ")
}

// Triage reads per pair of a run the samples that need attention
// (TriageIndex.Query), with the why of the first failing ones. Errors:
// ENOTFOUND for an unknown run, EINVALID for a bad query.
func (rd *Reader) Triage(ctx context.Context, run, variant string, q TriageQuery) (*Triage, error) {
	r, d, err := rd.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	return rd.triage(ctx, r, d, variant, q)
}

// triageRun is what the triage keeps of a finished run: the index of
// every row and the why of the samples it explained (by sample and pair),
// so that another filter over the same worst samples reads no sample again.
type triageRun struct {
	ix  *TriageIndex
	mu  sync.Mutex
	why map[string]RowWhy
}

// maxWhys bounds triageRun.why (then it starts again).
const maxWhys = 4096

// whyFetches is how many samples one triage request reads at once.
const whyFetches = 4

func (rd *Reader) triage(ctx context.Context, r kgeval.Run, d Display, variant string, q TriageQuery) (*Triage, error) {
	ixKey, ok := rd.cache.key(r, "triage-index", variant)
	tr, err := cached(rd.cache, ixKey, ok, func() (*triageRun, error) {
		rows, err := rd.st.RunKGScores(ctx, r.Name, variant)
		if err != nil {
			return nil, err
		}
		return &triageRun{ix: BuildTriageIndex(rows, d.Pairs, rd.o.Thresholds), why: map[string]RowWhy{}}, nil
	})
	if err != nil {
		return nil, err
	}
	// A range filter is not cached: its values are endless, and they would
	// push the index (and the run's other entries) out of the cache.
	key, _ := rd.cache.key(r, "triage", variant, triageKey(q))
	return cached(rd.cache, key, ok && q.Min == nil && q.Max == nil, func() (*Triage, error) {
		t, err := tr.ix.Query(q)
		if err != nil {
			return nil, err
		}
		t.Tau, t.Delta = d.Tau, d.Delta
		if err := rd.explainRows(ctx, tr, r.Name, variant, d.Pairs, t.WhyTargets()); err != nil {
			return nil, err
		}
		tr.mu.Lock()
		defer tr.mu.Unlock()
		t.AttachWhy(func(id, pair string) (RowWhy, bool) {
			w, ok := tr.why[kgeval.JoinKey(id, pair)]
			return w, ok
		})
		return t, nil
	})
}

// explainRows reads, for the targets tr has no why of yet, their samples
// with the pairs needed (whyFetches samples at a time), and keeps the why
// of each.
func (rd *Reader) explainRows(ctx context.Context, tr *triageRun, run, variant string, pairs []kgeval.Pair, targets []WhyTarget) error {
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
			d, err := rd.st.GetSample(gctx, run, id, variant, need[id])
			if err != nil {
				return err
			}
			whys := make(map[string]RowWhy, len(need[id]))
			for _, p := range need[id] {
				whys[p.Name] = WhyOfRow(d, p.Name)
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

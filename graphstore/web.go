package graphstore

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// This file holds the reads behind the dashboard and its JSON API: paged
// sample lists, one sample with its explanations, and a run's score
// distributions. Every query is a cypher/web_*.cypher file.

// WebQueries names the queries of the dashboard, for the test that checks
// they take parameters and splice no values.
var WebQueries = []string{"web_samples_page", "web_scores_by_uid", "web_sample_get", "web_run_scores", "web_run_systems",
	"web_metrics_by_uid", "web_sample_metrics", "web_run_metric_values", "web_run_metric_reasons", "web_run_sweep",
	"web_sample_verdicts"}

// RunSettings are the parts of a run's recorded configuration that the
// dashboard needs to show its scores.
type RunSettings struct {
	Pairs   []kgeval.Pair `json:"pairs"`
	Delta   float64       `json:"delta"`
	Tau     float64       `json:"tau"`
	Metrics []string      `json:"metrics"` // the KG metrics shown
}

// Settings reads the pairs, delta, tau and metrics from a run's recorded
// scoring settings, with the SPEC defaults for a run recorded without them.
func Settings(r kgeval.Run) RunSettings {
	def := kgeval.DefaultGraphParams()
	s := RunSettings{Delta: def.Delta, Tau: def.Tau}
	if r.Settings != nil {
		s.Pairs, s.Delta, s.Tau, s.Metrics = r.Settings.Pairs, r.Settings.Delta, r.Settings.Tau, r.Settings.Metrics
	}
	if len(s.Pairs) == 0 {
		s.Pairs = kgeval.DefaultPairs()
	}
	// scoring.metrics names metric families (kg, ts, ...) or, in older runs,
	// KG metrics; the dashboard's pair scores are the KG metrics either way.
	var kg []string
	for _, m := range s.Metrics {
		if isMetric(m) {
			kg = append(kg, m)
		}
	}
	s.Metrics = kg
	if len(s.Metrics) == 0 {
		s.Metrics = []string{kgeval.MetricMultihop, kgeval.MetricCommunityOverlap, kgeval.MetricCommunityCoverage,
			kgeval.MetricSupport, kgeval.MetricContradiction, kgeval.MetricSlotCoverage}
	}
	return s
}

// SampleSorts are the Sample properties a sample list can be sorted on,
// besides a score.
var SampleSorts = map[string]bool{"record": true, "id": true, "system": true}

// SampleQuery selects a page of a run's samples.
type SampleQuery struct {
	Run     string
	Variant string // empty: DefaultVariant
	// Metric names the score that Min, Max, Null and Reason filter and that
	// Sort "score" sorts on: a KG metric of Pair, or any other metric (a
	// MetricScore such as ts_groundedness_avg), for which Pair is ignored.
	Pair, Metric string
	Min, Max     *float64
	// Null keeps only samples whose score is null (true) or is not (false).
	Null   *bool
	Reason *string // exact null reason
	System *string
	// Sort is "record" (default), "id", "system" or "score".
	Sort   string
	Desc   bool
	Offset int
	Limit  int
	all    bool // every row, no scores (SampleOrder)
}

// SampleRow is one sample of a list with its scores per pair and, when the
// list is filtered or sorted by another metric, that metric's value.
type SampleRow struct {
	ID     string                      `json:"id"`
	Record int                         `json:"record"`
	System string                      `json:"system,omitempty"`
	Scores map[string]*kgeval.KGResult `json:"scores"`
	// Metrics maps metric name to value (without explanation); a metric the
	// sample has no value of is absent.
	Metrics map[string]*MetricValue `json:"metrics,omitempty"`
}

// SamplePage is one page of a sample list.
type SamplePage struct {
	Total   int         `json:"total"`
	Offset  int         `json:"offset"`
	Limit   int         `json:"limit"`
	Samples []SampleRow `json:"samples"`
}

// MaxPageSize caps SampleQuery.Limit.
const MaxPageSize = 500

// ListSamples returns a page of a run's samples, filtered and sorted, each
// with its scores for every pair of pairs. Errors: EINVALID for a bad sort,
// metric or page.
func (db *DB) ListSamples(ctx context.Context, q SampleQuery, pairs []kgeval.Pair) (*SamplePage, error) {
	if q.Variant == "" {
		q.Variant = DefaultVariant
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 0 || q.Limit > MaxPageSize || q.Offset < 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "page offset %d, limit %d: want offset >= 0 and 1 <= limit <= %d", q.Offset, q.Limit, MaxPageSize)
	}
	if q.Metric != "" && !isMetric(q.Metric) && !metricName.MatchString(q.Metric) {
		return nil, kgeval.Errorf(kgeval.EINVALID, "metric %q: want a KG metric (%s) or a metric name such as ts_groundedness_avg", q.Metric, strings.Join(kgeval.KGMetricNames, ", "))
	}
	kg := isMetric(q.Metric)
	filtersScore := q.Min != nil || q.Max != nil || q.Null != nil || q.Reason != nil || q.Sort == "score"
	if filtersScore && (q.Metric == "" || kg && q.Pair == "") {
		return nil, kgeval.Errorf(kgeval.EINVALID, "a score filter or sort needs a metric (and a pair for a KG metric)")
	}
	params := map[string]any{
		"run": q.Run, "variant": q.Variant, "sep": kgeval.KeySep, "pair": nil, "score": nil, "field": nil,
		"min": optional(q.Min), "max": optional(q.Max), "null": nil, "reason": nil, "system": nil,
		"by": nil, "desc": q.Desc, "offset": int64(q.Offset), "limit": int64(q.Limit),
	}
	switch {
	case kg && q.Pair != "":
		params["pair"], params["field"] = q.Pair, q.Metric
	case q.Metric != "" && !kg:
		params["score"], params["field"] = q.Metric, "value"
	}
	if q.all {
		params["limit"] = int64(1<<31 - 1 - q.Offset)
	}
	if q.Null != nil {
		params["null"] = *q.Null
	}
	if q.Reason != nil {
		params["reason"] = *q.Reason
	}
	if q.System != nil {
		params["system"] = *q.System
	}
	switch {
	case q.Sort == "" || q.Sort == "record":
		params["by"] = "record"
	case q.Sort == "score":
	case SampleSorts[q.Sort]:
		params["by"] = q.Sort
	default:
		return nil, kgeval.Errorf(kgeval.EINVALID, "sort %q: want record, id, system or score", q.Sort)
	}
	recs, err := db.read(ctx, cypher.MustGet("web_samples_page"), params)
	if err != nil {
		return nil, mapError(err, "list samples")
	}
	page := &SamplePage{Offset: q.Offset, Limit: q.Limit, Samples: []SampleRow{}}
	if len(recs) == 0 {
		return page, nil
	}
	m := recs[0].AsMap()
	page.Total = int(asInt(m["total"]))
	rows, _ := m["page"].([]any)
	for _, x := range rows {
		r, _ := x.(map[string]any)
		page.Samples = append(page.Samples, SampleRow{ID: asString(r["id"]), Record: int(asInt(r["record"])), System: asString(r["system"])})
	}
	if q.all {
		return page, nil
	}
	if err := db.SampleScores(ctx, q.Run, q.Variant, page.Samples, pairs, OtherMetric(q.Metric)); err != nil {
		return nil, err
	}
	return page, nil
}

// metricName is what a metric name other than a KG metric may look like.
var metricName = regexp.MustCompile(`^[a-z][a-z0-9_@]{0,63}$`)

// OtherMetric returns []string{metric} when metric names a metric other
// than the KG ones (a MetricScore), else nil: what a sample list shows
// beside the KG scores.
func OtherMetric(metric string) []string {
	if metric == "" || isMetric(metric) {
		return nil
	}
	return []string{metric}
}

// SampleOrder returns every sample that q selects, in q's order, without
// scores (q's Offset and Limit are ignored): a dashboard can keep it for a
// finished run and page through it with SampleScores.
func (db *DB) SampleOrder(ctx context.Context, q SampleQuery) ([]SampleRow, error) {
	q.Offset, q.Limit, q.all = 0, MaxPageSize, true
	p, err := db.ListSamples(ctx, q, nil)
	if err != nil {
		return nil, err
	}
	return p.Samples, nil
}

// SampleScores fills the Scores of rows (samples of run) for every pair and
// their Metrics for every metric named in metrics (MetricScore names).
func (db *DB) SampleScores(ctx context.Context, run, variant string, rows []SampleRow, pairs []kgeval.Pair, metrics []string) error {
	if variant == "" {
		variant = DefaultVariant
	}
	index := map[string]int{}
	var uids []any
	for i := range rows {
		rows[i].Scores = map[string]*kgeval.KGResult{}
		index[rows[i].ID] = i
		for _, p := range pairs {
			uids = append(uids, kgeval.JoinKey(run, rows[i].ID, p.Name, variant))
		}
	}
	scores, err := db.scoresByUID(ctx, uids)
	if err != nil {
		return err
	}
	for _, s := range scores {
		if i, ok := index[s.Sample]; ok {
			rows[i].Scores[s.Pair] = &s.KGResult
		}
	}
	if len(metrics) == 0 {
		return nil
	}
	var muids []any
	for i := range rows {
		rows[i].Metrics = map[string]*MetricValue{}
		for _, m := range metrics {
			muids = append(muids, kgeval.JoinKey(run, rows[i].ID, m))
		}
	}
	values, err := db.metricsByUID(ctx, muids)
	if err != nil {
		return err
	}
	for sample, vs := range values {
		if i, ok := index[sample]; ok {
			for j := range vs {
				rows[i].Metrics[vs[j].Metric] = &vs[j]
			}
		}
	}
	return nil
}

// WebScore is a stored score as the dashboard shows it.
type WebScore struct {
	kgeval.KGResult
	Engine string   `json:"engine,omitempty"`
	Tau    *float64 `json:"tau,omitempty"`
	Delta  *float64 `json:"delta,omitempty"`
}

func (db *DB) scoresByUID(ctx context.Context, uids []any) ([]WebScore, error) {
	if len(uids) == 0 {
		return nil, nil
	}
	recs, err := db.read(ctx, cypher.MustGet("web_scores_by_uid"), map[string]any{"uids": uids})
	if err != nil {
		return nil, mapError(err, "read scores")
	}
	out := make([]WebScore, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, WebScore{
			KGResult: kgResultFrom(asString(m["sample"]), m["score"]),
			Engine:   asString(m["engine"]), Tau: floatOrNil(m["tau"]), Delta: floatOrNil(m["delta"]),
		})
	}
	return out, nil
}

// TripletRow is one stored triplet of a pair graph side.
type TripletRow struct {
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	Passage  int    `json:"passage"`
}

// PairDetail is one pair of a sample: its scores, its triplets per side and
// each input entity's best path with labels.
type PairDetail struct {
	Pair    kgeval.Pair         `json:"pair"`
	Score   *WebScore           `json:"score"`
	Input   []TripletRow        `json:"input_triplets"`
	Context []TripletRow        `json:"context_triplets"`
	Paths   []kgeval.EntityPath `json:"paths"`
	Nodes   int                 `json:"nodes"`
	Edges   int                 `json:"edges"`
	Stored  bool                `json:"stored"`
}

// SampleDetail is one sample with its texts, scores and explanations.
type SampleDetail struct {
	Run       string         `json:"run"`
	ID        string         `json:"id"`
	Record    int            `json:"record"`
	System    string         `json:"system,omitempty"`
	Question  string         `json:"question"`
	Answer    string         `json:"answer"`
	Reference string         `json:"reference"`
	Contexts  []string       `json:"contexts"`
	Human     map[string]any `json:"human,omitempty"`
	Delta     float64        `json:"delta"`
	Pairs     []PairDetail   `json:"pairs"`
	// Metrics are the sample's other metric values (triplet similarity,
	// encoder and LLM-judged metrics) with their explanations.
	Metrics []MetricValue `json:"metrics"`
	// Grounding is the grounding check of the sample's extracted texts (SPEC
	// §2b), per text and passage: triplets kept and dropped with the
	// reason; empty when no text was extracted with the check on.
	Grounding []kgeval.Grounding `json:"grounding"`
}

// GetSample reads one sample of a run with its scores and triplet verdicts,
// the triplets of every pair graph, the best path of every input entity,
// its other metric values with their explanations and its grounding check.
// Errors: ENOTFOUND.
func (db *DB) GetSample(ctx context.Context, run, id, variant string, settings RunSettings) (*SampleDetail, error) {
	if variant == "" {
		variant = DefaultVariant
	}
	recs, err := db.read(ctx, cypher.MustGet("web_sample_get"), map[string]any{"uid": kgeval.JoinKey(run, id)})
	if err != nil {
		return nil, mapError(err, "read sample")
	}
	if len(recs) == 0 {
		return nil, kgeval.Errorf(kgeval.ENOTFOUND, "no sample %q in run %q", id, run)
	}
	m := recs[0].AsMap()
	d := &SampleDetail{Run: run, ID: asString(m["id"]), Record: int(asInt(m["record"])), System: asString(m["system"]),
		Question: asString(m["question"]), Answer: asString(m["answer"]), Reference: asString(m["reference"]), Delta: settings.Delta}
	ctxs, _ := m["contexts"].([]any)
	for _, c := range ctxs {
		d.Contexts = append(d.Contexts, asString(c))
	}
	if h := asString(m["human"]); h != "" && h != "null" {
		_ = json.Unmarshal([]byte(h), &d.Human) // labels are optional; a bad one is not worth failing the page
	}
	decodeJSONText(m["grounding"], &d.Grounding)
	if d.Grounding == nil {
		d.Grounding = []kgeval.Grounding{}
	}
	var uids []any
	for _, p := range settings.Pairs {
		uids = append(uids, kgeval.JoinKey(GraphID(run, id, p.Name), variant))
	}
	scores, err := db.scoresByUID(ctx, uids)
	if err != nil {
		return nil, err
	}
	byPair := map[string]*WebScore{}
	for i := range scores {
		byPair[scores[i].Pair] = &scores[i]
	}
	if err := db.readVerdicts(ctx, uids, byPair); err != nil {
		return nil, err
	}
	for _, p := range settings.Pairs {
		pd := PairDetail{Pair: p, Score: byPair[p.Name], Input: []TripletRow{}, Context: []TripletRow{}, Paths: []kgeval.EntityPath{}}
		g, err := db.ReadGraphExplanation(ctx, run, id, p.Name)
		switch kgeval.ErrorCode(err) {
		case "":
			pd.Stored = true
			pd.Nodes, pd.Edges = len(g.Nodes), len(g.Edges)
			pd.Input, pd.Context = Triplets(g.PairGraph)
			pd.Paths = g.EntityPaths()
		case kgeval.ENOTFOUND:
		default:
			return nil, err
		}
		d.Pairs = append(d.Pairs, pd)
	}
	if d.Metrics, err = db.sampleMetrics(ctx, run, id); err != nil {
		return nil, err
	}
	return d, nil
}

// readVerdicts fills the Verdicts of the scores of byPair (by pair name)
// from the PairScores of uids; the sample lists leave them out.
func (db *DB) readVerdicts(ctx context.Context, uids []any, byPair map[string]*WebScore) error {
	if len(uids) == 0 {
		return nil
	}
	recs, err := db.read(ctx, cypher.MustGet("web_sample_verdicts"), map[string]any{"uids": uids})
	if err != nil {
		return mapError(err, "read verdicts")
	}
	for _, r := range recs {
		m := r.AsMap()
		if s := byPair[asString(m["pair"])]; s != nil {
			decodeJSONText(m["verdicts"], &s.Verdicts)
		}
	}
	return nil
}

// Triplets recovers the triplets of each side of g from its relation nodes:
// head -[REL]-> relation -[REL]-> tail.
func Triplets(g *kgeval.PairGraph) (input, context []TripletRow) {
	head := map[int]int{}
	tail := map[int]int{}
	for _, e := range g.Edges {
		if e.Type != kgeval.EdgeStructural {
			continue
		}
		if g.Nodes[e.To].Kind == kgeval.KindRelation {
			head[e.To] = e.From
		} else {
			tail[e.From] = e.To
		}
	}
	input, context = []TripletRow{}, []TripletRow{}
	for _, n := range g.Nodes {
		if n.Kind != kgeval.KindRelation {
			continue
		}
		h, ok1 := head[n.ID]
		t, ok2 := tail[n.ID]
		if !ok1 || !ok2 {
			continue
		}
		row := TripletRow{Subject: g.Nodes[h].Label, Relation: n.Label, Object: g.Nodes[t].Label, Passage: n.Passage}
		if n.Side == kgeval.SideInput {
			input = append(input, row)
		} else {
			context = append(context, row)
		}
	}
	return input, context
}

// EntityPaths returns the multihop explanation of every input entity, in
// node order, with the labels of its best path.
func (g *GraphExplanation) EntityPaths() []kgeval.EntityPath {
	out := []kgeval.EntityPath{}
	for _, id := range g.InputEntities() {
		ep := kgeval.EntityPath{Node: id, Label: g.Nodes[id].Label}
		if p, ok := g.Paths[id]; ok {
			ep.Cost, ep.Passed, ep.PathIDs = p.Cost, p.Passed, p.Path
			for _, n := range p.Path {
				if n >= 0 && n < len(g.Nodes) {
					ep.Path = append(ep.Path, g.Nodes[n].Label)
				}
			}
		}
		out = append(out, ep)
	}
	return out
}

// Histogram counts scores in Bins equal-width bins over [0, 1]; the last
// bin holds 1.
type Histogram struct {
	Pair   string   `json:"pair"`
	Metric string   `json:"metric"`
	Counts []int    `json:"counts"`
	Nulls  int      `json:"nulls"`
	Mean   *float64 `json:"mean"`
}

// SystemStats is the mean of each pair and metric over one system's samples.
type SystemStats struct {
	System string `json:"system"`
	// Means maps "pair.metric" (KG scores) or a metric name (other metrics)
	// to the mean; a key is absent when every value is null.
	Means map[string]*float64 `json:"means"`
	// Scored maps the same keys to how many non-null values the mean is over.
	Scored map[string]int `json:"scored"`
	Graphs int            `json:"graphs"`
}

// ReasonCount is how many null scores of a pair have a reason.
type ReasonCount struct {
	Pair   string `json:"pair"`
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// RunStats are a run's score distributions, per-system means and null
// reasons: the KG scores per pair (Histograms, Reasons) and the other
// metric values (Metrics).
type RunStats struct {
	Bins       int           `json:"bins"`
	Histograms []Histogram   `json:"histograms"`
	Systems    []SystemStats `json:"systems"`
	Reasons    []ReasonCount `json:"reasons"`
	Metrics    []MetricStat  `json:"metrics"`
}

// HistogramBins is the number of bins of RunStats histograms.
const HistogramBins = 10

// RunStats computes a run's distributions from its stored scores and
// metric values.
func (db *DB) RunStats(ctx context.Context, run, variant string, settings RunSettings) (*RunStats, error) {
	if variant == "" {
		variant = DefaultVariant
	}
	recs, err := db.read(ctx, cypher.MustGet("web_run_scores"), map[string]any{"run": run, "variant": variant, "sep": kgeval.KeySep})
	if err != nil {
		return nil, mapError(err, "read run scores")
	}
	st := &RunStats{Bins: HistogramBins, Histograms: []Histogram{}, Systems: []SystemStats{}, Reasons: []ReasonCount{}}
	hist := map[string]*Histogram{}
	sums := map[string]float64{}
	for _, p := range settings.Pairs {
		for _, m := range settings.Metrics {
			st.Histograms = append(st.Histograms, Histogram{Pair: p.Name, Metric: m, Counts: make([]int, HistogramBins)})
		}
	}
	for i := range st.Histograms {
		h := &st.Histograms[i]
		hist[h.Pair+"."+h.Metric] = h
	}
	systems := map[string]*SystemStats{}
	sysSums := map[string]map[string]float64{}
	reasons := map[[2]string]int{}
	for _, r := range recs {
		m := r.AsMap()
		pair, system := asString(m["pair"]), asString(m["system"])
		score := kgResultFrom("", m["score"])
		ss := systems[system]
		if ss == nil {
			ss = &SystemStats{System: system, Means: map[string]*float64{}, Scored: map[string]int{}}
			systems[system] = ss
			sysSums[system] = map[string]float64{}
		}
		ss.Graphs++
		nullSeen := false
		for _, metric := range settings.Metrics {
			key := pair + "." + metric
			h := hist[key]
			if h == nil {
				continue
			}
			v := score.Value(metric)
			if v == nil {
				if !kgeval.NotApplicable(score.ReasonFor(metric)) {
					h.Nulls++
					nullSeen = true
				}
				continue
			}
			b := int(math.Floor(*v * HistogramBins))
			b = max(0, min(b, HistogramBins-1))
			h.Counts[b]++
			sums[key] += *v
			ss.Scored[key]++
			sysSums[system][key] += *v
		}
		if nullSeen {
			reasons[[2]string{pair, score.Reason}]++
		}
	}
	for i := range st.Histograms {
		h := &st.Histograms[i]
		n := 0
		for _, c := range h.Counts {
			n += c
		}
		if n > 0 {
			h.Mean = kgeval.Float(sums[h.Pair+"."+h.Metric] / float64(n))
		}
	}
	// Histograms of verdict metrics without a value (recall outside the
	// reference pair, a verify that is off) are left out.
	kept := st.Histograms[:0]
	for _, h := range st.Histograms {
		n := 0
		for _, c := range h.Counts {
			n += c
		}
		if n > 0 || kgeval.GraphMetric(h.Metric) {
			kept = append(kept, h)
		}
	}
	st.Histograms = kept
	for name, ss := range systems {
		for key, n := range ss.Scored {
			ss.Means[key] = kgeval.Float(sysSums[name][key] / float64(n))
		}
	}
	if err := db.metricStats(ctx, run, st, systems); err != nil {
		return nil, err
	}
	for _, ss := range systems {
		st.Systems = append(st.Systems, *ss)
	}
	sort.Slice(st.Systems, func(i, j int) bool { return st.Systems[i].System < st.Systems[j].System })
	for k, n := range reasons {
		st.Reasons = append(st.Reasons, ReasonCount{Pair: k[0], Reason: k[1], Count: n})
	}
	sort.Slice(st.Reasons, func(i, j int) bool {
		if st.Reasons[i].Count != st.Reasons[j].Count {
			return st.Reasons[i].Count > st.Reasons[j].Count
		}
		return st.Reasons[i].Pair+st.Reasons[i].Reason < st.Reasons[j].Pair+st.Reasons[j].Reason
	})
	return st, nil
}

// SystemCount is a system of a run and how many samples it answered.
type SystemCount struct {
	System  string `json:"system"`
	Samples int    `json:"samples"`
}

// RunSystems lists the systems of a run's samples.
func (db *DB) RunSystems(ctx context.Context, run string) ([]SystemCount, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_run_systems"), map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "list systems")
	}
	out := []SystemCount{}
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, SystemCount{System: asString(m["system"]), Samples: int(asInt(m["samples"]))})
	}
	return out, nil
}

func isMetric(m string) bool { return slices.Contains(kgeval.KGMetricNames, m) }

func nilIfEmpty(s string) any {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return s
}

func floatOrNil(x any) *float64 {
	switch v := x.(type) {
	case float64:
		return &v
	case int64:
		f := float64(v)
		return &f
	}
	return nil
}

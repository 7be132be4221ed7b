package graphstore

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
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

// ListSamples returns a page of a run's samples, filtered and sorted, each
// with its scores for every pair of pairs. Errors: EINVALID for a bad sort,
// metric or page.
func (db *DB) ListSamples(ctx context.Context, q kgeval.SampleQuery, pairs []kgeval.Pair) (*kgeval.SamplePage, error) {
	return db.listSamples(ctx, q, pairs, false)
}

// listSamples is ListSamples; with all, it returns every row, without
// scores (SampleOrder).
func (db *DB) listSamples(ctx context.Context, q kgeval.SampleQuery, pairs []kgeval.Pair, all bool) (*kgeval.SamplePage, error) {
	if q.Variant == "" {
		q.Variant = kgeval.DefaultVariant
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 0 || q.Limit > kgeval.MaxPageSize || q.Offset < 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "page offset %d, limit %d: want offset >= 0 and 1 <= limit <= %d", q.Offset, q.Limit, kgeval.MaxPageSize)
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
	if all {
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
	case kgeval.SampleSorts[q.Sort]:
		params["by"] = q.Sort
	default:
		return nil, kgeval.Errorf(kgeval.EINVALID, "sort %q: want record, id, system or score", q.Sort)
	}
	recs, err := db.read(ctx, cypher.MustGet("web_samples_page"), params)
	if err != nil {
		return nil, mapError(err, "list samples")
	}
	page := &kgeval.SamplePage{Offset: q.Offset, Limit: q.Limit, Samples: []kgeval.SampleRow{}}
	if len(recs) == 0 {
		return page, nil
	}
	m := recs[0].AsMap()
	page.Total = int(asInt(m["total"]))
	rows, _ := m["page"].([]any)
	for _, x := range rows {
		r, _ := x.(map[string]any)
		page.Samples = append(page.Samples, kgeval.SampleRow{ID: asString(r["id"]), Record: int(asInt(r["record"])), System: asString(r["system"])})
	}
	if all {
		return page, nil
	}
	if err := db.SampleScores(ctx, q.Run, q.Variant, page.Samples, pairs, kgeval.OtherMetric(q.Metric)); err != nil {
		return nil, err
	}
	return page, nil
}

// metricName is what a metric name other than a KG metric may look like.
var metricName = regexp.MustCompile(`^[a-z][a-z0-9_@]{0,63}$`)

// SampleOrder returns every sample that q selects, in q's order, without
// scores (q's Offset and Limit are ignored): a dashboard can keep it for a
// finished run and page through it with kgeval.SampleScores.
func (db *DB) SampleOrder(ctx context.Context, q kgeval.SampleQuery) ([]kgeval.SampleRow, error) {
	q.Offset, q.Limit = 0, kgeval.MaxPageSize
	p, err := db.listSamples(ctx, q, nil, true)
	if err != nil {
		return nil, err
	}
	return p.Samples, nil
}

// SampleScores fills the Scores of rows (samples of run) for every pair and
// their Metrics for every metric named in metrics (MetricScore names).
func (db *DB) SampleScores(ctx context.Context, run, variant string, rows []kgeval.SampleRow, pairs []kgeval.Pair, metrics []string) error {
	if variant == "" {
		variant = kgeval.DefaultVariant
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
		rows[i].Metrics = map[string]*kgeval.MetricValue{}
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

func (db *DB) scoresByUID(ctx context.Context, uids []any) ([]kgeval.StoredScore, error) {
	if len(uids) == 0 {
		return nil, nil
	}
	recs, err := db.read(ctx, cypher.MustGet("web_scores_by_uid"), map[string]any{"uids": uids})
	if err != nil {
		return nil, mapError(err, "read scores")
	}
	out := make([]kgeval.StoredScore, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, kgeval.StoredScore{
			KGResult: kgResultFrom(asString(m["sample"]), m["score"]),
			Engine:   asString(m["engine"]), Tau: floatOrNil(m["tau"]), Delta: floatOrNil(m["delta"]),
		})
	}
	return out, nil
}

// GetSample reads one sample of a run with its scores and triplet verdicts
// for every one of pairs, the triplets of every pair graph, the best path of
// every input entity, its other metric values with their explanations and
// its grounding check (Delta is left for the caller). Errors: ENOTFOUND.
func (db *DB) GetSample(ctx context.Context, run, id, variant string, pairs []kgeval.Pair) (*kgeval.SampleDetail, error) {
	if variant == "" {
		variant = kgeval.DefaultVariant
	}
	recs, err := db.read(ctx, cypher.MustGet("web_sample_get"), map[string]any{"uid": kgeval.JoinKey(run, id)})
	if err != nil {
		return nil, mapError(err, "read sample")
	}
	if len(recs) == 0 {
		return nil, kgeval.Errorf(kgeval.ENOTFOUND, "no sample %q in run %q", id, run)
	}
	m := recs[0].AsMap()
	d := &kgeval.SampleDetail{Run: run, ID: asString(m["id"]), Record: int(asInt(m["record"])), System: asString(m["system"]),
		Question: asString(m["question"]), Answer: asString(m["answer"]), Reference: asString(m["reference"])}
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
	for _, p := range pairs {
		uids = append(uids, kgeval.JoinKey(kgeval.GraphID(run, id, p.Name), variant))
	}
	scores, err := db.scoresByUID(ctx, uids)
	if err != nil {
		return nil, err
	}
	byPair := map[string]*kgeval.StoredScore{}
	for i := range scores {
		byPair[scores[i].Pair] = &scores[i]
	}
	if err := db.readVerdicts(ctx, uids, byPair); err != nil {
		return nil, err
	}
	for _, p := range pairs {
		pd := kgeval.PairDetail{Pair: p, Score: byPair[p.Name], Input: []kgeval.TripletRow{}, Context: []kgeval.TripletRow{}, Paths: []kgeval.EntityPath{}}
		g, err := db.ReadGraphExplanation(ctx, run, id, p.Name)
		switch kgeval.ErrorCode(err) {
		case "":
			pd.Stored = true
			pd.Nodes, pd.Edges = len(g.Nodes), len(g.Edges)
			in, cx := g.Triplets()
			pd.Input, pd.Context = kgeval.TripletRows(in), kgeval.TripletRows(cx)
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
func (db *DB) readVerdicts(ctx context.Context, uids []any, byPair map[string]*kgeval.StoredScore) error {
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

// RunSystems lists the systems of a run's samples.
func (db *DB) RunSystems(ctx context.Context, run string) ([]kgeval.SystemCount, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_run_systems"), map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "list systems")
	}
	out := []kgeval.SystemCount{}
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, kgeval.SystemCount{System: asString(m["system"]), Samples: int(asInt(m["samples"]))})
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

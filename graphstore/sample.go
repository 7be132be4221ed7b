package graphstore

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/scoring"
)

// Queries, resolved when the package loads.
var (
	qSampleWrite          = statement("sample_write")
	qSampleGroundingWrite = statement("sample_grounding_write")
	qSampleGroundingRead  = statement("sample_grounding_read")
	qSamplePage           = statement("sample_page")
	qSampleGet            = statement("sample_get")
	qSampleRows           = statement("sample_rows")
	qKgscoreRun           = statement("kgscore_run")
	qMetricscoreRun       = statement("metricscore_run")
)

// sampleSorts are the Sample properties a sample list can be sorted on,
// besides a score.
var sampleSorts = map[string]bool{"record": true, "id": true, "system": true}

// Sample nodes: a run's samples with their grounding check, and the reads
// that return samples with their scores.

// WriteSamples stores the samples of a run.
func (db *DB) WriteSamples(ctx context.Context, run string, samples []kgeval.Sample) error {
	rows := make([]any, 0, len(samples))
	for _, s := range samples {
		human, _ := json.Marshal(s.Human)
		ctxs := make([]any, len(s.Contexts))
		for i, c := range s.Contexts {
			ctxs[i] = c
		}
		rows = append(rows, map[string]any{"uid": kgeval.JoinKey(run, s.ID), "run": run, "id": s.ID, "record": s.Record,
			"question": s.Question, "answer": s.Answer, "reference": s.Reference, "contexts": ctxs,
			"system": s.System, "human": string(human)})
	}
	for lo := 0; lo < len(rows); lo += 1000 {
		if _, err := db.write(ctx, qSampleWrite, map[string]any{"rows": rows[lo:min(lo+1000, len(rows))]}); err != nil {
			return mapError(err, "write samples")
		}
	}
	return nil
}

// WriteGrounding stores the grounding check of each sample's texts on its
// Sample node (which WriteRunSamples wrote): the list as JSON text and the
// kept and dropped totals. Rewriting replaces.
func (db *DB) WriteGrounding(ctx context.Context, run string, gs []kgeval.Grounding) error {
	bySample := map[string][]kgeval.Grounding{}
	var order []string
	for _, g := range gs {
		if _, ok := bySample[g.Sample]; !ok {
			order = append(order, g.Sample)
		}
		bySample[g.Sample] = append(bySample[g.Sample], g)
	}
	sort.Strings(order)
	rows := make([]any, 0, len(order))
	for _, id := range order {
		list := bySample[id]
		kept, dropped := 0, 0
		for _, g := range list {
			kept += g.Kept
			dropped += len(g.Dropped)
		}
		b, err := json.Marshal(list)
		if err != nil {
			return kgeval.Wrap(kgeval.EINTERNAL, err, "encode grounding of %s", id)
		}
		rows = append(rows, map[string]any{"uid": kgeval.JoinKey(run, id), "grounding": string(b), "kept": kept, "dropped": dropped})
	}
	for lo := 0; lo < len(rows); lo += 1000 {
		if _, err := db.write(ctx, qSampleGroundingWrite, map[string]any{"rows": rows[lo:min(lo+1000, len(rows))]}); err != nil {
			return mapError(err, "write grounding")
		}
	}
	return nil
}

// SampleGrounding reads the grounding check stored for one sample of run
// (nil when none was stored). Errors: ENOTFOUND for an unknown sample.
func (db *DB) SampleGrounding(ctx context.Context, run, sample string) ([]kgeval.Grounding, error) {
	recs, err := db.read(ctx, qSampleGroundingRead, map[string]any{"uid": kgeval.JoinKey(run, sample)})
	if err != nil {
		return nil, mapError(err, "read grounding")
	}
	if len(recs) == 0 {
		return nil, kgeval.Errorf(kgeval.ENOTFOUND, "no sample %q in run %q", sample, run)
	}
	var out []kgeval.Grounding
	v, _ := recs[0].Get("grounding")
	decodeJSONText(v, &out)
	return out, nil
}

// ListSamples returns a page of a run's samples, filtered and sorted, each
// with its scores for every pair of pairs. Errors: EINVALID for a bad sort,
// metric or page.
func (db *DB) ListSamples(ctx context.Context, q readmodel.SampleQuery, pairs []kgeval.Pair) (*readmodel.SamplePage, error) {
	return db.listSamples(ctx, q, pairs, false)
}

// listSamples is ListSamples; with all, it returns every row, without
// scores (SampleOrder).
func (db *DB) listSamples(ctx context.Context, q readmodel.SampleQuery, pairs []kgeval.Pair, all bool) (*readmodel.SamplePage, error) {
	if q.Variant == "" {
		q.Variant = kgeval.DefaultVariant
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 0 || q.Limit > readmodel.MaxPageSize || q.Offset < 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "page offset %d, limit %d: want offset >= 0 and 1 <= limit <= %d", q.Offset, q.Limit, readmodel.MaxPageSize)
	}
	if q.Metric != "" && metricreg.MetricFamily(q.Metric) != metricreg.FamilyKG && !metricName.MatchString(q.Metric) {
		return nil, kgeval.Errorf(kgeval.EINVALID, "metric %q: want a KG metric (%s) or a metric name such as ts_groundedness_avg", q.Metric, strings.Join(metricreg.KGMetricNames, ", "))
	}
	kg := metricreg.MetricFamily(q.Metric) == metricreg.FamilyKG
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
	case sampleSorts[q.Sort]:
		params["by"] = q.Sort
	default:
		return nil, kgeval.Errorf(kgeval.EINVALID, "sort %q: want record, id, system or score", q.Sort)
	}
	recs, err := db.read(ctx, qSamplePage, params)
	if err != nil {
		return nil, mapError(err, "list samples")
	}
	page := &readmodel.SamplePage{Offset: q.Offset, Limit: q.Limit, Samples: []readmodel.SampleRow{}}
	if len(recs) == 0 {
		return page, nil
	}
	m := recs[0].AsMap()
	page.Total = int(asInt(m["total"]))
	rows, _ := m["page"].([]any)
	for _, x := range rows {
		r, _ := x.(map[string]any)
		page.Samples = append(page.Samples, readmodel.SampleRow{ID: asString(r["id"]), Record: int(asInt(r["record"])), System: asString(r["system"])})
	}
	if all {
		return page, nil
	}
	if err := db.SampleScores(ctx, q.Run, q.Variant, page.Samples, pairs, readmodel.OtherMetric(q.Metric)); err != nil {
		return nil, err
	}
	return page, nil
}

// metricName is what a metric name other than a KG metric may look like.
var metricName = regexp.MustCompile(`^[a-z][a-z0-9_@]{0,63}$`)

// SampleOrder returns every sample that q selects, in q's order, without
// scores (q's Offset and Limit are ignored): a dashboard can keep it for a
// finished run and page through it with readmodel.SampleScores.
func (db *DB) SampleOrder(ctx context.Context, q readmodel.SampleQuery) ([]readmodel.SampleRow, error) {
	q.Offset, q.Limit = 0, readmodel.MaxPageSize
	p, err := db.listSamples(ctx, q, nil, true)
	if err != nil {
		return nil, err
	}
	return p.Samples, nil
}

// SampleScores fills the Scores of rows (samples of run) for every pair and
// their Metrics for every metric named in metrics (MetricScore names).
func (db *DB) SampleScores(ctx context.Context, run, variant string, rows []readmodel.SampleRow, pairs []kgeval.Pair, metrics []string) error {
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
		rows[i].Metrics = map[string]*readmodel.MetricValue{}
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

// GetSample reads one sample of a run with its scores and triplet verdicts
// for every one of pairs, the triplets of every pair graph, the best path of
// every input entity, its other metric values with their explanations and
// its grounding check (Delta is left for the caller). Errors: ENOTFOUND.
func (db *DB) GetSample(ctx context.Context, run, id, variant string, pairs []kgeval.Pair) (*readmodel.SampleDetail, error) {
	if variant == "" {
		variant = kgeval.DefaultVariant
	}
	recs, err := db.read(ctx, qSampleGet, map[string]any{"uid": kgeval.JoinKey(run, id)})
	if err != nil {
		return nil, mapError(err, "read sample")
	}
	if len(recs) == 0 {
		return nil, kgeval.Errorf(kgeval.ENOTFOUND, "no sample %q in run %q", id, run)
	}
	m := recs[0].AsMap()
	d := &readmodel.SampleDetail{Run: run, ID: asString(m["id"]), Record: int(asInt(m["record"])), System: asString(m["system"]),
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
	byPair := map[string]*readmodel.StoredScore{}
	for i := range scores {
		byPair[scores[i].Pair] = &scores[i]
	}
	if err := db.readVerdicts(ctx, uids, byPair); err != nil {
		return nil, err
	}
	for _, p := range pairs {
		pd := readmodel.PairDetail{Pair: p, Score: byPair[p.Name], Input: []readmodel.TripletRow{}, Context: []readmodel.TripletRow{}, Paths: []kgeval.EntityPath{}}
		g, err := db.ReadGraphExplanation(ctx, run, id, p.Name)
		switch kgeval.ErrorCode(err) {
		case "":
			pd.Stored = true
			pd.Nodes, pd.Edges = len(g.Nodes), len(g.Edges)
			in, cx := scoring.GraphTriplets(g.PairGraph)
			pd.Input, pd.Context = tripletRows(in), tripletRows(cx)
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

// RunScores returns the rows ExportScores returns, read with three scans —
// the run's samples, the variant's KG scores, the run's other metric values
// — joined here. Its cost grows with the size of the run, where
// ExportScores' lookup per sample grows with its square: on a 10,001-sample
// run with 19 metric values per sample ExportScores exceeded the 2-minute
// query timeout, and `kgeval compare` over this read took 14 s in all.
func (db *DB) RunScores(ctx context.Context, run, variant string) ([]readmodel.SampleScores, error) {
	return db.runScores(ctx, run, variant, true)
}

// RunKGScores returns the rows of RunScores without the other metric
// values (two scans): what the dashboard's triage reads.
func (db *DB) RunKGScores(ctx context.Context, run, variant string) ([]readmodel.SampleScores, error) {
	return db.runScores(ctx, run, variant, false)
}

func (db *DB) runScores(ctx context.Context, run, variant string, metrics bool) ([]readmodel.SampleScores, error) {
	recs, err := db.read(ctx, qSampleRows, map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read samples")
	}
	out := make([]readmodel.SampleScores, 0, len(recs))
	index := make(map[string]int, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		row := readmodel.SampleScores{ID: asString(m["id"]), Record: int(asInt(m["record"])), System: asString(m["system"]),
			Question: asString(m["question"]), Human: asString(m["human"]), Scores: map[string]kgeval.KGResult{}, Metrics: map[string]kgeval.MetricScore{}}
		index[row.ID] = len(out)
		out = append(out, row)
	}
	if recs, err = db.read(ctx, qKgscoreRun, map[string]any{"run": run, "variant": variant}); err != nil {
		return nil, mapError(err, "read scores")
	}
	for _, r := range recs {
		m := r.AsMap()
		i, ok := index[asString(m["sample"])]
		if !ok {
			continue
		}
		r := kgResultFrom(out[i].ID, m["score"])
		out[i].Scores[r.Pair] = r
	}
	if !metrics {
		return out, nil
	}
	if recs, err = db.read(ctx, qMetricscoreRun, map[string]any{"run": run}); err != nil {
		return nil, mapError(err, "read metric scores")
	}
	for _, r := range recs {
		m := r.AsMap()
		i, ok := index[asString(m["sample"])]
		if !ok {
			continue
		}
		s := kgeval.MetricScore{Sample: out[i].ID, Metric: asString(m["metric"]), Family: asString(m["family"]), Value: optFloat(m["value"]), Reason: asString(m["reason"])}
		out[i].Metrics[s.Metric] = s
	}
	return out, nil
}

// tripletRows turns triplets into rows.
func tripletRows(ts []kgeval.Triplet) []readmodel.TripletRow {
	out := make([]readmodel.TripletRow, 0, len(ts))
	for _, t := range ts {
		out = append(out, readmodel.TripletRow{Subject: t.Subject, Relation: t.Relation, Object: t.Object, Passage: t.Passage})
	}
	return out
}

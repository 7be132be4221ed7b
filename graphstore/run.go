package graphstore

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// Queries, resolved when the package loads.
var (
	qRunCreate             = statement("run_create")
	qRunGet                = statement("run_get")
	qRunList               = statement("run_list")
	qRunUpdate             = statement("run_update")
	qKgscorePairMeans      = statement("kgscore_pair_means")
	qSampleSystems         = statement("sample_systems")
	qKgscoreVariants       = statement("kgscore_variants")
	qKgscoreSweepMeans     = statement("kgscore_sweep_means")
	qCacheUntagRun         = statement("cache_untag_run")
	qRunDeleteSamples      = statement("run_delete_samples")
	qRunDeleteRecord       = statement("run_delete_record")
	qRunDeleteScores       = statement("run_delete_scores")
	qRunDeleteMetricScores = statement("run_delete_metric_scores")
	qRunDeleteGraphs       = statement("run_delete_graphs")
	qRunCleanRecord        = statement("run_clean_record")
)

// Run nodes: the records of runs, and the reads that span a run.

// CreateRun records a new run. Errors: ECONFLICT when the name is taken.
func (db *DB) CreateRun(ctx context.Context, r kgeval.Run) error {
	_, err := db.write(ctx, qRunCreate, map[string]any{"run": map[string]any{
		"name": r.Name, "dataset": r.Dataset, "fingerprint": r.Fingerprint, "config": r.Config,
		"llm": r.LLM, "encoder": r.Encoder, "engine": r.Engine, "status": r.Status,
		"samples": r.Samples, "rejected": r.Rejected, "started": r.Started,
	}})
	if err = mapError(err, "record run "+r.Name); kgeval.ErrorCode(err) == kgeval.ECONFLICT {
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q exists", r.Name)
	}
	return err
}

// RewriteRunRecord sets the recorded configuration and dataset of the run
// was.Name to now's, when they are still was's (a run recorded or resumed
// meanwhile is left alone): the migration of issue 49
// (pipeline.CleanRunRecords). It reports whether it rewrote them.
func (db *DB) RewriteRunRecord(ctx context.Context, was, now kgeval.Run) (bool, error) {
	recs, err := db.write(ctx, qRunCleanRecord, map[string]any{"name": was.Name, "was_config": was.Config, "was_dataset": was.Dataset,
		"config": now.Config, "dataset": now.Dataset})
	if err != nil {
		return false, mapError(err, "rewrite the record of run "+was.Name)
	}
	n, _ := recs[0].Get("cleaned")
	return asInt(n) > 0, nil
}

// GetRun reads one run. Errors: ENOTFOUND.
func (db *DB) GetRun(ctx context.Context, name string) (kgeval.Run, error) {
	recs, err := db.read(ctx, qRunGet, map[string]any{"name": name})
	if err != nil {
		return kgeval.Run{}, mapError(err, "read run")
	}
	if len(recs) == 0 {
		return kgeval.Run{}, errNoSuchRun(name)
	}
	m, _ := recs[0].Get("run")
	return runFrom(m.(map[string]any))
}

// ListRuns returns every run, newest first.
func (db *DB) ListRuns(ctx context.Context) ([]kgeval.Run, error) {
	recs, err := db.read(ctx, qRunList, nil)
	if err != nil {
		return nil, mapError(err, "list runs")
	}
	out := make([]kgeval.Run, 0, len(recs))
	for _, r := range recs {
		m, _ := r.Get("run")
		run, err := runFrom(m.(map[string]any))
		if err != nil {
			return nil, err
		}
		out = append(out, run)
	}
	return out, nil
}

// UpdateRun sets the fields of a run's record that u sets.
func (db *DB) UpdateRun(ctx context.Context, name string, u kgeval.RunUpdate) error {
	fields, err := runFields(u)
	if err != nil {
		return err
	}
	_, err = db.write(ctx, qRunUpdate, map[string]any{"name": name, "fields": fields})
	return mapError(err, "update run "+name)
}

// runFields encodes a run update as the properties of the Run node; the
// stages, calls, texts and grounding are JSON text.
func runFields(u kgeval.RunUpdate) (map[string]any, error) {
	f := map[string]any{}
	if u.Status != nil {
		f["status"] = *u.Status
	}
	if u.Error != nil {
		f["error"] = *u.Error
	}
	if u.Samples != nil {
		f["samples"] = *u.Samples
	}
	if u.Rejected != nil {
		f["rejected"] = *u.Rejected
	}
	if u.Resumes != nil {
		f["resumes"] = *u.Resumes
	}
	if u.Finished != nil {
		f["finished"] = *u.Finished
	}
	for key, v := range map[string]any{"stages": u.Stages, "calls": u.Calls, "texts": u.Texts, "grounding": u.Grounding, "ledger": u.Ledger} {
		if reflect.ValueOf(v).IsNil() {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "encode run %s", key)
		}
		f[key] = string(b)
	}
	return f, nil
}

// runFrom decodes a Run node. Errors: EINTERNAL when a JSON property of
// the record does not decode.
func runFrom(m map[string]any) (kgeval.Run, error) {
	t := func(k string) time.Time {
		switch v := m[k].(type) {
		case time.Time:
			return v
		case dbtype.LocalDateTime:
			return time.Time(v)
		}
		return time.Time{}
	}
	r := kgeval.Run{Name: asString(m["name"]), Dataset: asString(m["dataset"]), Fingerprint: asString(m["fingerprint"]),
		Config: asString(m["config"]), LLM: asString(m["llm"]), Encoder: asString(m["encoder"]), Engine: asString(m["engine"]),
		Status: asString(m["status"]), Error: asString(m["error"]), Samples: int(asInt(m["samples"])), Rejected: int(asInt(m["rejected"])), Resumes: int(asInt(m["resumes"])),
		Shards: int(asInt(m["shards"])), Started: t("started"), Finished: t("finished")}
	var err error
	if r.Settings, err = decodeRunSettings(r.Config); err != nil {
		return r, kgeval.Wrap(kgeval.EINTERNAL, err, "run %q: stored configuration", r.Name)
	}
	for key, dst := range map[string]any{"stages": &r.Stages, "calls": &r.Calls, "texts": &r.Texts, "grounding": &r.Grounding, "ledger": &r.Ledger} {
		if s := asString(m[key]); s != "" {
			if err := json.Unmarshal([]byte(s), dst); err != nil {
				return r, kgeval.Wrap(kgeval.EINTERNAL, err, "run %q: stored %s", r.Name, key)
			}
		}
	}
	return r, nil
}

// decodeRunSettings returns the scoring section of a recorded configuration
// (JSON: {"Scoring": {"Tau": 0.7, ...}, ...}); nil for an empty
// configuration or one without a scoring section. Errors: EINVALID when it
// is not JSON of that shape.
func decodeRunSettings(config string) (*kgeval.RunSettings, error) {
	if config == "" {
		return nil, nil
	}
	var c struct{ Scoring *kgeval.RunSettings }
	if err := json.Unmarshal([]byte(config), &c); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "recorded configuration")
	}
	return c.Scoring, nil
}

// DeleteRun deletes a run: its record, samples, pair graphs and scores, and
// its name from the cache entries it used; the shared model cache itself
// stays. Errors: ENOTFOUND.
func (db *DB) DeleteRun(ctx context.Context, name string) error {
	if _, err := db.GetRun(ctx, name); err != nil {
		return err
	}
	if err := db.DeleteRunGraphs(ctx, name); err != nil {
		return err
	}
	return db.deleteInBatches(ctx, name, qCacheUntagRun, qRunDeleteSamples, qRunDeleteRecord)
}

// DeleteRunGraphs deletes every stored pair graph, KG score and metric
// value of run.
func (db *DB) DeleteRunGraphs(ctx context.Context, run string) error {
	return db.deleteInBatches(ctx, run, qRunDeleteScores, qRunDeleteMetricScores, qRunDeleteGraphs)
}

// deleteInBatches runs each delete query (parameters $run and $limit,
// returning `deleted`) until it deletes nothing, so that a large run never
// needs one huge transaction.
func (db *DB) deleteInBatches(ctx context.Context, run string, queries ...cypher.Statement) error {
	for _, q := range queries {
		for {
			recs, err := db.write(ctx, q, map[string]any{"run": run, "limit": 10000})
			if err != nil {
				return mapError(err, "delete run "+run)
			}
			if n, _ := recs[0].Get("deleted"); asInt(n) == 0 {
				break
			}
		}
	}
	return nil
}

// RunSummary aggregates a run's stored scores per pair.
func (db *DB) RunSummary(ctx context.Context, run, variant string) ([]readmodel.PairSummary, error) {
	recs, err := db.read(ctx, qKgscorePairMeans, map[string]any{"run": run, "variant": variant})
	if err != nil {
		return nil, mapError(err, "summarise run")
	}
	var out []readmodel.PairSummary
	for _, r := range recs {
		m := r.AsMap()
		f := func(k string) *float64 {
			if v, ok := m[k].(float64); ok {
				return &v
			}
			return nil
		}
		ps := readmodel.PairSummary{Pair: asString(m["pair"]), Graphs: int(asInt(m["graphs"])), Scored: int(asInt(m["scored"])), Means: map[string]*float64{}}
		for _, name := range metricreg.KGMetricNames {
			ps.Means[name] = f(name)
		}
		out = append(out, ps)
	}
	return out, nil
}

// RunSystems lists the systems of a run's samples.
func (db *DB) RunSystems(ctx context.Context, run string) ([]readmodel.SystemCount, error) {
	recs, err := db.read(ctx, qSampleSystems, map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "list systems")
	}
	out := []readmodel.SystemCount{}
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, readmodel.SystemCount{System: asString(m["system"]), Samples: int(asInt(m["samples"]))})
	}
	return out, nil
}

// Variants lists the scoring variants stored for run: "default" and one
// per sweep grid point.
func (db *DB) Variants(ctx context.Context, run string) ([]readmodel.Variant, error) {
	recs, err := db.read(ctx, qKgscoreVariants, map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "list variants")
	}
	out := make([]readmodel.Variant, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, readmodel.Variant{Name: asString(m["variant"]), Tau: asFloat(m["tau"]), Delta: asFloat(m["delta"]), Scores: int(asInt(m["scores"]))})
	}
	return out, nil
}

// RunSweep returns, for every sweep variant stored for run (every variant
// but kgeval.DefaultVariant), each pair's mean scores, ordered by tau, delta and
// pair; none when the run was never swept.
func (db *DB) RunSweep(ctx context.Context, run string) ([]readmodel.VariantMeans, error) {
	recs, err := db.read(ctx, qKgscoreSweepMeans, map[string]any{"run": run, "default": kgeval.DefaultVariant})
	if err != nil {
		return nil, mapError(err, "read sweep")
	}
	out := make([]readmodel.VariantMeans, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, readmodel.VariantMeans{Variant: asString(m["variant"]), Pair: asString(m["pair"]), Tau: asFloat(m["tau"]), Delta: asFloat(m["delta"]),
			Graphs: int(asInt(m["graphs"])), Scored: int(asInt(m["scored"])), Multihop: floatOrNil(m["multihop"]),
			CommunityOverlap: floatOrNil(m["community_overlap"]), CommunityCoverage: floatOrNil(m["community_coverage"])})
	}
	return out, nil
}

// errNoSuchRun is GetRun's ENOTFOUND, of kind kgeval.KindNoSuchRun, so
// that a caller can add its own advice (the CLI points to `kgeval runs
// list`) without reading the message.
func errNoSuchRun(name string) *kgeval.Error {
	e := kgeval.Errorf(kgeval.ENOTFOUND, "no run %q", name)
	e.Kind = kgeval.KindNoSuchRun
	return e
}

package graphstore

import (
	"context"
	"encoding/json"
	"reflect"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// CreateRun records a new run. Errors: ECONFLICT when the name is taken.
func (db *DB) CreateRun(ctx context.Context, r kgeval.Run) error {
	_, err := db.write(ctx, cypher.MustGet("run_create"), map[string]any{"run": map[string]any{
		"name": r.Name, "dataset": r.Dataset, "fingerprint": r.Fingerprint, "config": r.Config,
		"llm": r.LLM, "encoder": r.Encoder, "engine": r.Engine, "status": r.Status,
		"samples": r.Samples, "rejected": r.Rejected, "started": r.Started,
	}})
	if err = mapError(err, "record run "+r.Name); kgeval.ErrorCode(err) == kgeval.ECONFLICT {
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q exists: choose another --run, or delete it with `kgeval runs delete %s`", r.Name, r.Name)
	}
	return err
}

// UpdateRun sets the fields of a run's record that u sets.
func (db *DB) UpdateRun(ctx context.Context, name string, u kgeval.RunUpdate) error {
	fields, err := runFields(u)
	if err != nil {
		return err
	}
	_, err = db.write(ctx, cypher.MustGet("run_update"), map[string]any{"name": name, "fields": fields})
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
	for key, v := range map[string]any{"stages": u.Stages, "calls": u.Calls, "texts": u.Texts, "grounding": u.Grounding} {
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

// RunCounts returns how many samples, entities, relations, edges and scores
// run holds, by kind.
func (db *DB) RunCounts(ctx context.Context, run string) (map[string]int, error) {
	recs, err := db.read(ctx, cypher.MustGet("run_counts"), map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "count run "+run)
	}
	out := map[string]int{}
	for _, r := range recs {
		m := r.AsMap()
		out[asString(m["kind"])] = int(asInt(m["n"]))
	}
	return out, nil
}

// ScoredGraphs returns the (sample, pair) pairs of run that have scores of
// variant, keyed by kgeval.JoinKey(sample, pair). Graphs left null because a text
// could not be extracted (reason kgeval.ReasonExtractionFailed...) are not
// included: a resumed run tries them again.
func (db *DB) ScoredGraphs(ctx context.Context, run, variant string) (map[string]bool, error) {
	recs, err := db.read(ctx, cypher.MustGet("kgscore_scored"), map[string]any{"run": run, "variant": variant, "retry": kgeval.ReasonExtractionFailed})
	if err != nil {
		return nil, mapError(err, "read scored graphs")
	}
	out := make(map[string]bool, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out[kgeval.JoinKey(asString(m["sample"]), asString(m["pair"]))] = true
	}
	return out, nil
}

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
		if _, err := db.write(ctx, cypher.MustGet("run_samples_write"), map[string]any{"rows": rows[lo:min(lo+1000, len(rows))]}); err != nil {
			return mapError(err, "write samples")
		}
	}
	return nil
}

// GetRun reads one run. Errors: ENOTFOUND.
func (db *DB) GetRun(ctx context.Context, name string) (kgeval.Run, error) {
	recs, err := db.read(ctx, cypher.MustGet("run_get"), map[string]any{"name": name})
	if err != nil {
		return kgeval.Run{}, mapError(err, "read run")
	}
	if len(recs) == 0 {
		return kgeval.Run{}, kgeval.Errorf(kgeval.ENOTFOUND, "no run %q (see `kgeval runs list`)", name)
	}
	m, _ := recs[0].Get("run")
	return runFrom(m.(map[string]any))
}

// ListRuns returns every run, newest first.
func (db *DB) ListRuns(ctx context.Context) ([]kgeval.Run, error) {
	recs, err := db.read(ctx, cypher.MustGet("run_list"), nil)
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
	return db.deleteInBatches(ctx, name, "cache_untag_run", "run_delete_samples", "run_delete_record")
}

// kgeval.PairSummary is the stored scores of one pair of a run, aggregated: Means
// maps each KG metric (kgeval.KGMetricNames) to its mean, nil when no
// graph has a value.
type PairSummary struct {
	Pair           string
	Graphs, Scored int
	Means          map[string]*float64
}

// RunSummary aggregates a run's stored scores per pair.
func (db *DB) RunSummary(ctx context.Context, run, variant string) ([]kgeval.PairSummary, error) {
	recs, err := db.read(ctx, cypher.MustGet("run_summary"), map[string]any{"run": run, "variant": variant})
	if err != nil {
		return nil, mapError(err, "summarise run")
	}
	var out []kgeval.PairSummary
	for _, r := range recs {
		m := r.AsMap()
		f := func(k string) *float64 {
			if v, ok := m[k].(float64); ok {
				return &v
			}
			return nil
		}
		ps := kgeval.PairSummary{Pair: asString(m["pair"]), Graphs: int(asInt(m["graphs"])), Scored: int(asInt(m["scored"])), Means: map[string]*float64{}}
		for _, name := range kgeval.KGMetricNames {
			ps.Means[name] = f(name)
		}
		out = append(out, ps)
	}
	return out, nil
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
		Started: t("started"), Finished: t("finished")}
	var err error
	if r.Settings, err = kgeval.DecodeRunSettings(r.Config); err != nil {
		return r, kgeval.Wrap(kgeval.EINTERNAL, err, "run %q: stored configuration", r.Name)
	}
	for key, dst := range map[string]any{"stages": &r.Stages, "calls": &r.Calls, "texts": &r.Texts, "grounding": &r.Grounding} {
		if s := asString(m[key]); s != "" {
			if err := json.Unmarshal([]byte(s), dst); err != nil {
				return r, kgeval.Wrap(kgeval.EINTERNAL, err, "run %q: stored %s", r.Name, key)
			}
		}
	}
	return r, nil
}

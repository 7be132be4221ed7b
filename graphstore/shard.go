package graphstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/kgeval/kgeval"
)

var qRunJoin = statement("run_join")

// Sharded runs (evaluate --shard i/n): the run record is one Run node that
// every worker writes; each worker writes only its own shard's properties
// (shard<i>_status, shard<i>_calls, ...), so that concurrent workers never
// overwrite each other's accounting.

// shardKey is the Run node property that holds field of shard i.
func shardKey(i int, field string) string { return fmt.Sprintf("shard%d_%s", i, field) }

// JoinRun creates the sharded run r (r.Shards workers) or, when a worker
// on another shard created it first, returns the stored record unchanged
// for the caller to check. One MERGE on the unique name: two workers that
// start at once make one run.
func (db *DB) JoinRun(ctx context.Context, r kgeval.Run) (kgeval.Run, error) {
	recs, err := db.write(ctx, qRunJoin, map[string]any{"run": map[string]any{
		"name": r.Name, "dataset": r.Dataset, "fingerprint": r.Fingerprint, "config": r.Config,
		"llm": r.LLM, "encoder": r.Encoder, "engine": r.Engine, "status": r.Status,
		"samples": r.Samples, "rejected": r.Rejected, "started": r.Started, "shards": r.Shards,
	}})
	if err != nil {
		return kgeval.Run{}, mapError(err, "join run "+r.Name)
	}
	m, _ := recs[0].Get("run")
	return runFrom(m.(map[string]any))
}

// Shards reads the state of every shard of a sharded run: n entries, the
// zero ShardState (status "") for a shard no worker started. Errors:
// ENOTFOUND.
func (db *DB) Shards(ctx context.Context, run string) ([]kgeval.ShardState, error) {
	recs, err := db.read(ctx, qRunGet, map[string]any{"name": run})
	if err != nil {
		return nil, mapError(err, "read run")
	}
	if len(recs) == 0 {
		return nil, errNoSuchRun(run)
	}
	v, _ := recs[0].Get("run")
	m := v.(map[string]any)
	out := make([]kgeval.ShardState, asInt(m["shards"]))
	for i := range out {
		s := &out[i]
		s.Status, s.Error, s.Resumes = asString(m[shardKey(i, "status")]), asString(m[shardKey(i, "error")]), int(asInt(m[shardKey(i, "resumes")]))
		for field, dst := range map[string]any{"stages": &s.Stages, "calls": &s.Calls} {
			if j := asString(m[shardKey(i, field)]); j != "" {
				if err := json.Unmarshal([]byte(j), dst); err != nil {
					return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "run %q: stored shard %d %s", run, i, field)
				}
			}
		}
	}
	return out, nil
}

// UpdateShard sets the fields of shard i of a sharded run that u sets
// (status, error, resumes, stages and calls; the other fields of u are
// the run's and are ignored).
func (db *DB) UpdateShard(ctx context.Context, run string, i int, u kgeval.RunUpdate) error {
	fields, err := shardFields(i, u)
	if err != nil {
		return err
	}
	_, err = db.write(ctx, qRunUpdate, map[string]any{"name": run, "fields": fields})
	return mapError(err, "update run "+run)
}

// shardFields encodes u as the properties of shard i.
func shardFields(i int, u kgeval.RunUpdate) (map[string]any, error) {
	run, err := runFields(kgeval.RunUpdate{Status: u.Status, Error: u.Error, Resumes: u.Resumes, Stages: u.Stages, Calls: u.Calls})
	if err != nil {
		return nil, err
	}
	fields := make(map[string]any, len(run))
	for k, v := range run {
		fields[shardKey(i, k)] = v
	}
	return fields, nil
}

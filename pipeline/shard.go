package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/kgeval/kgeval"
)

// Sharded runs: n `kgeval evaluate --shard i/n` workers evaluate disjoint
// parts of one dataset into one run (EvaluateOptions.Shard and Shards).
//
// A sample belongs to shard i when its index among the dataset's valid
// records (after --limit) mod n is i: membership depends only on the file
// and n, never on which worker starts first or how fast it goes, and
// interleaving spreads a dataset sorted by size or difficulty evenly over
// the workers. Every sample is scored exactly as in a run of one process
// (the pair graphs of a sample never meet another sample's), so the
// stored rows, and `kgeval export`, are those of a single run. The
// exception is the opt-in batched Leiden of the GDS engine
// (GDS.Communities = "batch"), whose communities depend slightly on which
// graphs share a batch.
//
// The run record is shared: the first worker creates it (JoinRun, a MERGE
// on the name, so that two workers starting at once make one run), the
// others check it against their own evaluation. Each worker records its
// shard's status, stages and calls in the shard's own fields
// (ShardStore.UpdateShard); the run stays running until every shard is
// done, and the worker that sees the last shard done sets it done with the
// sums of the shards' stages, calls and resumes.

// ShardStore is what a sharded run needs of the Store beyond Store
// (graphstore.DB implements it).
type ShardStore interface {
	// JoinRun creates the sharded run r or returns the stored record of
	// the run a worker on another shard created.
	JoinRun(ctx context.Context, r kgeval.Run) (kgeval.Run, error)
	// Shards reads the state of every shard of a sharded run.
	Shards(ctx context.Context, run string) ([]kgeval.ShardState, error)
	// UpdateShard sets the status, error, resumes, stages and calls of
	// shard i that u sets.
	UpdateShard(ctx context.Context, run string, i int, u kgeval.RunUpdate) error
}

// shardCacher is the CacheService of sharded runs: the shard's call
// accounting reaches its own field of the run record (graphstore.Cache).
type shardCacher interface {
	ShardCache(run string, i int, calls func() kgeval.Calls) kgeval.Cache
}

// ShardOf returns the samples of shard i of n: those whose index in
// samples mod n is i, in their order.
func ShardOf(samples []kgeval.Sample, i, n int) []kgeval.Sample {
	var out []kgeval.Sample
	for k := i; k < len(samples); k += n {
		out = append(out, samples[k])
	}
	return out
}

// checkShard checks EvaluateOptions.Shard and Shards against the dataset.
func checkShard(o EvaluateOptions) error {
	switch {
	case o.Shards < 1 || o.Shard < 0 || o.Shard >= o.Shards:
		return kgeval.Errorf(kgeval.EINVALID, "--shard %d/%d: want i/n with 0 <= i < n", o.Shard, o.Shards)
	case o.Shards > len(o.Samples):
		return kgeval.Errorf(kgeval.EINVALID, "--shard %d/%d: the dataset has only %d samples, fewer than the shards", o.Shard, o.Shards, len(o.Samples))
	case o.Replace:
		return kgeval.Errorf(kgeval.EINVALID, "--shard and --replace exclude each other (one worker would delete the others' work): delete the run first with `kgeval runs delete %s`", o.Run)
	}
	return nil
}

// openShard creates or joins the sharded run and claims this worker's
// shard: new, or resumed with --resume.
func (a *attempt) openShard(ctx context.Context) error {
	o, run := a.o, a.o.Run
	ss, ok := a.store.(ShardStore)
	if !ok {
		return kgeval.Errorf(kgeval.EINTERNAL, "the store does not support sharded runs")
	}
	record := a.record()
	record.Shards = o.Shards
	stored, err := ss.JoinRun(ctx, record)
	if err != nil {
		return err
	}
	switch {
	case stored.Shards == 0:
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q exists and is not sharded (status %s)", run, stored.Status)
	case stored.Shards != o.Shards:
		return kgeval.Errorf(kgeval.EINVALID, "run %q has %d shards, this worker says --shard %d/%d: every worker of a run must give the same n", run, stored.Shards, o.Shard, o.Shards)
	}
	if err := Resumable(stored, record); err != nil {
		return err
	}
	states, err := ss.Shards(ctx, run)
	if err != nil {
		return err
	}
	me := states[o.Shard]
	if me.Status != "" && !o.Resume {
		return kgeval.Errorf(kgeval.ECONFLICT, "shard %d/%d of run %q exists (status %s)", o.Shard, o.Shards, run, me.Status)
	}
	a.shards, a.old = ss, stored
	resumes := me.Resumes
	if me.Status != "" {
		resumes++
		if me.Calls != nil {
			a.prevCalls = *me.Calls
		}
		for k, s := range me.Stages {
			a.prevStages[k] = s
		}
		if a.done, err = a.store.ScoredGraphs(ctx, run, kgeval.DefaultVariant); err != nil {
			return err
		}
		if a.metricsDone, err = a.store.MetricsDone(ctx, run); err != nil {
			return err
		}
	}
	status, none := kgeval.RunRunning, ""
	if err := ss.UpdateShard(ctx, run, o.Shard, kgeval.RunUpdate{Status: &status, Error: &none, Resumes: &resumes}); err != nil {
		return err
	}
	if stored.Status != kgeval.RunRunning {
		// A resumed shard that had failed: the run is running again.
		if err := a.store.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &none}); err != nil {
			return err
		}
	}
	fmt.Fprintf(o.Log, "evaluate: shard %d/%d of run %q: %d samples", o.Shard, o.Shards, run, len(o.Samples))
	if me.Status != "" {
		fmt.Fprintf(o.Log, ", resuming (status %s): %d pair graphs of the run already scored", me.Status, len(a.done))
	}
	fmt.Fprintln(o.Log)
	return nil
}

// finishShard records the outcome of this worker's shard and, when every
// shard is done, the run's: done, with the sums of the shards' stages,
// calls and resumes. A shard that failed or was interrupted marks the run
// so (its --resume makes it running again).
func (a *attempt) finishShard(ctx context.Context, status, msg string, stages kgeval.Stages, cl kgeval.Calls) error {
	o, run := a.o, a.o.Run
	if err := a.shards.UpdateShard(ctx, run, o.Shard, kgeval.RunUpdate{Status: &status, Error: &msg, Stages: stages, Calls: &cl}); err != nil {
		return err
	}
	if status != kgeval.RunDone {
		msg = fmt.Sprintf("shard %d/%d: %s", o.Shard, o.Shards, msg)
		return a.store.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &msg})
	}
	// Read after this shard's write: of two workers finishing at once, the
	// later reader sees both shards done.
	states, err := a.shards.Shards(ctx, run)
	if err != nil {
		return err
	}
	done, sumStages, sumCalls, resumes := 0, kgeval.Stages{}, kgeval.Calls{}, 0
	for _, s := range states {
		if s.Status == kgeval.RunDone {
			done++
		}
		for k, v := range s.Stages {
			sumStages[k] += v
		}
		if s.Calls != nil {
			sumCalls = sumCalls.Add(*s.Calls)
		}
		resumes += s.Resumes
	}
	if done < len(states) {
		fmt.Fprintf(o.Log, "evaluate: shard %d/%d of run %q done; %d of %d shards done, the run finishes with the last\n", o.Shard, o.Shards, run, done, len(states))
		return nil
	}
	none, finished := "", time.Now().UTC()
	fmt.Fprintf(o.Log, "evaluate: shard %d/%d of run %q done; all %d shards done, the run is done\n", o.Shard, o.Shards, run, len(states))
	return a.store.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &none, Finished: &finished, Stages: sumStages, Calls: &sumCalls, Resumes: &resumes})
}

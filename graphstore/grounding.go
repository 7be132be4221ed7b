package graphstore

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

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
		if _, err := db.write(ctx, cypher.MustGet("sample_grounding_write"), map[string]any{"rows": rows[lo:min(lo+1000, len(rows))]}); err != nil {
			return mapError(err, "write grounding")
		}
	}
	return nil
}

// SampleGrounding reads the grounding check stored for one sample of run
// (nil when none was stored). Errors: ENOTFOUND for an unknown sample.
func (db *DB) SampleGrounding(ctx context.Context, run, sample string) ([]kgeval.Grounding, error) {
	recs, err := db.read(ctx, cypher.MustGet("sample_grounding_read"), map[string]any{"uid": kgeval.JoinKey(run, sample)})
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

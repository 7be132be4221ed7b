package pipeline

import "context"

// storeScores stores the results and the skipped pairs' null results as
// the run's default variant (Report.Results).
func (v *evaluation) storeScores(ctx context.Context) error {
	v.results = append(v.results, v.skipped...)
	if err := v.e.Store.WriteKGResults(ctx, v.run, "default", v.e.Engine.Name(), v.e.Params, v.results); err != nil {
		return err
	}
	v.rep.Results = v.results
	return nil
}

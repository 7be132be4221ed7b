package pipeline

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring"
)

// maxEvidence is how many context sentences go with each open triplet to
// the model check.
const maxEvidence = 2

// verify asks the Verifier about what the graphs left open.
func (v *evaluation) verify(ctx context.Context) error {
	if err := v.e.verify(ctx, v.idx, v.results, v.rep, v.progress("verify")); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}

// verify asks e.Verifier about the triplets each non-question pair graph
// left open (not_found, or supported and contradicted; scoring.OpenVerdicts:
// the model's own triplets, not the rule-read ones), one batched question
// per pair graph, with each triplet's best evidence sentences from the
// pair's context text, and records the model's verdicts beside the graph's
// (scoring.ApplyModelVerdicts). A triplet that no context sentence mentions
// is not_found without asking. A batch the model could not answer leaves
// the verified scores null with the reason.
func (e *Evaluator) verify(ctx context.Context, idx *sampleIndex, results []kgeval.KGResult, rep *Report, progress func(int, int)) error {
	type job struct {
		result int
		open   []int // indexes into Verdicts, in the order of all
		asked  []int // positions in open that go to the model
	}
	var jobs []job
	var batches [][]kgeval.FactCheck
	for i := range results {
		r := &results[i]
		p, s, ok := idx.of(r)
		if !ok || p.Input == kgeval.TextQuestion || len(r.Verdicts) == 0 {
			continue
		}
		if len(e.VerifyPairs) > 0 && !slices.Contains(e.VerifyPairs, p.Name) {
			continue
		}
		open := scoring.OpenVerdicts(r)
		var srcs []*lexical.Text
		for _, src := range scoring.Sources(s, p, idx.prepared) {
			srcs = append(srcs, src.Text)
		}
		j := job{result: i, open: open}
		var facts []kgeval.FactCheck
		for k, vi := range open {
			v := r.Verdicts[vi]
			ev := evidence(srcs, v.Subject, v.Object)
			if len(ev) == 0 {
				continue
			}
			j.asked = append(j.asked, k)
			facts = append(facts, kgeval.FactCheck{Subject: v.Subject, Relation: v.Relation, Object: v.Object, Evidence: ev})
		}
		jobs = append(jobs, j)
		batches = append(batches, facts)
		rep.VerifyFacts += len(facts)
	}
	verdicts, errs, err := e.Verifier.Verify(ctx, batches, progress)
	if err != nil {
		return err
	}
	for b, j := range jobs {
		r := &results[j.result]
		if errs[b] != nil {
			if r.Reasons == nil {
				r.Reasons = map[string]string{}
			}
			why := "model check failed: " + errs[b].Error()
			r.Reasons[metricreg.MetricSupportVerified], r.Reasons[metricreg.MetricContradictionVerified] = why, why
			rep.VerifyFailed++
			continue
		}
		all := make([]kgeval.ModelVerdict, len(j.open))
		for k := range all {
			all[k] = kgeval.ModelVerdict{Verdict: kgeval.VerdictNotFound, Reason: "no context sentence mentions its subject or object"}
		}
		for n, k := range j.asked {
			if n < len(verdicts[b]) {
				all[k] = verdicts[b][n]
			}
		}
		scoring.ApplyModelVerdicts(r, j.open, all)
		rep.VerifyBatches++
	}
	return nil
}

// evidence returns the best maxEvidence sentences of the sources that
// mention subject or object: both first, then the object, then the subject.
func evidence(sources []*lexical.Text, subject, object string) []string {
	type cand struct {
		rank, src, pos int
		text           string
	}
	var cs []cand
	for si, t := range sources {
		for pos, m := range t.Mentions(subject, object) {
			rank := 2
			switch {
			case m.Both:
				rank = 0
			case m.ObjectOnly:
				rank = 1
			}
			cs = append(cs, cand{rank, si, pos, m.Text})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].rank != cs[b].rank {
			return cs[a].rank < cs[b].rank
		}
		if cs[a].src != cs[b].src {
			return cs[a].src < cs[b].src
		}
		return cs[a].pos < cs[b].pos
	})
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if len(out) == maxEvidence {
			break
		}
		if !seen[c.text] {
			seen[c.text] = true
			out = append(out, c.text)
		}
	}
	return out
}

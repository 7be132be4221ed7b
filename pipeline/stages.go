package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring"
)

// evaluation is one Evaluator.Evaluate call: the samples it evaluates and
// what each stage made of them, kept as fields so that each stage is a
// method that reads what the stages before it left and can be tested alone
// with those inputs. The stages, in order:
//
//	load     samples (a resumed run drops the finished ones)
//	extract  texts, refs, extracted -> tri, failed
//	ground   tri (ungrounded triplets dropped), rep.Grounding
//	embed    tri -> vec
//	build    tri, failed, vec -> graphs, skipped
//	score    graphs -> results (engine, then the text verdicts)
//	verify   results (the model's check of what the graphs left open)
//	claims   results (claim checks)
//	metrics  tri, failed -> rep.Metrics (then judge)
//
// Each stage that calls the scoring room sits in a file of its own, in the
// order they run, so that what one stage calls is read in one place:
// addRuleFacts in rules.go, embed and build in graphs.go, score in
// textverdict.go, verify in verify.go, claims in claims.go, storeScores in
// store.go, metrics in metrics.go, judge in judge.go. load, extract and
// ground are here.
type evaluation struct {
	e   *Evaluator
	run string
	rep *Report
	// samples are the samples still to evaluate; idx finds them and their
	// pairs by name and prepares each of their texts once for the lexical
	// checks of every stage (ground, rules, score, verify, claims, metrics).
	samples []kgeval.Sample
	idx     *sampleIndex
	// fam are the selected per-sample metrics by family, split once.
	fam families

	// texts are the distinct texts to extract; refs say where each
	// sample's texts are among them; extracted is the extractor's answer
	// for each of texts.
	texts     []kgeval.ExtractRequest
	refs      []textRef
	extracted []kgeval.Extraction
	// tri are each sample's triplets (given, then extracted); failed the
	// texts of each sample whose extraction failed, with the error.
	tri    []kgeval.SampleTriplets
	failed []map[kgeval.Text]string
	// vec are the vectors of every label key of tri.
	vec scoring.Vectors
	// graphs are the pair graphs built; skipped the null results of the
	// pairs whose text could not be extracted; results the graphs' scores.
	graphs  []*kgeval.PairGraph
	skipped []kgeval.KGResult
	results []kgeval.KGResult

	// stage is the stage being timed (none: ""), since start.
	stage string
	start time.Time
}

func (e *Evaluator) newEvaluation(run string, samples []kgeval.Sample) *evaluation {
	v := &evaluation{e: e, run: run, samples: samples, rep: &Report{Run: run, Samples: len(samples), Stages: map[string]time.Duration{}}}
	v.fam.ts, v.fam.enc, v.fam.base, v.fam.judged = scoring.SplitMetrics(e.Metrics)
	v.fam.judgedFamily = map[string]string{}
	for _, m := range v.fam.judged {
		v.fam.judgedFamily[m] = metricreg.MetricFamily(m)
	}
	v.idx = newSampleIndex(e.Pairs, samples)
	return v
}

// families are the selected per-sample metrics by family
// (scoring.SplitMetrics): triplet-similarity base names, encoder metrics,
// word-overlap baselines and judge metrics, with each judge metric's
// family (ragas or llm), read from the registry once.
type families struct {
	ts, enc, base, judged []string
	judgedFamily          map[string]string
}

// sampleIndex finds a result's pair and sample by name, and prepares each
// distinct text once for the lexical checks (a passage shared by many
// samples, or read by several stages, is prepared once; a prepared text is
// never changed).
type sampleIndex struct {
	pairs map[string]kgeval.Pair
	byID  map[string]*kgeval.Sample
	texts map[string]*lexical.Text
}

func newSampleIndex(pairs []kgeval.Pair, samples []kgeval.Sample) *sampleIndex {
	x := &sampleIndex{pairs: map[string]kgeval.Pair{}, byID: map[string]*kgeval.Sample{}, texts: map[string]*lexical.Text{}}
	for _, p := range pairs {
		x.pairs[p.Name] = p
	}
	for i := range samples {
		x.byID[samples[i].ID] = &samples[i]
	}
	return x
}

// of returns the pair and the sample of result r (ok false: either is not
// among the evaluated).
func (x *sampleIndex) of(r *kgeval.KGResult) (kgeval.Pair, *kgeval.Sample, bool) {
	p, ok := x.pairs[r.Pair]
	s := x.byID[r.Sample]
	return p, s, ok && s != nil
}

// prepared returns text s prepared for the lexical checks.
func (x *sampleIndex) prepared(s string) *lexical.Text {
	t, ok := x.texts[s]
	if !ok {
		t = lexical.NewText(s)
		x.texts[s] = t
	}
	return t
}

// begin starts timing stage name, ending the stage before it.
func (v *evaluation) begin(name string) {
	v.end()
	v.stage, v.start = name, time.Now()
}

// end adds the time of the current stage, if any, to Report.Stages.
func (v *evaluation) end() {
	if v.stage != "" {
		v.rep.Stages[v.stage] += time.Since(v.start)
		v.stage = ""
	}
}

// progress reports a stage's progress to Evaluator.Progress, if set.
func (v *evaluation) progress(stage string) func(int, int) {
	return func(d, t int) {
		if v.e.Progress != nil {
			v.e.Progress(stage, d, t)
		}
	}
}

// done tells whether the pair graph of sample and pair has its scores (a
// resumed run).
func (v *evaluation) done(sample, pair string) bool {
	return v.e.Done != nil && v.e.Done(sample, pair)
}

// load keeps the samples that still have work: on a resumed run, a sample
// whose pair graphs are all scored and whose metric values are all stored
// is skipped (its pairs count as Resumed).
func (v *evaluation) load() {
	e := v.e
	if e.Done == nil {
		return
	}
	var pending []kgeval.Sample
	for _, s := range v.samples {
		all := e.MetricsDone == nil || len(e.Metrics) == 0 || e.MetricsDone(s.ID)
		for _, p := range e.Pairs {
			all = all && v.done(s.ID, p.Name)
		}
		if all {
			v.rep.Resumed += len(e.Pairs)
			continue
		}
		pending = append(pending, s)
	}
	v.samples = pending
	v.idx = newSampleIndex(e.Pairs, v.samples)
}

// extract sends every text that has no given triplets to the extractor,
// once, and assembles each sample's triplets: given ones, then extracted
// ones.
func (v *evaluation) extract(ctx context.Context) error {
	v.collect()
	v.rep.Texts = len(v.texts)
	if v.e.OnTexts != nil {
		v.e.OnTexts(v.textCounts())
	}
	if len(v.texts) > 0 {
		var err error
		if v.extracted, err = v.e.Extractor.Extract(ctx, v.texts, v.progress("extract")); err != nil {
			return fmt.Errorf("extract: %w", err)
		}
	}
	for _, x := range v.extracted {
		if !x.Cached && x.Err == nil {
			v.rep.Extracted++
		}
	}
	v.assemble()
	return nil
}

// collect lists the distinct texts to extract (texts) and where each
// sample's are among them (refs): the texts the pairs and metrics need
// whose triplets the sample does not give.
func (v *evaluation) collect() {
	index := map[kgeval.ExtractRequest]int{}
	add := func(si int, t kgeval.Text, pass int, x kgeval.ExtractRequest) {
		if _, ok := index[x]; !ok {
			index[x] = len(v.texts)
			v.texts = append(v.texts, x)
		}
		v.refs = append(v.refs, textRef{si, t, pass, index[x]})
	}
	need := v.e.neededTexts()
	for si, s := range v.samples {
		for _, t := range []kgeval.Text{kgeval.TextQuestion, kgeval.TextAnswer, kgeval.TextReference, kgeval.TextContexts} {
			if !need[t] {
				continue
			}
			if _, ok := s.Triplets.Triplets(t); ok {
				continue
			}
			switch t {
			case kgeval.TextQuestion:
				add(si, t, 0, kgeval.ExtractRequest{Text: s.Question, Asked: true})
			case kgeval.TextAnswer:
				add(si, t, 0, kgeval.ExtractRequest{Text: s.Answer, Question: s.Question})
			case kgeval.TextReference:
				add(si, t, 0, kgeval.ExtractRequest{Text: s.Reference, Question: s.Question})
			default:
				for pi, p := range s.Contexts {
					add(si, t, pi, kgeval.ExtractRequest{Text: p})
				}
			}
		}
	}
}

// textCounts counts the distinct texts of each kind to extract, and the
// distinct context passages of the samples (Evaluator.OnTexts).
func (v *evaluation) textCounts() (map[kgeval.Text]int, int) {
	byKind := map[kgeval.Text]int{}
	counted := map[int]bool{}
	passages := map[string]bool{}
	for _, r := range v.refs {
		if !counted[r.idx] {
			counted[r.idx] = true
			byKind[r.text]++
		}
	}
	for _, s := range v.samples {
		for _, p := range s.Contexts {
			passages[p] = true
		}
	}
	return byKind, len(passages)
}

// assemble makes each sample's triplets (tri) from its given ones and the
// extracted ones, and records the texts whose extraction failed (failed,
// Report.Errors).
func (v *evaluation) assemble() {
	need := v.e.neededTexts()
	v.tri = make([]kgeval.SampleTriplets, len(v.samples))
	v.failed = make([]map[kgeval.Text]string, len(v.samples))
	for si, s := range v.samples {
		if s.Triplets != nil {
			v.tri[si] = *s.Triplets
		}
		if v.tri[si].Contexts == nil && need[kgeval.TextContexts] {
			v.tri[si].Contexts = make([][]kgeval.Triplet, len(s.Contexts))
		}
		v.failed[si] = map[kgeval.Text]string{}
	}
	for _, r := range v.refs {
		x := v.extracted[r.idx]
		if x.Err != nil {
			v.failed[r.sample][r.text] = x.Err.Error()
			v.rep.Errors = append(v.rep.Errors, SampleError{Sample: v.samples[r.sample].ID, Text: string(r.text), Error: x.Err.Error()})
			continue
		}
		ts := x.Triplets
		if ts == nil {
			ts = []kgeval.Triplet{}
		}
		*r.of(v.tri) = ts
	}
}

// ground checks the extracted triplets (SPEC §2b): those whose subject or
// object does not occur in their text are reported in Report.Grounding,
// and dropped unless extraction.grounding is keep. A dataset's own
// triplets are taken as given.
func (v *evaluation) ground() {
	rep := v.rep
	rep.Kept, rep.Dropped = map[kgeval.Text]int{}, map[kgeval.Text]int{}
	extractedText := map[[2]int]bool{} // (sample, kind) extracted, not given
	for _, r := range v.refs {
		extractedText[[2]int{r.sample, textIndex(r.text)}] = true
	}
	for si, s := range v.samples {
		gs := scoring.GroundSample(s, &v.tri[si], func(t kgeval.Text) bool { return extractedText[[2]int{si, textIndex(t)}] }, v.e.Grounding != kgeval.GroundingKeep, v.idx.prepared)
		for _, g := range gs {
			rep.Kept[g.Text] += g.Kept
			rep.Dropped[g.Text] += len(g.Dropped)
		}
		rep.Grounding = append(rep.Grounding, gs...)
	}
}

// textIndex numbers the kinds of text, to key a sample's extracted texts.
func textIndex(t kgeval.Text) int {
	switch t {
	case kgeval.TextQuestion:
		return 0
	case kgeval.TextAnswer:
		return 1
	case kgeval.TextReference:
		return 2
	}
	return 3
}

// hasMetrics tells whether any per-sample metric is selected.
func (v *evaluation) hasMetrics() bool {
	return len(v.fam.ts)+len(v.fam.enc)+len(v.fam.base)+len(v.fam.judged) > 0
}

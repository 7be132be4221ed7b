// Package analysis holds kgeval's read models, shared by the CLI and the
// dashboard: a run's statistics (histograms, per-system means, null reasons:
// RunStats), the comparisons of SPEC §8 (correlations between metrics and
// against human labels, per-system summaries with pairwise significance and
// win rates, a run against a baseline, the sensitivity experiment,
// threshold-sweep curves), the why of a sample and two runs side by side. The read models are pure functions over
// the rows the store returns (readmodel.SampleScores and the like); the Load*
// functions read those rows through the domain's readers (ScoreSource,
// StatsSource) and ExtractionMethod reads a run record's extraction method,
// so that `kgeval` and `kgeval serve` compute every number the
// same way. The statistics themselves are package stats; package render
// draws the CLI's tables and plots.
//
// # Reader
//
// Reader is the read service of stored runs that `kgeval` (runs show,
// explain) and `kgeval serve` both call: each method reads the run's record
// once (GetRun) and computes one read model from the store's rows: the
// runs list (RunRow), a run's view (RunView), statistics, page (Overview:
// view, statistics, sweep and sensitivity prefix), triage, sweep
// (SweepView, its axes by SweepAxes), sample list, sample with its why
// (SampleView), pair graph (GraphView), export rows (ExportView),
// correlations (CorrelationView), systems (SystemsView), sensitivity
// experiment (SensitivityView) and the comparison of two runs
// (CompareView, with Verdict's better / worse at Significance). What it
// derives from a finished run is cached for a few minutes, keyed by the
// run's name, start and finish (an expiring LRU, one computation per key
// at a time: golang-lru's expirable and x/sync's singleflight); a running
// run is read every time, and so are the runs list, a pair graph and an
// export (read once, or too many to keep). A claim is shown through one
// view (ClaimView, NewClaimViews) that `kgeval explain` and the sample page
// both format, and a location in one set of words (Where: "passage 2").
// Two jobs that read these rows have packages of their own: the checks a
// run is held to (the validity report and the CI gate) are analysis/check,
// and measuring the claim verdicts on labelled data and fitting their
// calibration is analysis/fit.
//
// # Variables
//
// A Row is one sample of a run. MetricVectors makes one vector per variable,
// one value per row, nil where the value is null or missing:
//
//   - KG scores as "<pair>.<metric>", e.g. "faithfulness.multihop",
//     "answer_relevancy.community_overlap";
//   - every other metric under its own name, e.g. "ts_groundedness_avg",
//     "semantic_similarity";
//   - with HumanVectors, each human label as "human.<label>" (see below).
//
// Correlations use the pairwise-complete samples of each pair of variables
// (both values present); fewer than 3 such samples, or a variable that is
// constant over them, leaves r and rho null with the reason.
//
// # Human labels
//
// HumanLabels reads a sample's `human` object and keeps the values that are
// numbers, or that the table below maps to numbers; everything else (free
// text, unknown strings, lists other than ExpertQA's claims) is ignored.
//
//	label                        source in `human`                       value
//	<key>                        a number at the top level               the number as it is
//	<key>                        true / false at the top level           1 / 0
//	<key>.<sub>                  a number inside a nested object         the number as it is
//	                             (e.g. derived.support_complete_frac)
//	usefulness                   "Useful"                                1
//	                             "Partially useful"                      0.5
//	                             "Not useful at all"                     0
//	claims.support               mean over the claims of each claim's    Complete 1, Partial 0.5,
//	                             "support"                               Incomplete 0.25, Missing 0;
//	                                                                     "N/A" and null skipped
//	claims.correctness           mean over the claims of each claim's    Definitely correct 1,
//	                             "correctness"                           Probably correct 0.75,
//	                                                                     Unsure 0.5, Likely incorrect 0.25,
//	                                                                     Definitely incorrect 0; null skipped
//	claims.informativeness       mean over the claims of each claim's    Very relevant 1, A bit relevant 2/3,
//	                             "informativeness"                       Not too important 1/3,
//	                                                                     Uninformative 0; null skipped
//
// The ordinal strings are ExpertQA's (Malaviya et al., 2024); they are
// matched exactly after trimming spaces. A claim whose value is skipped does
// not count in the mean; an answer with no mapped claim has no claims.*
// label. ExpertQA's other claim fields (worthiness, reliability) are not
// mapped.
//
// # Systems
//
// Compare summarises each system (the dataset's `system` field): per metric
// the mean, the best (highest) and worst (lowest) value with the sample that
// has it — every kgeval metric is higher-is-better — the factual_accuracy
// grade distribution (from its explanations, else from the score with
// metrics.Grade) and the answer_class distribution (from its explanations),
// each only when present. For every pair of systems and metric it tests the
// difference: when both systems answered the same questions, once each, the
// test is paired by question (Wilcoxon signed-rank and paired t over the
// questions where both values are present); otherwise Welch's t over all
// present values. The win rate of A over B is the fraction of the questions
// both answered (once each, both values present) where A scores higher, ties
// counting one half. On WikiEval (grounded / ungrounded / poor answers to
// the same 10 questions) the win rate of grounded over ungrounded on a
// faithfulness metric is how often the metric prefers the right member of
// the pair.
//
// # Runs against a baseline
//
// CompareRuns answers "did my change help?": it pairs the samples of a run
// with those of a baseline run by id (by question text when the runs share
// no id) and reports per metric the two means, the mean difference run −
// baseline with its 95% t interval (that of the paired t-test), the paired
// Wilcoxon signed-rank and t tests, how many pairs improved, stayed
// (|difference| <= 1e-9) or regressed in the metric's direction
// (metricreg.ValidityOf: lower is better for the contradiction scores) and the
// samples that regressed most.
// RunWarnings flags what makes the comparison doubtful: other datasets,
// scoring settings, models or encoders, and unfinished runs.
//
// # Gate
//
// Gate is the CI check on a run: requirements on the run's means
// (ParseRequirement: "faithfulness.support>=0.8") and bounds on how much
// worse than a baseline a mean may get (ParseMaxRegression, judged on
// CompareRuns' direction-adjusted mean difference).
//
// # Sensitivity
//
// The two variants of the paper's section 5.2 experiment (answer :=
// reference; answer := another sample's answer by a seeded derangement) are
// derived by the use case that evaluates them (pipeline.ReferenceAsAnswer,
// pipeline.WrongAnswer); this package reads the runs. Separation reports, per metric, mean, population
// standard deviation and a histogram over the metric's fixed range (Range)
// for each variant, and AUROC and Cohen's d of reference_as_answer against
// wrong_answer.
//
// # Sweeps
//
// SweepPoint summarises one stored scoring variant of a run (a grid point
// "tau=…,delta=…" of `kgeval sweep`): the mean of each KG score, and the
// separation (AUROC, Cohen's d) between two groups — two systems of the run,
// or the run and another run swept over the same grid.
package analysis

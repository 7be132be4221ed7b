package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis/fit"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring/claims"
)

// mustFactcheckRun stores a hand-made claim run: 12 samples of 8 records
// (ids "rNN#k"), human faithfulness 1 for the first 6 and 0 for the last 6,
// each with one claim check on its faithfulness pair (two for r00#0) whose
// features favour the supported ones, the claim score, and k_precision;
// the record has calls and stage seconds.
func mustFactcheckRun(t *testing.T, db *graphstore.DB) string {
	t.Helper()
	ctx := context.Background()
	run := mustRunName(t, db, "factcheck")
	if err := db.CreateRun(ctx, kgeval.Run{Name: run, Dataset: "claims.jsonl", Fingerprint: "f00d", LLM: "http://127.0.0.1:1/v1#m",
		Encoder: "minilm", Engine: "native", Status: kgeval.RunDone, Samples: 12, Started: time.Now().UTC(),
		Config: `{"Scoring": {"Verify": "prob"}, "Extraction": {"Method": "rules"}}`}); err != nil {
		t.Fatal(err)
	}
	var samples []kgeval.Sample
	var results []kgeval.KGResult
	var ms []kgeval.MetricScore
	for i := range 12 {
		y := 0
		if i < 6 {
			y = 1
		}
		id := fmt.Sprintf("r%02d#%d", i*2/3, i%2)
		samples = append(samples, kgeval.Sample{ID: id, Record: i + 1, Question: "q" + id, Contexts: []string{"c"}, Answer: "a" + id,
			System: "s", Human: map[string]any{"faithfulness": y}})
		// Supported claims have the higher model logit, but two of each
		// class cross over; overlap is noisier.
		logit := []float64{2, 1.5, 1, 0.5, -0.2, 0.1, -0.5, 0.3, -1, -1.5, -2, 0.4}[i]
		overlap := []float64{0.9, 0.6, 0.8, 0.5, 0.7, 0.4, 0.5, 0.6, 0.3, 0.2, 0.4, 0.1}[i]
		claim := func(l, o float64) kgeval.ClaimCheck {
			return kgeval.ClaimCheck{Text: "a" + id, Model: &kgeval.ClaimProb{P: 0.5, Chunks: 1}, Verdict: kgeval.ClaimSupported,
				Features: map[string]float64{kgeval.FeatureModel: l, kgeval.FeatureOverlap: o, kgeval.FeatureAtoms: 1,
					kgeval.FeatureSupport: o, kgeval.FeatureReach: 1, kgeval.FeatureConflict: 0}}
		}
		checks := []kgeval.ClaimCheck{claim(logit, overlap)}
		if i == 0 {
			checks = append(checks, claim(1, 0.5))
		}
		score := 1 / (1 + math.Exp(-logit))
		results = append(results, kgeval.KGResult{Sample: id, Pair: "faithfulness", Claims: checks}.With(metricreg.MetricClaimScore, &score))
		kp := overlap
		ms = append(ms, kgeval.MetricScore{Sample: id, Metric: metricreg.MetricKPrecision, Family: metricreg.FamilyBaseline, Value: &kp})
	}
	if err := db.WriteSamples(ctx, run, samples); err != nil {
		t.Fatal(err)
	}
	if err := db.WriteKGResults(ctx, run, kgeval.DefaultVariant, "native", kgeval.GraphParams{Tau: 0.7, Delta: 0.5}, results); err != nil {
		t.Fatal(err)
	}
	if err := db.WriteMetricScores(ctx, run, ms); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateRun(ctx, run, kgeval.RunUpdate{Calls: &kgeval.Calls{Calls: 13, PromptTokens: 2600},
		Stages: kgeval.Stages{"claims": 6.5, "extract": 1}}); err != nil {
		t.Fatal(err)
	}
	return run
}

// TestFactcheck stores a hand-made claim run and runs factcheck (the rows
// read back with their claims, the CSV), calibrate (the file) and
// factcheck --calibration with that file, and calibrate on a run without
// the model's feature (the file's with_model fit kept).
func TestFactcheck(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	run := mustFactcheckRun(t, db)
	dir := t.TempDir()
	csvOut, jsonOut := filepath.Join(dir, "f.csv"), filepath.Join(dir, "f.json")
	out, err := runMain(t, append([]string{"factcheck", "--run", run, "--csv", csvOut, "--json", jsonOut}, args...)...)
	if err != nil {
		t.Fatalf("factcheck: %v\n%s", err, out)
	}
	for _, want := range []string{"12 samples of claims.jsonl", "scoring.verify prob", "6 supported (1), 6 not (0); 0 without a label; 8 groups",
		"13 claim checks", "faithfulness.score", "k_precision", "combination (cv)", "P(supported) alone (cv)", "graph alone (cv)",
		"13 model calls", "6.5 s in stage claims", "per claim: 1.00 calls, 200 prompt tokens, 0.500 s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var rep fit.Factcheck
	readJSON(t, jsonOut, &rep)
	var score, comb *fit.FactcheckRow
	for i, r := range rep.Rows {
		switch r.Name {
		case "faithfulness.score":
			score = &rep.Rows[i]
		case "combination (cv)":
			comb = &rep.Rows[i]
		}
	}
	// The score is the logit's sigmoid: the 6 × 6 pairs minus the crossings
	// (-0.2 < -0.5? no: -0.2 beats -0.5, -1, -1.5, -2 and loses to 0.3 and
	// 0.4; 0.1 loses to 0.3 and 0.4; 0.5 loses to none): 32/36.
	if score == nil || score.N != 12 || score.AUROC == nil || !closeTo(*score.AUROC, 32.0/36) {
		t.Errorf("score row %+v", score)
	}
	if comb == nil || comb.Claims != 13 || comb.N != 12 || comb.AUROC == nil {
		t.Errorf("combination row %+v", comb)
	}
	f, err := os.Open(csvOut)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != len(rep.Rows)+1 || recs[0][0] != "score" || recs[1][0] != rep.Rows[0].Name {
		t.Errorf("csv %v %v", err, recs)
	}

	calFile := filepath.Join(dir, "cal.json")
	out, err = runMain(t, append([]string{"calibrate", "--run", run, "--out", calFile}, args...)...)
	if err != nil || !strings.Contains(out, "with_model: fitted on 13 claims of run "+run) || !strings.Contains(out, "without_model: fitted on 13 claims") ||
		!strings.Contains(out, "wrote "+calFile) {
		t.Fatalf("calibrate: %v\n%s", err, out)
	}
	var cal claims.Calibration
	readJSON(t, calFile, &cal)
	if cal.WithModel == nil || cal.WithoutModel == nil || !slices.Equal(cal.WithModel.Names, kgeval.CalibrationFeatures) ||
		!slices.Equal(cal.WithoutModel.Names, kgeval.CalibrationFeaturesNoModel) || cal.WithModel.FittedOn.Run != run ||
		cal.WithModel.FittedOn.Claims != 13 || cal.WithModel.FittedOn.Fingerprint != "f00d" || !strings.HasPrefix(cal.WithModel.FittedOn.Kgeval, version) ||
		cal.WithModel.PassMark <= 0 || cal.WithModel.PassMark >= 1 {
		t.Errorf("calibration %+v %+v", cal.WithModel, cal.WithoutModel)
	}
	// The file is one the scoring code reads.
	raw, _ := os.ReadFile(calFile)
	parsed, err := claims.ParseCalibration(raw)
	if err != nil || parsed.WithModel.PassMark != cal.WithModel.PassMark || !slices.Equal(parsed.WithModel.Coef, cal.WithModel.Coef) ||
		parsed.WithoutModel.Intercept != cal.WithoutModel.Intercept {
		t.Errorf("claims.ParseCalibration: %v\n%s", err, raw)
	}

	out, err = runMain(t, append([]string{"factcheck", "--run", run, "--calibration", calFile}, args...)...)
	if err != nil || !strings.Contains(out, "calibration "+calFile+" with_model") || !strings.Contains(out, "calibration "+calFile+" without_model") ||
		!strings.Contains(out, "balanced accuracy at the file's pass mark") {
		t.Errorf("factcheck --calibration: %v\n%s", err, out)
	}

	// A run without the model's feature refits without_model and keeps the
	// file's with_model fit.
	ctx := context.Background()
	noModel := mustFactcheckRun(t, db)
	rows := graphstoretest.ExportScores(t, noModel, kgeval.DefaultVariant)
	for _, r := range rows {
		s, err := db.ReadKGScore(ctx, noModel, r.ID, "faithfulness", kgeval.DefaultVariant)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Claims {
			delete(c.Features, kgeval.FeatureModel)
			c.Model = nil
		}
		if err := db.WriteKGResults(ctx, noModel, kgeval.DefaultVariant, "native", kgeval.GraphParams{Tau: 0.7, Delta: 0.5}, []kgeval.KGResult{s.KGResult}); err != nil {
			t.Fatal(err)
		}
	}
	out, err = runMain(t, append([]string{"calibrate", "--run", noModel, "--out", calFile}, args...)...)
	if err != nil || !strings.Contains(out, "with_model: kept from "+calFile) {
		t.Fatalf("calibrate without the model: %v\n%s", err, out)
	}
	var kept claims.Calibration
	readJSON(t, calFile, &kept)
	if !slices.Equal(kept.WithModel.Coef, cal.WithModel.Coef) || kept.WithModel.FittedOn.Run != run || kept.WithoutModel.FittedOn.Run != noModel {
		t.Errorf("kept %+v, refitted %+v", kept.WithModel, kept.WithoutModel)
	}

	for _, tt := range []struct {
		args []string
		code string
		want string
	}{
		{[]string{"factcheck"}, kgeval.EINVALID, "--run is required"},
		{[]string{"factcheck", "--run", run, "--folds", "1"}, kgeval.EINVALID, "--folds 1"},
		{[]string{"factcheck", "--run", run, "--calibration", csvOut}, kgeval.EINVALID, "--calibration"},
		{[]string{"factcheck", "--run", run + "-nope"}, kgeval.ENOTFOUND, "nope"},
		{[]string{"calibrate", "--run", run, "--out", filepath.Join(dir, "no", "cal.json")}, kgeval.EINVALID, "no directory"},
		{[]string{"calibrate", "--run", run, "--lambda", "0"}, kgeval.EINVALID, "--lambda 0"},
	} {
		if _, err := runMain(t, append(tt.args, args...)...); kgeval.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %s with %q", tt.args, err, tt.code, tt.want)
		}
	}
}

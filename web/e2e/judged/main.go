// Command judged stores factual_accuracy and answer_class values for every
// sample of a run, as the LLM judge would store them (a score with a GEval
// explanation holding the grade; 1 or 0 with an explanation holding the
// class), so that the browser test sees the dashboard's grade and class
// charts without a model. The values are made up from the sample's system:
// grounded A / CORRECT, ungrounded D / WRONG, poor E / DONT_KNOW, any other
// B / CORRECT. It connects as the Go tests do (KGEVAL_NEO4J_URI, the
// password from KGEVAL_NEO4J_PASSWORD or .kgeval/neo4j/password).
//
//	go run ./web/e2e/judged --run NAME
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
)

func main() {
	run := flag.String("run", "", "run name")
	flag.Parse()
	if err := judge(context.Background(), *run); err != nil {
		fmt.Fprintln(os.Stderr, "judged:", err)
		os.Exit(1)
	}
}

// verdicts maps a system to its made-up grade, score and class.
var verdicts = map[string]struct {
	grade string
	score float64
	class string
}{
	"grounded":   {"A", 90, "CORRECT"},
	"ungrounded": {"D", 30, "WRONG"},
	"poor":       {"E", 10, "DONT_KNOW"},
}

func judge(ctx context.Context, run string) error {
	if run == "" {
		return fmt.Errorf("--run is required")
	}
	db, err := graphstore.Open(ctx, graphstore.Config{URI: graphstoretest.URI(), User: "neo4j", Password: graphstoretest.Password(), Database: "neo4j", QueryTimeout: time.Minute})
	if err != nil {
		return err
	}
	defer db.Close(ctx)
	rows, err := db.RunScores(ctx, run, kgeval.DefaultVariant)
	if err != nil {
		return err
	}
	var out []kgeval.MetricScore
	for _, r := range rows {
		v, ok := verdicts[r.System]
		if !ok {
			v.grade, v.score, v.class = "B", 70, "CORRECT"
		}
		ge, _ := json.Marshal(map[string]any{"correctness": v.score / 10, "completeness": v.score / 10, "consistency": v.score / 10,
			"score": v.score, "grade": v.grade, "reasoning": "made up by web/e2e/judged for the browser test"})
		ce, _ := json.Marshal(map[string]any{"class": v.class, "by": "model", "reason": "made up by web/e2e/judged for the browser test"})
		cv := 0.0
		if v.class == "CORRECT" {
			cv = 1
		}
		out = append(out,
			kgeval.MetricScore{Sample: r.ID, Metric: "factual_accuracy", Family: metricreg.FamilyRAGAS, Value: kgeval.Float(v.score), Explanation: ge},
			kgeval.MetricScore{Sample: r.ID, Metric: "answer_class", Family: metricreg.FamilyRAGAS, Value: &cv, Explanation: ce})
	}
	if err := db.WriteMetricScores(ctx, run, out); err != nil {
		return err
	}
	fmt.Printf("judged: %d samples of run %s given factual_accuracy and answer_class\n", len(rows), run)
	return nil
}

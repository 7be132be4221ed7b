// Command grounding stores a grounding check for one sample of a run as
// extraction with extraction.grounding: drop stores it (SPEC §2b): the
// sample's answer triplets kept, and one invented answer triplet dropped
// with the reason the lexical check gives. The browser test's triplets are
// given with the dataset, which the check leaves alone, so without this the
// sample page would have nothing struck through to show. It connects as the
// Go tests do (KGEVAL_NEO4J_URI, the password from KGEVAL_NEO4J_PASSWORD or
// .kgeval/neo4j/password).
//
//	go run ./web/e2e/grounding --run NAME --sample ID --invented 'Acme|is sold on|the Moon'
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/lexical"
)

func main() {
	run := flag.String("run", "", "run name")
	sample := flag.String("sample", "", "sample id")
	invented := flag.String("invented", "", "the dropped answer triplet: subject|relation|object")
	flag.Parse()
	if err := ground(context.Background(), *run, *sample, *invented); err != nil {
		fmt.Fprintln(os.Stderr, "grounding:", err)
		os.Exit(1)
	}
}

func ground(ctx context.Context, run, sample, invented string) error {
	parts := strings.Split(invented, "|")
	if run == "" || sample == "" || len(parts) != 3 {
		return fmt.Errorf("--run, --sample and --invented 'subject|relation|object' are required")
	}
	db, err := graphstore.Open(ctx, graphstore.Config{URI: graphstoretest.URI(), User: "neo4j", Password: graphstoretest.Password(), Database: "neo4j", QueryTimeout: time.Minute})
	if err != nil {
		return err
	}
	defer db.Close(ctx)
	r, err := db.GetRun(ctx, run)
	if err != nil {
		return err
	}
	d, err := db.GetSample(ctx, run, sample, kgeval.DefaultVariant, analysis.DisplayOf(r).Pairs)
	if err != nil {
		return err
	}
	kept := 0
	for _, p := range d.Pairs {
		if p.Pair.Input == kgeval.TextAnswer {
			kept = len(p.Input)
			break
		}
	}
	t := kgeval.Triplet{Subject: parts[0], Relation: parts[1], Object: parts[2]}
	ok, why := lexical.GroundText(t.Subject, t.Object, lexical.NewText(d.Answer), lexical.NewText(d.Question))
	if ok {
		return fmt.Errorf("%s %s %s is stated by the answer: it would not be dropped", t.Subject, t.Relation, t.Object)
	}
	g := kgeval.Grounding{Sample: sample, Text: kgeval.TextAnswer, Passage: -1, Kept: kept, Dropped: []kgeval.DroppedTriplet{{Triplet: t, Reason: why}}}
	if err := db.WriteGrounding(ctx, run, []kgeval.Grounding{g}); err != nil {
		return err
	}
	fmt.Printf("grounding: sample %s of run %s: %d answer triplets kept, (%s; %s; %s) dropped: %s\n", sample, run, kept, t.Subject, t.Relation, t.Object, why)
	return nil
}

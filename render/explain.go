package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// Explain prints why a sample of run scored as it did: per pair its verdict
// scores and every input triplet's verdict with its evidence sentence,
// contradictions first, then the triplets the grounding check dropped.
func Explain(w io.Writer, run string, d *readmodel.SampleDetail, only []string) {
	pairs, results, lines := analysis.SampleWhy(d, only)
	fmt.Fprintf(w, "sample %s", d.ID)
	if d.System != "" {
		fmt.Fprintf(w, " (system %s)", d.System)
	}
	fmt.Fprintf(w, ", run %s\n", run)
	for _, p := range pairs {
		r := results[p.Name]
		var parts []string
		for _, name := range metricreg.KGMetricNames {
			if metricreg.GraphMetric(name) {
				continue
			}
			if v := r.Value(name); v != nil {
				parts = append(parts, fmt.Sprintf("%s %.2f", name, *v))
			} else if why := r.ReasonFor(name); why != "" && !kgeval.NotApplicable(why) {
				parts = append(parts, fmt.Sprintf("%s null (%s)", name, why))
			}
		}
		fmt.Fprintf(w, "\n%s (%s → %s): %s\n", p.Name, p.Input, p.Context, strings.Join(parts, ", "))
		explainClaims(w, p.Context, r.Claims)
		for _, l := range lines {
			if l.Pair != p.Name {
				continue
			}
			label := strings.ToUpper(strings.ReplaceAll(l.Verdict, "_", " "))
			if l.Conflict {
				label += " (CONFLICT)"
			}
			asks := ""
			if l.Want != "" {
				asks = " asks for a " + l.Want
			}
			fmt.Fprintf(w, "  %-13s %s%s\n", label, l.Triplet, asks)
			if l.Model != "" {
				fmt.Fprintf(w, "  %-13s model: %s — %s\n", "", l.Model, l.ModelReason)
			}
			if l.Unfilled {
				why := "repeats the question or says unknown"
				if kgeval.LiteralWant(l.Want) {
					why += ", or is no " + l.Want
				}
				fmt.Fprintf(w, "  %-13s fills nothing new (%s): %s [%s]\n", "", why, l.Evidence, l.Source)
			} else if l.ByType {
				fmt.Fprintf(w, "  %-13s evidence %s [%s]: a new %s, another relation\n", "", l.Evidence, l.Source, l.Want)
			} else if l.Evidence != "" {
				fmt.Fprintf(w, "  %-13s evidence %s [%s]\n", "", l.Evidence, l.Source)
			} else if l.Sentence != "" {
				fmt.Fprintf(w, "  %-13s evidence sentence [%s]\n", "", l.Source)
			}
			if l.Sentence != "" {
				fmt.Fprintf(w, "  %-13s %q\n", "", l.Sentence)
			}
		}
		explainAtoms(w, r.Atoms)
		explainTypedSlots(w, r.TypedSlots)
	}
	var dropped []string
	for _, g := range d.Grounding {
		for _, t := range g.Dropped {
			where := analysis.Where(g.Text, g.Passage)
			dropped = append(dropped, fmt.Sprintf("  %-10s %s — %s", where, analysis.Triplet(t.Subject, t.Relation, t.Object), t.Reason))
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(w, "\ndropped by the grounding check (in no graph, no score; the extractor's inventions):\n%s\n", strings.Join(dropped, "\n"))
	}
}

// explainClaims prints the claim checks of one pair (SPEC §4d): each claim
// with its calibrated score and verdict, the model's P(supported), its
// conflicts and its best evidence sentences with why the graph chose them;
// the lowest scores first.
func explainClaims(w io.Writer, context kgeval.Text, cs []kgeval.ClaimCheck) {
	if len(cs) == 0 {
		return
	}
	sup := 0
	for _, c := range cs {
		if c.Verdict == kgeval.ClaimSupported {
			sup++
		}
	}
	fmt.Fprintf(w, "  claims: %d of %d supported\n", sup, len(cs))
	for _, c := range analysis.NewClaimViews(context, cs) {
		fmt.Fprintf(w, "  %-13s %.2f %q\n", strings.ToUpper(c.Verdict), c.Score, c.Text)
		var sig []string
		for _, x := range []string{c.ModelText, c.SignalText(", ")} {
			if x != "" {
				sig = append(sig, x)
			}
		}
		fmt.Fprintf(w, "  %-13s %s; evidence: %s\n", "", strings.Join(sig, ", "), c.EvidenceMode)
		for _, x := range c.Conflicts {
			fmt.Fprintf(w, "  %-13s conflict (%s): %q, the evidence says %q in %q\n", "", x.Kind, x.Claim, x.Evidence, x.Sentence)
		}
		for k, e := range c.Evidence {
			if k == 2 {
				break
			}
			fmt.Fprintf(w, "  %-13s [%s] %q (%s)\n", "", e.Where, e.Text, e.Why)
		}
	}
}

// explainAtoms prints the atom check of one pair (atom_support): the names
// and values of the input the context side does not state, then those it
// does.
func explainAtoms(w io.Writer, atoms []kgeval.AtomCheck) {
	if len(atoms) == 0 {
		return
	}
	var stated []string
	n := 0
	for _, a := range atoms {
		if a.Stated {
			n++
			stated = append(stated, fmt.Sprintf("%q", a.Text))
		}
	}
	fmt.Fprintf(w, "  names and values: %d of %d stated by the context side\n", n, len(atoms))
	for _, a := range atoms {
		if !a.Stated {
			fmt.Fprintf(w, "  %-13s %q (%s)\n", "NOT STATED", a.Text, a.Kind)
		}
	}
	if len(stated) > 0 {
		fmt.Fprintf(w, "  %-13s %s\n", "stated", strings.Join(stated, ", "))
	}
}

// explainTypedSlots prints the typed asked facts of one question pair
// (typed_slot_coverage): each clause, the type of value it asks for, and the
// value that answers it.
func explainTypedSlots(w io.Writer, slots []kgeval.TypedSlotCheck) {
	for _, c := range slots {
		if c.Answered {
			fmt.Fprintf(w, "  %-13s %q asks for a %s: %q\n", "ANSWERED", c.Clause, c.Want, c.Value)
		} else {
			fmt.Fprintf(w, "  %-13s %q asks for a %s: none stated\n", "UNANSWERED", c.Clause, c.Want)
		}
	}
}

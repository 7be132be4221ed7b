// Command kgeval-factcheck-data turns the ExpertQA answers of
// testdata/expertqa.jsonl into claim-level samples for `make factcheck`, in
// the style of LLM-AggreFact: one sample per expert-labelled claim, its
// answer the claim, its contexts the passages the experts gave as its
// evidence, its human label whether that evidence supports it completely.
//
// Usage (from the repository root; the defaults are the bundled files):
//
//	go run ./cmd/kgeval-factcheck-data [-in testdata/expertqa.jsonl] [-out testdata/expertqa_claims]
//
// It writes, deterministically (the same input gives the same bytes):
//
//   - OUT.jsonl: every claim with evidence labelled Complete (human
//     faithfulness 1) or Incomplete (0); metadata.group "balanced" for every
//     Incomplete claim and as many Complete claims, those whose sha256(id) in
//     hex is smallest, "extra" for the other Complete claims. Lines are
//     ordered by group (balanced first); the balanced group alternates an
//     Incomplete and a Complete claim, each kind in sha256(id) order (so
//     every even prefix is balanced), the extra group is in sha256(id) order.
//   - OUT_balanced.jsonl: the balanced group alone (what `make factcheck`
//     evaluates by default).
//   - OUT_missing.jsonl: the claims labelled Missing (no evidence passage),
//     with every passage of the answer as contexts and human faithfulness 0,
//     ordered by sha256(id); counted apart.
//
// A sample's id is "<record id>#<index of the claim in human.claims>", its
// question and system the record's, its answer the claim text exactly as
// given. Claims labelled Partial, N/A or null are left out. An evidence
// index given twice for one claim (4 claims) is used once, at its first
// place.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// record is the part of an expertqa.jsonl line the converter reads.
type record struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Contexts []string `json:"contexts"`
	System   string   `json:"system"`
	Human    struct {
		Claims []struct {
			Claim       string  `json:"claim"`
			EvidenceIdx []int   `json:"evidence_idx"`
			Support     *string `json:"support"`
		} `json:"claims"`
	} `json:"human"`
}

// sample is one output line, its fields in the order they are written.
type sample struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Contexts []string `json:"contexts"`
	Answer   string   `json:"answer"`
	System   string   `json:"system"`
	Human    struct {
		Faithfulness int `json:"faithfulness"`
	} `json:"human"`
	Metadata struct {
		Support string `json:"support"`
		Group   string `json:"group"`
	} `json:"metadata"`
	hash string
}

// Groups of metadata.group.
const (
	groupBalanced = "balanced"
	groupExtra    = "extra"
	groupMissing  = "missing"
)

func main() {
	in := flag.String("in", "testdata/expertqa.jsonl", "ExpertQA answers (kgeval JSONL with human.claims)")
	out := flag.String("out", "testdata/expertqa_claims", "output prefix: writes PREFIX.jsonl, PREFIX_balanced.jsonl and PREFIX_missing.jsonl")
	flag.Parse()
	if err := run(*in, *out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kgeval-factcheck-data:", err)
		os.Exit(1)
	}
}

func run(in, out string, log io.Writer) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	var complete, incomplete, missing []sample
	skipped := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s line %d: %w", in, line, err)
		}
		for i, c := range r.Human.Claims {
			label := "null"
			if c.Support != nil {
				label = *c.Support
			}
			s := sample{ID: fmt.Sprintf("%s#%d", r.ID, i), Question: r.Question, Answer: c.Claim, System: r.System}
			s.Metadata.Support = label
			sum := sha256.Sum256([]byte(s.ID))
			s.hash = hex.EncodeToString(sum[:])
			switch {
			case label == "Missing":
				s.Contexts = append([]string{}, r.Contexts...)
				s.Metadata.Group = groupMissing
				missing = append(missing, s)
				continue
			case label != "Complete" && label != "Incomplete":
				skipped[label]++
				continue
			case len(c.EvidenceIdx) == 0:
				skipped[label+" without evidence"]++
				continue
			}
			seen := map[int]bool{}
			for _, k := range c.EvidenceIdx {
				if k < 0 || k >= len(r.Contexts) {
					return fmt.Errorf("%s line %d: claim %d: evidence index %d outside the record's %d contexts", in, line, i, k, len(r.Contexts))
				}
				if !seen[k] {
					seen[k] = true
					s.Contexts = append(s.Contexts, r.Contexts[k])
				}
			}
			if label == "Complete" {
				s.Human.Faithfulness = 1
				complete = append(complete, s)
			} else {
				incomplete = append(incomplete, s)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if len(complete) < len(incomplete) {
		return fmt.Errorf("%s: %d Complete claims with evidence, fewer than the %d Incomplete ones", in, len(complete), len(incomplete))
	}
	byHash := func(xs []sample) {
		sort.Slice(xs, func(i, j int) bool { return xs[i].hash < xs[j].hash })
	}
	byHash(complete)
	byHash(incomplete)
	byHash(missing)
	// Interleaved, one Incomplete then one Complete, each in sha256 order:
	// every even-length prefix is balanced too (`make factcheck
	// KGEVAL_FACTCHECK_LIMIT=N` replays the first N, as far as the model's
	// answers reach).
	var balanced []sample
	for i := range incomplete {
		balanced = append(balanced, incomplete[i], complete[i])
	}
	for i := range balanced {
		balanced[i].Metadata.Group = groupBalanced
	}
	extra := append([]sample{}, complete[len(incomplete):]...)
	for i := range extra {
		extra[i].Metadata.Group = groupExtra
	}
	all := append(append([]sample{}, balanced...), extra...)
	for _, o := range []struct {
		path string
		xs   []sample
	}{{out + ".jsonl", all}, {out + "_balanced.jsonl", balanced}, {out + "_missing.jsonl", missing}} {
		if err := write(o.path, o.xs); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "%s: %d claims with evidence (%d balanced: %d Incomplete + %d Complete; %d extra Complete) -> %s.jsonl, %s_balanced.jsonl\n",
		in, len(all), len(balanced), len(incomplete), len(incomplete), len(extra), out, out)
	fmt.Fprintf(log, "%d Missing claims (no evidence) -> %s_missing.jsonl\n", len(missing), out)
	labels := make([]string, 0, len(skipped))
	for k := range skipped {
		labels = append(labels, k)
	}
	sort.Strings(labels)
	for _, k := range labels {
		fmt.Fprintf(log, "left out: %d %s\n", skipped[k], k)
	}
	return nil
}

// write writes xs as JSONL, HTML characters unescaped.
func write(path string, xs []sample) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, s := range xs {
		if err := enc.Encode(s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

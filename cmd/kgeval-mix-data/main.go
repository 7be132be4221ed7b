// Command kgeval-mix-data turns public labelled faithfulness datasets into
// claim-level samples in the format of testdata/expertqa_claims_balanced.jsonl
// (one claim a line: its evidence passages as contexts, the claim as answer,
// human.faithfulness 1 supported or 0 not), and writes a balanced,
// deterministic sample of each to testdata/mix_<name>.jsonl, and the first
// lines of testdata/expertqa_claims_balanced.jsonl to
// testdata/mix_expertqa.jsonl. `make factcheck` evaluates each file as a
// run of its own and fits the calibration leaving one dataset out in turn.
//
// Usage (from the repository root; testdata/README.md says where each raw
// file comes from; only RAGTruth's is in the repository, under testdata/raw/;
// a path ending in .gz is read through gzip):
//
//	go run ./cmd/kgeval-mix-data \
//	    [-faithbench DIR]        FaithBench data_for_release/ (batch_*.json)
//	    [-halueval FILE]         HaluEval data/qa_data.json (JSON lines)
//	    [-ragtruth FILE]         RAGTruth responses (see readRAGTruth)
//	    [-ragtruth-source FILE]  RAGTruth source_info.jsonl, when -ragtruth is the original response.jsonl
//	    [-ragtruth-first K]      RAGTruth: pick from the responses of -ragtruth's first K lines first
//	    [-attributionbench FILE] AttributionBench test_ood_all_subset_balanced.jsonl (its HAGRID items)
//	    [-out testdata] [-n 100] [-expertqa-n 100]
//
// The HAGRID file is AttributionBench's data/test_ood_all_subset_balanced.jsonl,
// of which only the HAGRID items are read (haGRID).
//
// A dataset whose flag is empty is not converted: its mix_<name>.jsonl, if
// any, is kept as it is.
//
// Every output line has metadata.dataset (short name), metadata.kind (rag,
// qa, summary or longform), metadata.label (the source's own label),
// metadata.contradiction (1 when the source labels the claim as
// contradicting its evidence, 0 when it labels it unsupported without
// contradiction, absent for supported claims and where the source does not
// tell) and, when the claim is one sentence of a longer answer,
// metadata.preceding: the answer's text before that sentence.
// human.contradiction repeats metadata.contradiction as a label, with 0 for
// the supported claims of a dataset that labels contradictions, so that
// `kgeval factcheck` can read claim_contradiction against it.
//
// Sampling: within each label the candidates are ordered by sha256(id) in
// hex and taken smallest first, at most -n of each label and as many of
// each (the smaller count of the two); a per-dataset cap on claims of one
// source item (a summary, a response) and, for RAGTruth, task-type quotas
// apply while taking. Lines alternate an unsupported and a supported claim,
// each kind in sha256(id) order, so every even prefix is balanced. With
// -ragtruth-first K, RAGTruth is picked in two stages (pickStaged): among
// the responses of the raw file's first K lines, then among all the rest,
// the second stage's lines appended; that is how mix_ragtruth.jsonl keeps
// its first 108 lines, once picked from a 109-line copy, now that the copy
// is whole.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the brief: a sample's contexts at most maxContext characters in
// all (longer items are dropped, not cut), a claim at most maxClaim
// characters (longer sentences are dropped), a sentence at least minWords
// words to be a claim.
const (
	maxContext = 6000
	maxClaim   = 400
	minWords   = 4
)

// sample is one output line, its fields in the order they are written.
type sample struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Contexts []string `json:"contexts"`
	Answer   string   `json:"answer"`
	System   string   `json:"system,omitempty"`
	Human    struct {
		Faithfulness int `json:"faithfulness"`
		// Contradiction is 1 for a claim the source labels as
		// contradicting its evidence, 0 for its other claims (supported
		// ones included), absent where the source has no such label.
		Contradiction *int `json:"contradiction,omitempty"`
	} `json:"human"`
	Metadata meta `json:"metadata"`

	hash  string // sha256(ID) in hex
	group string // the source item (summary, response, QA item): capped per item
	task  string // RAGTruth task type, for the quotas
	first bool   // RAGTruth: the response is on one of -ragtruth's first -ragtruth-first lines
}

// meta is metadata, common fields first, then each dataset's own.
type meta struct {
	Dataset       string `json:"dataset"`
	Kind          string `json:"kind"`
	Label         string `json:"label"`
	Contradiction *int   `json:"contradiction,omitempty"`
	Preceding     string `json:"preceding,omitempty"`
	// ExpertQA (kept from expertqa_claims_balanced.jsonl)
	Support string `json:"support,omitempty"`
	Group   string `json:"group,omitempty"`
	// FaithBench
	Batch       string `json:"batch,omitempty"`
	SampleID    string `json:"sample_id,omitempty"`
	RawSampleID string `json:"raw_sample_id,omitempty"`
	// RAGTruth
	TaskType   string `json:"task_type,omitempty"`
	Source     string `json:"source,omitempty"`
	SourceID   string `json:"source_id,omitempty"`
	ResponseID string `json:"response_id,omitempty"`
	Split      string `json:"split,omitempty"`
	// sentence-level datasets: the sentence's index in its answer
	Sentence *int `json:"sentence,omitempty"`
}

func main() {
	o := options{}
	flag.StringVar(&o.faithbench, "faithbench", "", "FaithBench data_for_release directory (batch_*.json); empty: skip")
	flag.StringVar(&o.halueval, "halueval", "", "HaluEval qa_data.json (JSON lines); empty: skip")
	flag.StringVar(&o.ragtruth, "ragtruth", "", "RAGTruth responses (JSON lines); empty: skip")
	flag.StringVar(&o.ragtruthSource, "ragtruth-source", "", "RAGTruth source_info.jsonl, needed when -ragtruth is the original response.jsonl")
	flag.StringVar(&o.attributionBench, "attributionbench", "", "AttributionBench JSON lines whose HAGRID items make mix_hagrid.jsonl; empty: skip")
	flag.IntVar(&o.ragtruthFirst, "ragtruth-first", 0, "RAGTruth: pick among the responses of -ragtruth's first K lines first, then append from all (0: one stage)")
	flag.StringVar(&o.expertqaClaims, "expertqa-claims", "testdata/expertqa_claims_balanced.jsonl", "ExpertQA claims (kgeval-factcheck-data output)")
	flag.StringVar(&o.expertqa, "expertqa", "testdata/expertqa.jsonl", "ExpertQA answers, to find each claim's preceding text")
	flag.StringVar(&o.out, "out", "testdata", "output directory")
	flag.IntVar(&o.n, "n", 100, "claims of each label per dataset")
	flag.IntVar(&o.expertqaN, "expertqa-n", 100, "ExpertQA claims of each label in mix.jsonl")
	flag.Parse()
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kgeval-mix-data:", err)
		os.Exit(1)
	}
}

type options struct {
	faithbench, halueval, ragtruth, ragtruthSource string
	attributionBench                               string
	expertqaClaims, expertqa, out                  string
	n, expertqaN, ragtruthFirst                    int
}

// converter makes a dataset's candidates; pick chooses among them.
type converter struct {
	name string
	path string
	make func(o options, log io.Writer) ([]sample, error)
	pick func(cands []sample, n int) []sample
}

func run(o options, log io.Writer) error {
	convs := []converter{
		{"faithbench", o.faithbench, faithBench, func(c []sample, n int) []sample { return pick(c, n, 2, nil) }},
		{"halueval", o.halueval, haluEval, func(c []sample, n int) []sample { return pick(c, n, 0, nil) }},
		{"hagrid", o.attributionBench, haGRID, func(c []sample, n int) []sample { return pick(c, n, 2, nil) }},
		{"ragtruth", o.ragtruth, ragTruth, func(c []sample, n int) []sample {
			if o.ragtruthFirst > 0 {
				return pickStaged(c, n, 2, ragTruthQuota)
			}
			return pick(c, n, 2, ragTruthQuota)
		}},
	}
	for _, c := range convs {
		if c.path == "" {
			continue
		}
		cands, err := c.make(o, log)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		for i := range cands {
			sum := sha256.Sum256([]byte(cands[i].ID))
			cands[i].hash = hex.EncodeToString(sum[:])
		}
		if err := uniqueIDs(cands); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		out := c.pick(cands, o.n)
		path := filepath.Join(o.out, "mix_"+c.name+".jsonl")
		if err := write(path, out); err != nil {
			return err
		}
		fmt.Fprintf(log, "%s: %d candidates (%s) -> %s: %s\n", c.name, len(cands), counts(cands), path, counts(out))
	}
	return mix(o, log)
}

// counts says how many of xs are supported, unsupported and labelled contradicting.
func counts(xs []sample) string {
	var sup, uns, con int
	for _, s := range xs {
		if s.Human.Faithfulness == 1 {
			sup++
		} else {
			uns++
		}
		if s.Metadata.Contradiction != nil && *s.Metadata.Contradiction == 1 {
			con++
		}
	}
	return fmt.Sprintf("%d supported, %d unsupported, %d of them contradiction", sup, uns, con)
}

func uniqueIDs(xs []sample) error {
	seen := map[string]bool{}
	for _, s := range xs {
		if seen[s.ID] {
			return fmt.Errorf("id %q twice", s.ID)
		}
		seen[s.ID] = true
	}
	return nil
}

// quota says how many claims of a task type pick may take at most in its
// first pass, out of n of one label; nil: no quota.
type quota func(task string, n int) int

// pick takes up to n unsupported and as many supported candidates, each
// label smallest sha256(id) first, at most perGroup claims of one source item
// in all (0: no cap), within q's task-type quotas first and then, if a label
// is still short, from any task type; it returns them interleaved,
// unsupported first.
func pick(cands []sample, n, perGroup int, q quota) []sample {
	return pickUsed(cands, n, perGroup, q, map[string]int{})
}

// pickStaged picks in two stages: first among the candidates marked first,
// as pick would among them alone, then, for up to n of each label in all,
// among all the others, the claims taken in the first stage counting towards
// the per-item cap; it returns the first stage's lines, then the second's,
// each interleaved unsupported first, so every even prefix is balanced and
// the first stage's lines do not depend on the candidates added later.
func pickStaged(cands []sample, n, perGroup int, q quota) []sample {
	var first, rest []sample
	for _, s := range cands {
		if s.first {
			first = append(first, s)
		}
	}
	out := pick(first, n, perGroup, q)
	used := map[string]int{}
	taken := map[string]bool{}
	for _, s := range out {
		used[s.group]++
		taken[s.ID] = true
	}
	for _, s := range cands {
		if !taken[s.ID] {
			rest = append(rest, s)
		}
	}
	return append(out, pickUsed(rest, n-len(out)/2, perGroup, q, used)...)
}

// pickUsed is pick with used[item] claims of each source item already taken.
func pickUsed(cands []sample, n, perGroup int, q quota, used map[string]int) []sample {
	sorted := append([]sample{}, cands...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].hash < sorted[j].hash })
	taken := map[string]bool{}
	var chosen [2][]sample
	for _, label := range []int{0, 1} {
		tasks := map[string]int{}
		passes := []quota{q}
		if q != nil {
			passes = append(passes, nil)
		}
		for _, pq := range passes {
			for _, s := range sorted {
				if len(chosen[label]) >= n {
					break
				}
				if s.Human.Faithfulness != label || taken[s.ID] {
					continue
				}
				if perGroup > 0 && used[s.group] >= perGroup {
					continue
				}
				if pq != nil && tasks[s.task] >= pq(s.task, n) {
					continue
				}
				taken[s.ID] = true
				used[s.group]++
				tasks[s.task]++
				chosen[label] = append(chosen[label], s)
			}
		}
	}
	k := min(len(chosen[0]), len(chosen[1]))
	out := make([]sample, 0, 2*k)
	for i := 0; i < k; i++ {
		out = append(out, chosen[0][i], chosen[1][i])
	}
	return out
}

// write writes xs as JSONL, HTML characters unescaped.
func write(path string, xs []sample) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	labelled := false // does the dataset label contradictions?
	for _, s := range xs {
		labelled = labelled || s.Metadata.Contradiction != nil
	}
	for _, s := range xs {
		switch {
		case s.Metadata.Contradiction != nil:
			c := *s.Metadata.Contradiction
			s.Human.Contradiction = &c
		case labelled && s.Human.Faithfulness == 1:
			zero := 0
			s.Human.Contradiction = &zero
		}
		if err := enc.Encode(s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// readLines calls fn with each non-blank line of path and its number.
// A path ending in .gz is read through gzip.
func readLines(path string, fn func(line int, b []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer z.Close()
		r = z
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := fn(n, sc.Bytes()); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func intp(i int) *int { return &i }

// contextLen is the characters of all contexts.
func contextLen(cs []string) int {
	n := 0
	for _, c := range cs {
		n += utf8.RuneCountInString(c)
	}
	return n
}

// span is a labelled part [start, end) of an answer, in bytes.
type span struct {
	start, end int
	labels     []string
}

// overlaps reports whether sp shares a letter or digit with s[a:b].
func overlaps(s string, a, b int, sp span) bool {
	lo, hi := max(a, sp.start), min(b, sp.end)
	if lo >= hi {
		return false
	}
	return strings.IndexFunc(s[lo:hi], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// runeToByte returns a function from a character (code point) offset of s,
// as Python counts, to its byte offset; ok false past the end.
func runeToByte(s string) func(int) (int, bool) {
	offs := make([]int, 0, len(s)+1)
	for i := range s {
		offs = append(offs, i)
	}
	offs = append(offs, len(s))
	return func(r int) (int, bool) {
		if r < 0 || r >= len(offs) {
			return 0, false
		}
		return offs[r], true
	}
}

// claimOK reports whether a sentence is a claim worth checking: at least
// minWords words, at most maxClaim characters, and not a heading or lead-in
// that ends with a colon.
func claimOK(s string) (bool, string) {
	switch {
	case utf8.RuneCountInString(s) > maxClaim:
		return false, "longer than 400 characters"
	case len(strings.Fields(s)) < minWords:
		return false, "fewer than 4 words"
	case strings.HasSuffix(s, ":"):
		return false, "a lead-in ending with ':'"
	}
	return true, ""
}

// readJSON decodes the JSON file path into v.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// dropped counts left-out items by reason, for the log.
type dropped map[string]int

func (d dropped) report(log io.Writer, name string) {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(log, "%s: left out %d %s\n", name, d[k], k)
	}
}

// atoi is strconv.Itoa, for ids.
func atoi(i int) string { return strconv.Itoa(i) }

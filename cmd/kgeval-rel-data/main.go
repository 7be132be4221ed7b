// Command kgeval-rel-data turns public labelled sets into samples for fitting
// the pass marks of kgeval's relevance and correctness pairs, in kgeval's
// sample format (id, question, contexts, answer, reference, human, metadata),
// and writes a balanced, deterministic sample of each to
// testdata/rel_<name>.jsonl:
//
//   - rel_kamalloo_nq.jsonl: human.answer_correctness, answers of open-domain
//     QA systems and LLMs to 301 Natural Questions (NQ-open test) questions
//     judged acceptable (1) or not (0) by Kamalloo et al. (2023), reference
//     the NQ gold answers; no contexts.
//   - rel_evouna_tq.jsonl: human.answer_correctness, answers of FiD,
//     GPT-3.5, ChatGPT, GPT-4 and Bing Chat to TriviaQA questions judged
//     correct (1) or not (0) by EVOUNA's annotators (Wang et al., 2023),
//     reference at most five of TriviaQA's answer aliases (shortAliases;
//     metadata.references has them all); no contexts.
//   - rel_hotpotqa.jsonl: human.context_relevance, one HotpotQA
//     (distractor setting) paragraph as contexts: 1 when it is one of the two
//     gold paragraphs whose sentences the annotators marked as supporting
//     facts, 0 when it is one of the distractors HotpotQA retrieved for the
//     question (bigram TF-IDF); answer and reference HotpotQA's answer.
//
// Usage (from the repository root; the raw files are not in the repository,
// testdata/README.md says where each comes from):
//
//	go run ./cmd/kgeval-rel-data \
//	    [-kamalloo DIR]   ehsk/OpenQA-eval data/ (NQ301_human.tsv, model_outputs/*.jsonl)
//	    [-evouna FILE]    wangcunxiang/QA-Eval EVOUNA/TQ.json
//	    [-hotpot FILE]    HotpotQA dev distractor items (JSON array, original or Hugging Face layout)
//	    [-out testdata] [-n 150]
//
// A set whose flag is empty is not converted. Sampling: within each label the
// candidates are ordered by sha256(id) in hex and taken smallest first, at most
// -n of each label and as many of each, at most a set's cap of candidates of one
// question and label (1 for the answer sets, 2 for HotpotQA); lines alternate
// a 0 and a 1, so every even prefix is balanced.
// Reference aliases are joined with " / " (metadata.references keeps the list).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type human struct {
	AnswerCorrectness *int `json:"answer_correctness,omitempty"`
	ContextRelevance  *int `json:"context_relevance,omitempty"`
	AnswerRelevance   *int `json:"answer_relevance,omitempty"`
}

type meta struct {
	Dataset    string   `json:"dataset"`
	Label      string   `json:"label"`
	Source     string   `json:"source,omitempty"`
	QuestionID string   `json:"question_id,omitempty"`
	References []string `json:"references,omitempty"`
	Title      string   `json:"title,omitempty"`
	Supporting *bool    `json:"supporting,omitempty"`
}

// sample is one output line, its fields in the order they are written.
type sample struct {
	ID        string   `json:"id"`
	Question  string   `json:"question"`
	Contexts  []string `json:"contexts"`
	Answer    string   `json:"answer"`
	Reference string   `json:"reference"`
	System    string   `json:"system,omitempty"`
	Human     human    `json:"human"`
	Metadata  meta     `json:"metadata"`

	label int    // 0 or 1
	group string // the question: capped per question
	hash  string
}

type options struct {
	kamalloo, evouna, hotpot, out string
	n                             int
}

func main() {
	o := options{}
	flag.StringVar(&o.kamalloo, "kamalloo", "", "ehsk/OpenQA-eval data directory; empty: skip")
	flag.StringVar(&o.evouna, "evouna", "", "EVOUNA TQ.json; empty: skip")
	flag.StringVar(&o.hotpot, "hotpot", "", "HotpotQA dev distractor JSON; empty: skip")
	flag.StringVar(&o.out, "out", "testdata", "output directory")
	flag.IntVar(&o.n, "n", 150, "samples of each label per set")
	flag.Parse()
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kgeval-rel-data:", err)
		os.Exit(1)
	}
}

func run(o options, log io.Writer) error {
	sets := []struct {
		name, path string
		cap        int
		make       func(string) ([]sample, error)
	}{
		{"kamalloo_nq", o.kamalloo, 1, kamalloo},
		{"evouna_tq", o.evouna, 1, evouna},
		{"hotpotqa", o.hotpot, 2, hotpot},
	}
	for _, s := range sets {
		if s.path == "" {
			continue
		}
		cands, err := s.make(s.path)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		seen := map[string]bool{}
		for i := range cands {
			if seen[cands[i].ID] {
				return fmt.Errorf("%s: id %q twice", s.name, cands[i].ID)
			}
			seen[cands[i].ID] = true
			sum := sha256.Sum256([]byte(cands[i].ID))
			cands[i].hash = hex.EncodeToString(sum[:])
		}
		out := pick(cands, o.n, s.cap)
		path := filepath.Join(o.out, "rel_"+s.name+".jsonl")
		if err := write(path, out); err != nil {
			return err
		}
		fmt.Fprintf(log, "%s: %d candidates (%s) -> %s: %s\n", s.name, len(cands), counts(cands), path, counts(out))
	}
	return nil
}

func counts(xs []sample) string {
	var n [2]int
	for _, s := range xs {
		n[s.label]++
	}
	return fmt.Sprintf("%d labelled 1, %d labelled 0", n[1], n[0])
}

// pick takes up to n candidates of each label, smallest sha256(id) first,
// at most perGroup of one question and label; it returns as many of each,
// interleaved 0 then 1.
func pick(cands []sample, n, perGroup int) []sample {
	sorted := append([]sample{}, cands...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].hash < sorted[j].hash })
	var chosen [2][]sample
	for _, label := range []int{0, 1} {
		used := map[string]int{}
		for _, s := range sorted {
			if len(chosen[label]) >= n {
				break
			}
			if s.label != label || used[s.group] >= perGroup {
				continue
			}
			used[s.group]++
			chosen[label] = append(chosen[label], s)
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
	for _, s := range xs {
		if s.Contexts == nil {
			s.Contexts = []string{}
		}
		if err := enc.Encode(s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func intp(i int) *int { return &i }

// aliases splits a gold answer list, trimmed, empty and repeated ones left out.
func aliases(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		x = strings.TrimSpace(x)
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// kamalloo reads NQ301_human.tsv (id, Question, Model answer, Acceptable?,
// annotator1..3) and the gold answers of each question from the "answer"
// field of model_outputs/*.jsonl.
func kamalloo(dir string) ([]sample, error) {
	gold := map[string][]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "model_outputs", "*.jsonl"))
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var r struct {
				Question string   `json:"question"`
				Answer   []string `json:"answer"`
			}
			if err := json.Unmarshal(line, &r); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			q := strings.TrimSpace(r.Question)
			if _, ok := gold[q]; !ok && len(r.Answer) > 0 {
				gold[q] = aliases(r.Answer)
			}
		}
	}
	// One row a line, fields split at tabs: answers hold quotes that
	// are not CSV quoting.
	tsv, err := os.ReadFile(filepath.Join(dir, "NQ301_human.tsv"))
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(string(tsv), "\n"), "\n") {
		rows = append(rows, strings.Split(strings.TrimRight(line, "\r"), "\t"))
	}
	if len(rows) == 0 || len(rows[0]) < 4 || rows[0][0] != "id" || rows[0][3] != "Acceptable?" {
		return nil, fmt.Errorf("NQ301_human.tsv: unexpected header %q", rows[0])
	}
	var out []sample
	k := map[string]int{}
	for i, r := range rows[1:] {
		if len(r) < 4 {
			return nil, fmt.Errorf("NQ301_human.tsv row %d: %d fields", i+2, len(r))
		}
		qid, q, ans, acc := r[0], strings.TrimSpace(r[1]), strings.TrimSpace(r[2]), strings.TrimSpace(r[3])
		g, ok := gold[q]
		if !ok {
			return nil, fmt.Errorf("no gold answers for question %q", q)
		}
		var label int
		switch acc {
		case "Yes":
			label = 1
		case "No":
		default:
			return nil, fmt.Errorf("NQ301_human.tsv row %d: Acceptable? %q", i+2, acc)
		}
		if ans == "" {
			continue
		}
		s := sample{
			ID:        fmt.Sprintf("kamalloo-nq301-%s#%d", qid, k[qid]),
			Question:  q,
			Answer:    ans,
			Reference: strings.Join(g, " / "),
			label:     label,
			group:     qid,
		}
		k[qid]++
		s.Human.AnswerCorrectness = intp(label)
		s.Metadata = meta{Dataset: "kamalloo_nq", Label: "Acceptable? " + acc, QuestionID: qid, References: g}
		out = append(out, s)
	}
	return out, nil
}

// evouna reads EVOUNA's TQ.json: per question the gold answer (aliases
// split at '/'), and per system its answer and the human judgement;
// improper questions and missing judgements are left out.
func evouna(path string) ([]sample, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var items []map[string]any
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, err
	}
	systems := []struct{ key, name string }{
		{"fid", "DPR+FiD"}, {"gpt35", "GPT-3.5"}, {"chatgpt", "ChatGPT-3.5"}, {"gpt4", "GPT-4"}, {"newbing", "Bing Chat"},
	}
	var out []sample
	for i, it := range items {
		if imp, _ := it["improper"].(bool); imp {
			continue
		}
		q, _ := it["question"].(string)
		gs, _ := it["golden_answer"].(string)
		g := aliases(strings.Split(gs, "/"))
		if strings.TrimSpace(q) == "" || len(g) == 0 {
			continue
		}
		for _, sy := range systems {
			ans, _ := it["answer_"+sy.key].(string)
			judge, ok := it["judge_"+sy.key].(bool)
			ans = strings.TrimSpace(ans)
			if !ok || ans == "" {
				continue
			}
			label := 0
			if judge {
				label = 1
			}
			s := sample{
				ID:        fmt.Sprintf("evouna-tq-%04d#%s", i, sy.key),
				Question:  strings.TrimSpace(q),
				Answer:    ans,
				Reference: strings.Join(shortAliases(g), " / "),
				System:    sy.name,
				label:     label,
				group:     fmt.Sprint(i),
			}
			s.Human.AnswerCorrectness = intp(label)
			s.Metadata = meta{Dataset: "evouna_tq", Label: fmt.Sprintf("judge_%s %v", sy.key, judge), QuestionID: fmt.Sprintf("%04d", i), References: g}
			out = append(out, s)
		}
	}
	return out, nil
}

// shortAliases is what a reference string shows of TriviaQA's alias list
// (up to 185 names, Wikipedia redirects among them): at most the first 5 of
// those of at most 60 characters, not naming a disambiguation page, not
// repeating one (case aside); the whole list if that leaves none.
func shortAliases(g []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range g {
		k := strings.ToLower(a)
		if len([]rune(a)) > 60 || strings.Contains(k, "(disambiguation)") || seen[k] {
			continue
		}
		seen[k] = true
		if out = append(out, a); len(out) == 5 {
			break
		}
	}
	if len(out) == 0 {
		return g
	}
	return out
}

// hotpot reads HotpotQA dev distractor items, in the original layout
// (context [[title, [sentences]]], supporting_facts [[title, sent]]) or the
// Hugging Face one (context {title, sentences}, supporting_facts {title,
// sent_id}); each paragraph is a candidate, 1 when its title is among the
// supporting facts' titles.
func hotpot(path string) ([]sample, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var items []struct {
		ID       string          `json:"_id"`
		Question string          `json:"question"`
		Answer   string          `json:"answer"`
		Type     string          `json:"type"`
		Level    string          `json:"level"`
		SF       json.RawMessage `json:"supporting_facts"`
		Context  json.RawMessage `json:"context"`
	}
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, err
	}
	var out []sample
	for i, it := range items {
		titles, paras, err := hotpotContext(it.Context)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		sup, err := hotpotSupport(it.SF)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		qid := it.ID
		if qid == "" {
			qid = fmt.Sprintf("%03d", i)
		}
		if len(titles) < 3 || len(sup) == 0 {
			continue // not the distractor setting
		}
		for k, t := range titles {
			text := strings.TrimSpace(strings.Join(paras[k], ""))
			if text == "" {
				continue
			}
			label := 0
			if sup[t] {
				label = 1
			}
			s := sample{
				ID:        fmt.Sprintf("hotpotqa-dev-%s#%d", qid, k),
				Question:  strings.TrimSpace(it.Question),
				Contexts:  []string{t + "\n" + text},
				Answer:    strings.TrimSpace(it.Answer),
				Reference: strings.TrimSpace(it.Answer),
				label:     label,
				group:     qid,
			}
			s.Human.ContextRelevance = intp(label)
			supp := label == 1
			lab := "distractor"
			if supp {
				lab = "supporting"
			}
			s.Metadata = meta{Dataset: "hotpotqa", Label: lab, Source: it.Type + "/" + it.Level, QuestionID: qid, Title: t, Supporting: &supp}
			out = append(out, s)
		}
	}
	return out, nil
}

func hotpotContext(raw json.RawMessage) ([]string, [][]string, error) {
	var hf struct {
		Title     []string   `json:"title"`
		Sentences [][]string `json:"sentences"`
	}
	if json.Unmarshal(raw, &hf) == nil && len(hf.Title) > 0 {
		if len(hf.Title) != len(hf.Sentences) {
			return nil, nil, fmt.Errorf("%d titles, %d paragraphs", len(hf.Title), len(hf.Sentences))
		}
		return hf.Title, hf.Sentences, nil
	}
	var orig [][]json.RawMessage
	if err := json.Unmarshal(raw, &orig); err != nil {
		return nil, nil, err
	}
	var titles []string
	var paras [][]string
	for _, p := range orig {
		var t string
		var ss []string
		if len(p) != 2 || json.Unmarshal(p[0], &t) != nil || json.Unmarshal(p[1], &ss) != nil {
			return nil, nil, fmt.Errorf("context paragraph not [title, [sentences]]")
		}
		titles = append(titles, t)
		paras = append(paras, ss)
	}
	return titles, paras, nil
}

func hotpotSupport(raw json.RawMessage) (map[string]bool, error) {
	out := map[string]bool{}
	var hf struct {
		Title []string `json:"title"`
	}
	if json.Unmarshal(raw, &hf) == nil && len(hf.Title) > 0 {
		for _, t := range hf.Title {
			out[t] = true
		}
		return out, nil
	}
	var orig [][]json.RawMessage
	if err := json.Unmarshal(raw, &orig); err != nil {
		return nil, err
	}
	for _, f := range orig {
		var t string
		if len(f) == 0 || json.Unmarshal(f[0], &t) != nil {
			return nil, fmt.Errorf("supporting fact not [title, sentence]")
		}
		out[t] = true
	}
	return out, nil
}

package traces

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kgeval/kgeval"
)

// OpenInference span kinds that Samples reads.
const (
	KindRetriever = "RETRIEVER"
	KindReranker  = "RERANKER"
	KindLLM       = "LLM"
)

// Options configure Samples.
type Options struct {
	// System names the samples' system; "" takes the trace's service.name.
	System string
}

// Samples turns each trace of spans into one sample (traces in the order
// their first span appears), by these rules, which hold for nested chains
// too (a chain that calls a retriever, a reranker and several LLMs):
//
//   - contexts: the output documents (reranker.output_documents) of the
//     last RERANKER span when there is one, else the documents
//     (retrieval.documents) of every RETRIEVER span of the trace in start
//     order, a document repeated by a later retriever kept once;
//   - question: the input (input.value) of the trace's root span unless the
//     root is itself an LLM span: a plain string, or of a JSON object its
//     field question, query, input, user_input or q (or its only string
//     field); else the query (input.value) of the first RETRIEVER; else the
//     last user message of the first LLM span;
//   - answer: the last assistant message (llm.output_messages) of the LLM
//     span that ends last, else its output.value; else the root's output
//     (a string, or a JSON object's answer, output, result or text field);
//   - id: the trace id; metadata: trace_id, the root's span id and name.
//
// A trace that gives no question, no answer or no context is not a sample:
// it is returned as a rejection that says which is missing (its Record is
// the trace's 1-based position), never dropped silently.
func Samples(spans []Span, o Options) ([]kgeval.Sample, []kgeval.Rejection) {
	var order []string
	byTrace := map[string][]Span{}
	for _, s := range spans {
		if _, ok := byTrace[s.TraceID]; !ok {
			order = append(order, s.TraceID)
		}
		byTrace[s.TraceID] = append(byTrace[s.TraceID], s)
	}
	var out []kgeval.Sample
	var rejected []kgeval.Rejection
	for i, id := range order {
		s, why := sampleOf(byTrace[id], o)
		if why != "" {
			rejected = append(rejected, kgeval.Rejection{Record: i + 1, ID: id, Reason: why})
			continue
		}
		s.Record = i + 1
		out = append(out, s)
	}
	return out, rejected
}

// sampleOf is the sample of one trace, or why there is none.
func sampleOf(spans []Span, o Options) (kgeval.Sample, string) {
	sort.SliceStable(spans, func(a, b int) bool { return spans[a].Start < spans[b].Start })
	root := rootOf(spans)
	s := kgeval.Sample{ID: root.TraceID, System: o.System, Metadata: map[string]any{"trace_id": root.TraceID, "root_span_id": root.SpanID, "root_span": root.Name}}
	if s.System == "" {
		s.System = root.Service
	}
	var retrievers, llms []Span
	var reranker *Span
	for i, sp := range spans {
		switch sp.Kind {
		case KindRetriever:
			retrievers = append(retrievers, sp)
		case KindReranker:
			reranker = &spans[i]
		case KindLLM:
			llms = append(llms, sp)
		}
	}
	if reranker != nil {
		s.Contexts = documents(reranker.Attrs, "reranker.output_documents")
	}
	if len(s.Contexts) == 0 {
		seen := map[string]bool{}
		for _, r := range retrievers {
			for _, d := range documents(r.Attrs, "retrieval.documents") {
				if !seen[d] {
					seen[d] = true
					s.Contexts = append(s.Contexts, d)
				}
			}
		}
	}
	if root.Kind != KindLLM {
		s.Question = field(str(root.Attrs["input.value"]), "question", "query", "input", "user_input", "q")
	}
	if s.Question == "" && len(retrievers) > 0 {
		s.Question = field(str(retrievers[0].Attrs["input.value"]), "query", "question", "input")
	}
	if s.Question == "" && len(llms) > 0 {
		s.Question = lastMessage(llms[0].Attrs, "llm.input_messages", "user")
	}
	if len(llms) > 0 {
		sort.SliceStable(llms, func(a, b int) bool { return llms[a].End < llms[b].End })
		last := llms[len(llms)-1]
		if s.Answer = lastMessage(last.Attrs, "llm.output_messages", "assistant"); s.Answer == "" {
			s.Answer = strings.TrimSpace(str(last.Attrs["output.value"]))
		}
	}
	if s.Answer == "" {
		s.Answer = field(str(root.Attrs["output.value"]), "answer", "output", "result", "text")
	}
	var missing []string
	if s.Question == "" {
		missing = append(missing, "no question (root input.value, retriever query or LLM user message)")
	}
	if s.Answer == "" {
		missing = append(missing, "no answer (LLM output or root output.value)")
	}
	if len(s.Contexts) == 0 {
		missing = append(missing, fmt.Sprintf("no context (no RETRIEVER or RERANKER span with documents among its %d spans)", len(spans)))
	}
	if len(missing) > 0 {
		return s, "trace " + root.TraceID + ": " + strings.Join(missing, "; ")
	}
	return s, ""
}

// rootOf is the span of a trace without a parent in it (the earliest
// when several are).
func rootOf(spans []Span) Span {
	ids := map[string]bool{}
	for _, s := range spans {
		ids[s.SpanID] = true
	}
	for _, s := range spans {
		if s.ParentID == "" || !ids[s.ParentID] {
			return s
		}
	}
	return spans[0]
}

// documents are the contents of the documents under prefix
// (prefix.N.document.content), in index order.
func documents(attrs map[string]any, prefix string) []string {
	var out []string
	for i := 0; ; i++ {
		p := prefix + "." + strconv.Itoa(i) + "."
		c, ok := attrs[p+"document.content"]
		if !ok {
			if !hasPrefix(attrs, p) {
				return out
			}
			continue
		}
		if t := strings.TrimSpace(str(c)); t != "" {
			out = append(out, t)
		}
	}
}

// lastMessage is the content of the last message of role under prefix
// (prefix.N.message.role, prefix.N.message.content).
func lastMessage(attrs map[string]any, prefix, role string) string {
	out := ""
	for i := 0; ; i++ {
		p := prefix + "." + strconv.Itoa(i) + ".message."
		r, ok := attrs[p+"role"]
		if !ok {
			if !hasPrefix(attrs, prefix+"."+strconv.Itoa(i)+".") {
				return out
			}
			continue
		}
		if strings.EqualFold(str(r), role) {
			if c := strings.TrimSpace(str(attrs[p+"content"])); c != "" {
				out = c
			}
		}
	}
}

func hasPrefix(attrs map[string]any, p string) bool {
	for k := range attrs {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// field reads a text that may be JSON: a JSON string is unquoted, a JSON
// object gives the first of names that holds a string (or its only string
// field); anything else is the text itself.
func field(text string, names ...string) string {
	text = strings.TrimSpace(text)
	if text == "" || (text[0] != '{' && text[0] != '"') {
		return text
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return text
	}
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case map[string]any:
		for _, n := range names {
			if s, ok := x[n].(string); ok && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
		var only []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				only = append(only, s)
			}
		}
		if len(only) == 1 {
			return strings.TrimSpace(only[0])
		}
		return ""
	}
	return text
}

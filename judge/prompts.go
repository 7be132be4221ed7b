package judge

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed prompts/*.txt
var promptFS embed.FS

// prompt is one system prompt. Its name carries the version
// ("ragas_claims.v1") and is part of every cache key: a changed prompt is a
// new file with a new version, so it never reuses old answers.
type prompt struct {
	name string
	text string
}

// schemaName is the JSON Schema name sent with the request ("ragas_claims").
func (p prompt) schemaName() string {
	name, _, _ := strings.Cut(p.name, ".")
	return name
}

// mustPrompt loads prompts/<name>.txt; an unknown name stops the program at
// start-up, not in the middle of a run.
func mustPrompt(name string) prompt {
	b, err := promptFS.ReadFile("prompts/" + name + ".txt")
	if err != nil {
		panic(fmt.Sprintf("judge: prompt %s: %v", name, err))
	}
	return prompt{name: name, text: string(b)}
}

// The prompts, one per model question (SPEC §6, §7).
var (
	promptResponseQuestions = mustPrompt("response_questions.v1")      // llm_response_relevancy
	promptAnswerFacts       = mustPrompt("answer_facts.v1")            // facts of the answer with their passages
	promptFacts             = mustPrompt("facts.v1")                   // facts of the reference (or of an answer without contexts)
	promptVerifyFacts       = mustPrompt("verify_facts.v1")            // llm_faithfulness
	promptFactLabels        = mustPrompt("fact_labels.v2")             // llm_factual_correctness
	promptClaims            = mustPrompt("ragas_claims.v1")            // ragas_faithfulness
	promptVerifyClaims      = mustPrompt("ragas_verify_claims.v1")     // ragas_faithfulness
	promptContextRelevance  = mustPrompt("ragas_context_relevance.v1") // ragas_context_precision(_at_k)
	promptContextRecall     = mustPrompt("ragas_context_recall.v1")    // ragas_context_recall
	promptAnswerQuestions   = mustPrompt("ragas_answer_questions.v1")  // ragas_answer_relevance
	promptAnswerRubric      = mustPrompt("ragas_answer_rubric.v1")     // ragas_answer_relevance fallback
	promptGEval             = mustPrompt("geval.v1")                   // factual_accuracy
	promptAnswerClass       = mustPrompt("answer_class.v1")            // answer_class
)

// Prompts returns the name (with version) of every prompt the Judge uses.
func Prompts() []string {
	var out []string
	for _, p := range []prompt{promptResponseQuestions, promptAnswerFacts, promptFacts, promptVerifyFacts, promptFactLabels,
		promptClaims, promptVerifyClaims, promptContextRelevance, promptContextRecall, promptAnswerQuestions,
		promptAnswerRubric, promptGEval, promptAnswerClass} {
		out = append(out, p.name)
	}
	return out
}

// object returns a JSON Schema object whose properties are given as JSON
// text, so that their order — the order a grammar-constrained model writes
// them in (a reason before its verdict) — is kept. Every property is
// required and no other is allowed (OpenAI strict mode).
func object(properties string, required ...string) map[string]any {
	return map[string]any{
		"type":                 "object",
		"properties":           json.RawMessage(properties),
		"required":             required,
		"additionalProperties": false,
	}
}

// arrayOf returns a JSON Schema array of items with between lo and hi items.
func arrayOf(items map[string]any, lo, hi int) map[string]any {
	a := map[string]any{"type": "array", "items": items, "maxItems": hi}
	if lo > 0 {
		a["minItems"] = lo
	}
	return a
}

// jsonText returns v as JSON text (for nesting a schema in properties).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

var stringSchema = map[string]any{"type": "string"}

// verdictEnum is the JSON Schema of a yes/no verdict.
const verdictEnum = `{"type": "string", "enum": ["yes", "no"]}`

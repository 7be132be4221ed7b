#!/usr/bin/env bash
# Browser test of the dashboard: evaluates testdata/triplets.jsonl (plus a
# sample whose question and system hold HTML) into a fresh run with no LLM
# call (KG scores, triplet similarity and the encoder metrics), stores
# made-up factual_accuracy and answer_class values for it (web/e2e/judged,
# for the grade and class charts) and a grounding check that dropped one
# invented triplet of sample acme-why (web/e2e/grounding, for the Why),
# adds two samples of hostile text (a 300-character id, a 200-character
# system name, a 10,000-character answer, an id holding U+202E, a label of
# zero-width characters; also evaluated alone as run $run-hostile, for the
# run comparison), evaluates a copy in which one sample's answer triplets
# are no longer grounded as run $run-v2 (run against run), sweeps it over tau 0.7,0.8 and delta
# 0.3,0.5, runs `kgeval sensitivity` on testdata/sensitivity.jsonl (three
# more runs, no LLM call), writes the jobs page's two uploads (three records,
# the third without a question; 300 records with given triplets), starts
# `kgeval serve` (jobs slowed down by the hidden --test-job-delay flag, $KGEVAL_BROWSER_JOB_DELAY, so that their
# progress can be watched without a model) on a free port with a fresh state directory (so it
# prints a first-start admin token), runs web/e2e/browser-test.mjs in
# headless Chromium, and cleans up. Needs Neo4j (KGEVAL_NEO4J_URI and
# password as for the Go tests), the MiniLM files (make minilm), node and
# Debian's chromium (apt-get install chromium). Screenshots: docs/screenshots/.
set -uo pipefail
cd "$(dirname "$0")/.."
# The dashboard is shown on answers whose claims are scored without the
# model (its screenshots do not change with the model server's load).
export KGEVAL_SCORING_VERIFY=${KGEVAL_SCORING_VERIFY:-off}
root=$(pwd)
command -v node >/dev/null || { echo "browser-test: node not found" >&2; exit 1; }
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "browser-test: installing Debian's chromium" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1
  chromium=$(command -v chromium || true)
fi
[ -n "$chromium" ] || { echo "browser-test: chromium not found (apt-get install chromium)" >&2; exit 1; }
scripts/web-assets.sh || exit 1
mkdir -p bin
go build -o bin/kgeval ./cmd/kgeval || exit 1

tmp=$(mktemp -d)
run="browser-test-$(date +%s)-$$"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
  for r in "$run" "$run-job" "$run-delete" "$run-hostile" "$run-v2" "$run-rules" "$run-sens" "$run-sens-reference_as_answer" "$run-sens-wrong_answer"; do
    bin/kgeval runs delete "$r" >/dev/null 2>&1
  done
  rm -rf "$tmp"
}
trap cleanup EXIT

cp testdata/triplets.jsonl "$tmp/data.jsonl"
cat >> "$tmp/data.jsonl" <<'JSONL'
{"id": "xss", "question": "<script>window.__xss = 1</script><img src=x onerror=\"window.__xss = 2\"> What is Erica vagans?", "contexts": ["Erica vagans is a <b>heath</b>."], "answer": "A heath </p><script>window.__xss = 3</script>", "reference": "A heath", "system": "<img src=x onerror=\"window.__xss = 5\">xss", "human": {"<img src=x onerror=\"window.__xss = 4\">": 1}, "triplets": {"question": [["Erica vagans", "is", "<script>x</script>"]], "answer": [["Erica vagans", "is", "heath"]], "reference": [["Erica vagans", "is", "heath"]], "contexts": [[["Erica vagans", "is a", "heath"]]]}}
JSONL
# Two samples for the sample page's Why: acme-why answers with a founding
# year the contexts and the reference contradict (and a fact only a context
# sentence states); long-why's evidence sentence holds a 10,000-character
# word, which must not widen the page.
cat >> "$tmp/data.jsonl" <<'JSONL'
{"id": "acme-why", "question": "When was Acme founded, and what does it make?", "contexts": ["Acme Corporation was founded in 2010 in Ohio. It makes anvils and rocket skates.", "Acme employs 40 people in its Ohio works."], "answer": "Acme was founded in 2014. Acme makes anvils and employs 40 people.", "reference": "Acme was founded in 2010 and makes anvils.", "system": "why", "triplets": {"question": [["Acme", "was founded in", "?"]], "answer": [["Acme", "was founded in", "2014"], ["Acme", "makes", "anvils"], ["Acme", "employs", "40 people"]], "reference": [["Acme", "was founded in", "2010"], ["Acme", "makes", "anvils"]], "contexts": [[["Acme Corporation", "is based in", "Ohio"], ["Acme Corporation", "makes", "rocket skates"]], [["Acme", "employs", "40 people"]]]}}
JSONL
long=$(head -c 10000 /dev/zero | tr '\0' W)
echo '{"id": "long-why", "question": "What does Acme make?", "contexts": ["Acme makes anvils '"$long"'."], "answer": "Acme makes anvils.", "reference": "Anvils.", "system": "why", "triplets": {"question": [["Acme", "makes", "?"]], "answer": [["Acme", "makes", "anvils"]], "reference": [["Acme", "makes", "anvils"]], "contexts": [[["Acme", "is based in", "Ohio"]]]}}' >> "$tmp/data.jsonl"
# Hostile text (issue 16 item 6): a sample with a 300-character id, a
# 200-character system name, a 10,000-character answer (sentences and a
# 3,000-character word) and a 256-character entity label; another whose id
# holds U+202E (it would display "rtlgnp.exe") and whose answer has an
# entity label made of zero-width characters only. No page may get wider
# than the window, the U+202E must show as a marker and the label must not
# be blank. The two also make a second run, $run-hostile, for the run
# comparison page.
hostile_id="hostile-$(head -c 292 /dev/zero | tr '\0' i)"
hostile_system="system-$(head -c 193 /dev/zero | tr '\0' S)"
hostile_answer="$(printf 'Erica vagans is a heath. %.0s' $(seq 1 280))$(head -c 3000 /dev/zero | tr '\0' Q)"
hostile_label="$(head -c 256 /dev/zero | tr '\0' L)"
{
  echo '{"id": "'"$hostile_id"'", "question": "What is Erica vagans?", "contexts": ["Erica vagans is a heath of western Europe."], "answer": "'"$hostile_answer"'", "reference": "A heath.", "system": "'"$hostile_system"'", "triplets": {"question": [["Erica vagans", "is", "?"]], "answer": [["Erica vagans", "is", "heath"], ["'"$hostile_label"'", "is", "heath"]], "reference": [["Erica vagans", "is", "heath"]], "contexts": [[["Erica vagans", "is", "heath"]]]}}'
  echo '{"id": "rtl\u202Eexe.png", "question": "Is rtl\u202Eexe.png a picture?", "contexts": ["rtl\u202Eexe.png is a picture of a heath."], "answer": "It is a picture \u2066of\u2069 a heath\u200B.", "reference": "A picture.", "system": "'"$hostile_system"'", "triplets": {"question": [["rtl\u202Eexe.png", "is", "?"]], "answer": [["rtl\u202Eexe.png", "is", "picture"], ["\u200B\u200C\u200D\u2060\uFEFF", "shows", "heath"]], "reference": [["rtl\u202Eexe.png", "is", "picture"]], "contexts": [[["rtl\u202Eexe.png", "is a picture of", "heath"]]]}}'
} > "$tmp/hostile.jsonl"
cat "$tmp/hostile.jsonl" >> "$tmp/data.jsonl"
bin/kgeval evaluate --dataset "$tmp/data.jsonl" --run "$run" --engine native >"$tmp/evaluate.log" 2>&1 ||
  { cat "$tmp/evaluate.log"; echo "browser-test: evaluate failed" >&2; exit 1; }
bin/kgeval evaluate --dataset "$tmp/hostile.jsonl" --run "$run-hostile" --engine native >"$tmp/evaluate-hostile.log" 2>&1 ||
  { cat "$tmp/evaluate-hostile.log"; echo "browser-test: evaluate of the hostile records failed" >&2; exit 1; }
# Run against run (issue 16 item 3): $run-v2 evaluates a copy of the
# dataset in which erica-grounded answers with facts the contexts do not
# hold (the triplets of erica-ungrounded), so that its faithfulness support
# and multihop drop; the compare page must list it first under "regressed
# most". The copy has another fingerprint: the page warns of it.
regressed=erica-grounded
grep -v '"id": "'"$regressed"'"' "$tmp/data.jsonl" > "$tmp/data-v2.jsonl"
cat >> "$tmp/data-v2.jsonl" <<'JSONL'
{"id": "erica-grounded", "question": "What is another name for Erica vagans?", "contexts": ["Erica vagans, the Cornish heath, is a species of flowering plant in the family Ericaceae.", "It is native to western Europe, including Cornwall."], "answer": "Erica vagans is called the Scottish thistle and grows in Japan.", "reference": "Cornish heath", "system": "grounded", "triplets": {"question": [["Erica vagans", "has other name", "unknown"]], "answer": [["Erica vagans", "is called", "Scottish thistle"], ["Erica vagans", "grows in", "Japan"]], "reference": [["Erica vagans", "is also called", "Cornish heath"]], "contexts": [[["Erica vagans", "is also called", "Cornish heath"], ["Erica vagans", "is a species of", "flowering plant"], ["Erica vagans", "belongs to family", "Ericaceae"]], [["Erica vagans", "is native to", "western Europe"], ["western Europe", "includes", "Cornwall"]]]}}
JSONL
bin/kgeval evaluate --dataset "$tmp/data-v2.jsonl" --run "$run-v2" --engine native >"$tmp/evaluate-v2.log" 2>&1 ||
  { cat "$tmp/evaluate-v2.log"; echo "browser-test: evaluate of the modified dataset failed" >&2; exit 1; }
# Triplets read by rule (extraction.method rules, no model): the graph view
# marks them and can hide them.
head -n 3 testdata/wikieval.jsonl > "$tmp/rules.jsonl"
KGEVAL_EXTRACTION_METHOD=rules bin/kgeval evaluate --dataset "$tmp/rules.jsonl" --run "$run-rules" --engine native --metrics kg >"$tmp/evaluate-rules.log" 2>&1 ||
  { cat "$tmp/evaluate-rules.log"; echo "browser-test: evaluate with extraction.method rules failed" >&2; exit 1; }
# Sweep variants for the run dashboard's sweep curves (no model or
# embedding call: the graphs are rebuilt from stored triplets and cached
# embeddings).
bin/kgeval sweep --run "$run" --tau 0.7,0.8 --delta 0.3,0.5 >"$tmp/sweep.log" 2>&1 ||
  { cat "$tmp/sweep.log"; echo "browser-test: sweep failed" >&2; exit 1; }
# LLM-judged values without a model, for the systems' grade and class charts.
go run ./web/e2e/judged --run "$run" >"$tmp/judged.log" 2>&1 ||
  { cat "$tmp/judged.log"; echo "browser-test: judged failed" >&2; exit 1; }
# A grounding check for acme-why (given triplets are not checked): one
# invented answer triplet dropped, for the sample page's struck-through list.
go run ./web/e2e/grounding --run "$run" --sample acme-why --invented 'Acme|is sold on|the Moon' >"$tmp/grounding.log" 2>&1 ||
  { cat "$tmp/grounding.log"; echo "browser-test: grounding failed" >&2; exit 1; }
# A sensitivity experiment (runs $run-sens, -reference_as_answer and
# -wrong_answer); the page must show the numbers the command printed.
bin/kgeval sensitivity --dataset testdata/sensitivity.jsonl --run "$run-sens" --dir "$tmp/sens" --engine native >"$tmp/sens.log" 2>&1 ||
  { cat "$tmp/sens.log"; echo "browser-test: sensitivity failed" >&2; exit 1; }

# The jobs page's uploads (issue 16 item 5): a dataset whose third record
# has no question (it must be listed by its number), and 300 records with
# given triplets, each with labels of its own, for a job with progress.
{
  echo '{"id": "ok-1", "question": "What is Erica vagans?", "contexts": ["Erica vagans is a heath."], "answer": "A heath.", "triplets": {"question": [["Erica vagans", "is", "?"]], "answer": [["Erica vagans", "is", "heath"]], "reference": [], "contexts": [[["Erica vagans", "is", "heath"]]]}}'
  echo '{"id": "ok-2", "question": "Where does it grow?", "contexts": ["It grows in Cornwall."], "answer": "In Cornwall.", "triplets": {"question": [["it", "grows in", "?"]], "answer": [["it", "grows in", "Cornwall"]], "reference": [], "contexts": [[["it", "grows in", "Cornwall"]]]}}'
  echo '{"id": "no-question", "contexts": ["A heath."], "answer": "A heath."}'
} > "$tmp/job-broken.jsonl"
for i in $(seq 1 300); do
  echo '{"id": "job-'"$i"'", "question": "What is plant '"$i"' called?", "contexts": ["Plant '"$i"' is called heath '"$i"' and grows in region '"$i"'."], "answer": "Heath '"$i"'.", "reference": "Heath '"$i"'", "system": "jobs", "triplets": {"question": [["plant '"$i"'", "is called", "unknown"]], "answer": [["plant '"$i"'", "is called", "heath '"$i"'"]], "reference": [["plant '"$i"'", "is called", "heath '"$i"'"]], "contexts": [[["plant '"$i"'", "is called", "heath '"$i"'"], ["plant '"$i"'", "grows in", "region '"$i"'"]]]}}'
done > "$tmp/job.jsonl"

# A run for the admin to delete from the jobs page's run picker.
bin/kgeval evaluate --dataset "$tmp/job-broken.jsonl" --run "$run-delete" --engine native >"$tmp/evaluate-delete.log" 2>&1 ||
  { cat "$tmp/evaluate-delete.log"; echo "browser-test: evaluate of the run to delete failed" >&2; exit 1; }

KGEVAL_WEB_STATE_DIR="$tmp/web" bin/kgeval serve --addr 127.0.0.1:0 --test-job-delay "${KGEVAL_BROWSER_JOB_DELAY:-1s}" 2>"$tmp/serve.log" &
pid=$!
for _ in $(seq 1 100); do
  grep -q "dashboard at" "$tmp/serve.log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve.log"; echo "browser-test: serve exited" >&2; exit 1; }
  sleep 0.2
done
# The banner names http://kgeval.localhost:PORT/; node's fetch does not
# resolve *.localhost, so the test uses the loopback address it also prints.
url=$(sed -n 's/.*do not resolve \*\.localhost: \(http:[^ ;]*\)\/;.*/\1/p' "$tmp/serve.log" | head -1)
token=$(grep -A1 "admin token" "$tmp/serve.log" | tail -1)
case "$token" in kgv_*) ;; *) cat "$tmp/serve.log"; echo "browser-test: no admin token printed at first start" >&2; exit 1 ;; esac
echo "browser-test: kgeval serve at $url, run $run"

mkdir -p docs/screenshots
(cd web && KGEVAL_URL="$url" KGEVAL_TOKEN="$token" KGEVAL_RUN="$run" KGEVAL_SAMPLE=erica-ungrounded \
  KGEVAL_XSS_SAMPLE=xss KGEVAL_WHY_SAMPLE=acme-why KGEVAL_LONG_SAMPLE=long-why KGEVAL_HOSTILE_ID="$hostile_id" KGEVAL_HOSTILE_SYSTEM="$hostile_system" KGEVAL_REGRESSED="$regressed" KGEVAL_RULES_RUN="$run-rules" KGEVAL_RULES_SAMPLE=wikieval-00-grounded KGEVAL_SENS="$run-sens" KGEVAL_SENS_JSON="$tmp/sens/sensitivity.json" KGEVAL_SENS_LOG="$tmp/sens.log" \
  KGEVAL_JOB_RUN="$run-job" KGEVAL_DELETE_RUN="$run-delete" KGEVAL_JOB_DATA="$tmp/job.jsonl" KGEVAL_JOB_BROKEN="$tmp/job-broken.jsonl" \
  KGEVAL_SHOTS="$root/docs/screenshots" CHROMIUM="$chromium" node e2e/browser-test.mjs)

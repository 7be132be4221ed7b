#!/usr/bin/env bash
# make validity: the validity numbers of docs/VALIDITY.md, replayed from the
# cache snapshot in the repository with no model call (minutes).
# make validity-snapshot: the same against the local model server, then the
# snapshot is exported (hours, once; see docs/VALIDITY.md).
#
# Usage: scripts/validity.sh [replay|snapshot]
#
# Environment (all optional):
#   KGEVAL_VALIDITY_SNAPSHOT  snapshot file (default testdata/cache/wikieval50.jsonl.gz)
#   KGEVAL_VALIDITY_DATASET   dataset (default testdata/wikieval50.jsonl)
#   KGEVAL_VALIDITY_RUN       run name (default validity-wikieval50); the sensitivity
#                             experiment's runs are <run>-sens, <run>-sens-reference_as_answer
#                             and <run>-sens-wrong_answer
#   KGEVAL_VALIDITY_METRICS   metrics to compute (default kg,ts,semantic_similarity,bert_score_f1:
#                             what the bundled snapshot covers)
#   KGEVAL_VALIDITY_VERIFY    1 (default): also run <run>-verify with scoring.verify llm (the
#                             model check of what the graph left open in the model's triplets,
#                             so with extraction.method both) and report it; 0: skip
#   KGEVAL_VALIDITY_EXTRACTORS  other extraction methods to report beside the configured one
#                             (default "llm rules both"): for each M, run <run>-M and its sensitivity
#                             experiment <run>-M-sens* with extraction.method M (llm: the model's
#                             triplets alone; rules: read by rule, no model; both: the two; metrics
#                             kg,ts,k_precision) and report it as <out>-M; "" skips them
#   KGEVAL_VALIDITY_OUT       report prefix (default docs/results/validity-wikieval50: .md and .json)
#   KGEVAL_VALIDITY_GOOD, KGEVAL_VALIDITY_BAD_FAITHFULNESS, KGEVAL_VALIDITY_BAD_RELEVANCE
#                             systems (default wikieval_grounded, wikieval_ungrounded, wikieval_poor)
#   KGEVAL_NEO4J_URI, KGEVAL_NEO4J_PASSWORD
#                             use this Neo4j as it is; unset, the bundled one is started
#                             (and stopped again if this script started it)
#   KGEVAL_LLM_BASE_URL       snapshot: use this model endpoint as it is (with KGEVAL_LLM_MODEL);
#                             unset, the local model server is started (and stopped) as for make test
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-replay}
case "$mode" in replay|snapshot) ;; *) echo "usage: $0 [replay|snapshot]" >&2; exit 2 ;; esac
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$root/.kgeval}
snapshot=${KGEVAL_VALIDITY_SNAPSHOT:-testdata/cache/wikieval50.jsonl.gz}
dataset=${KGEVAL_VALIDITY_DATASET:-testdata/wikieval50.jsonl}
run=${KGEVAL_VALIDITY_RUN:-validity-wikieval50}
sens=$run-sens
metrics=${KGEVAL_VALIDITY_METRICS:-kg,ts,semantic_similarity,bert_score_f1,k_precision}
out=${KGEVAL_VALIDITY_OUT:-docs/results/validity-wikieval50}
good=${KGEVAL_VALIDITY_GOOD:-wikieval_grounded}
badf=${KGEVAL_VALIDITY_BAD_FAITHFULNESS:-wikieval_ungrounded}
badr=${KGEVAL_VALIDITY_BAD_RELEVANCE:-wikieval_poor}
verify=${KGEVAL_VALIDITY_VERIFY:-1}
extractors=${KGEVAL_VALIDITY_EXTRACTORS-llm rules both}
bin=bin/kgeval

started_neo4j=0 started_llm=0
cleanup() {
  if [ "$started_llm" = 1 ]; then scripts/llm.sh stop || true; fi
  if [ "$started_neo4j" = 1 ]; then deploy/neo4j/neo4j.sh stop || true; fi
}
trap cleanup EXIT
t0=$SECONDS
step() { echo; echo "=== validity: $* ($((SECONDS - t0)) s)"; }

[ -x "$bin" ] || { echo "validity: $bin missing: run make build (make validity does)" >&2; exit 1; }
. scripts/neo4j-env.sh
use_neo4j || exit 1
scripts/fetch-minilm.sh >/dev/null || { echo "validity: fetching the MiniLM model failed" >&2; exit 1; }

flags=(--metrics "$metrics")
# The claims' model check (scoring.verify prob, the default) is not in the
# snapshot, which holds the extraction and judge answers of WikiEval-50: the
# runs score claims with the calibration's fit without the model, as they
# did before prob became the default (KGEVAL_SCORING_VERIFY overrides it).
export KGEVAL_SCORING_VERIFY=${KGEVAL_SCORING_VERIFY:-off}
if [ "$mode" = replay ]; then
  if [ ! -f "$snapshot" ]; then
    echo "validity: no snapshot at $snapshot: make one with \`make validity-snapshot\` (hours; docs/VALIDITY.md)" >&2
    exit 1
  fi
  # --overwrite: the snapshot's answers replace the store's own for the same
  # keys, so the replay is a function of the snapshot and the configuration.
  # Without it a store that had asked the model already (make run's demo
  # extracts the first 2 WikiEval questions with the same keys) kept its own
  # answers and moved the reports (issue 37).
  step "import $snapshot"
  $bin cache import --overwrite "$snapshot" || exit 1
  flags+=(--cache-only)
else
  use_llm || exit 1
fi

# --replace: every run reads every answer it needs from the cache again, so
# the cache records it on each entry and the export is complete. Answers the
# model gave before stay cached: an interrupted snapshot run loses no call.
step "evaluate $dataset as run $run (${flags[*]})"
$bin evaluate --dataset "$dataset" --run "$run" --replace "${flags[@]}" || exit 1
step "sensitivity experiment on the $good answers as runs $sens*"
$bin sensitivity --dataset "$dataset" --system "$good" --run "$sens" --dir "$KGEVAL_STATE_DIR/validity/$sens" --replace "${flags[@]}" || exit 1

runs=(--run "$run" --run "$sens" --run "$sens-reference_as_answer" --run "$sens-wrong_answer")
if [ "$verify" = 1 ]; then
  # The model check asks only about the model's own triplets (not the
  # rule-read ones): extraction.method both (the default before issue 50).
  step "evaluate $dataset as run $run-verify with scoring.verify llm, extraction.method both"
  KGEVAL_EXTRACTION_METHOD=both KGEVAL_SCORING_VERIFY=llm $bin evaluate --dataset "$dataset" --run "$run-verify" --replace "${flags[@]}" || exit 1
  runs+=(--run "$run-verify")
fi

# Other extractors on the same texts: the model's extraction is cached by
# the runs above; the rules read with no model.
rflags=(--metrics kg,ts,k_precision)
[ "$mode" = replay ] && rflags+=(--cache-only)
for m in $extractors; do
  step "evaluate $dataset as run $run-$m with extraction.method $m"
  KGEVAL_EXTRACTION_METHOD=$m $bin evaluate --dataset "$dataset" --run "$run-$m" --replace "${rflags[@]}" || exit 1
  step "sensitivity experiment with extraction.method $m as runs $run-$m-sens*"
  KGEVAL_EXTRACTION_METHOD=$m $bin sensitivity --dataset "$dataset" --system "$good" --run "$run-$m-sens" \
    --dir "$KGEVAL_STATE_DIR/validity/$run-$m-sens" --replace "${rflags[@]}" || exit 1
done

if [ "$mode" = snapshot ]; then
  # The model's answers only: the label vectors of the bundled encoder are
  # recomputed in seconds, and with the rule-read labels they were 32,412
  # entries (51 MB).
  step "export the model's cache entries of the runs to $snapshot"
  mkdir -p "$(dirname "$snapshot")"
  $bin cache export --no-time --kind extract,judge,verify --out "$snapshot" "${runs[@]}" || exit 1
fi

step "validity report"
mkdir -p "$(dirname "$out")"
$bin validity --run "$run" --sensitivity-run "$sens" --good "$good" --bad-faithfulness "$badf" --bad-relevance "$badr" \
  --md "$out.md" --json "$out.json" || exit 1
if [ "$verify" = 1 ]; then
  $bin validity --run "$run-verify" --good "$good" --bad-faithfulness "$badf" --bad-relevance "$badr" \
    --md "$out-verify.md" --json "$out-verify.json" || exit 1
fi
for m in $extractors; do
  $bin validity --run "$run-$m" --sensitivity-run "$run-$m-sens" --good "$good" --bad-faithfulness "$badf" \
    --bad-relevance "$badr" --md "$out-$m.md" --json "$out-$m.json" || exit 1
done
echo
echo "validity: wrote $out.md and $out.json (and $out-verify.*, and $out-M.* for M in: $extractors) in $((SECONDS - t0)) s"

#!/usr/bin/env bash
# make factcheck: claim-level faithfulness on ExpertQA (issue 27), replayed
# from the cache snapshot in the repository with no model call (minutes).
# Each sample of testdata/expertqa_claims_balanced.jsonl is one claim an
# expert judged completely supported (human faithfulness 1) or not (0) by
# its evidence passages (cmd/kgeval-factcheck-data; testdata/README.md). The
# claims are evaluated with extraction.method rules and scoring.verify prob
# (the model's P(supported) of each claim), and `kgeval factcheck` reports
# how well each faithfulness score, k_precision and the cross-validated
# combination of the claim features tell the two apart.
# make factcheck-snapshot: the same against the local model server, then
# the model's answers are exported to the snapshot (hours, once).
#
# scripts/factcheck.sh evidence (make factcheck-evidence): the balanced claims
# replayed three times with a tight evidence budget (KGEVAL_FACTCHECK_EVIDENCE_TOKENS,
# default 128 estimated tokens, under most claims' passages: median 260), the
# window chosen by the graph, by MiniLM cosine, or the whole context (the
# default snapshot's questions), and the three reports side by side in
# docs/results/factcheck-evidence.txt. It takes the first 300 claims (150 +
# 150; KGEVAL_FACTCHECK_LIMIT) that the snapshots testdata/cache/factcheck-graph128
# and -cosine128 answer; regenerate them with KGEVAL_FACTCHECK_EVIDENCE=graph|cosine
# KGEVAL_FACTCHECK_EVIDENCE_TOKENS=128 KGEVAL_FACTCHECK_LIMIT=300 scripts/factcheck.sh
# snapshot (about 20 min each on 2 cores).
#
# Usage: scripts/factcheck.sh [replay|snapshot|evidence]
#
# Environment (all optional):
#   KGEVAL_FACTCHECK_GROUP     balanced (default: testdata/expertqa_claims_balanced.jsonl,
#                              325 + 325 claims), all (testdata/expertqa_claims.jsonl, 1,402) or
#                              missing (the 236 claims the experts found no evidence for, human 0,
#                              beside the 325 Complete claims of the balanced file: counted apart;
#                              snapshot testdata/cache/factcheck-missing.jsonl.gz, the Complete
#                              claims' answers from testdata/cache/factcheck.jsonl.gz)
#   KGEVAL_FACTCHECK_EVIDENCE  scoring.evidence of the run: graph, cosine or whole (default: the
#                              config's, graph); with KGEVAL_FACTCHECK_EVIDENCE_TOKENS (scoring.evidence_tokens,
#                              default 1500) the run, snapshot and report are named
#                              factcheck-expertqa-<evidence><tokens> (make factcheck-evidence)
#   KGEVAL_FACTCHECK_DATASET   another claim dataset (overrides the group)
#   KGEVAL_FACTCHECK_LIMIT     evaluate only the first N claims (default 0: all; the committed snapshot answers
#                              684 of their 692 claims); the balanced file alternates unsupported and
#                              supported claims, so an even N is balanced
#   KGEVAL_FACTCHECK_RUN       run name (default factcheck-expertqa)
#   KGEVAL_FACTCHECK_VERIFY    scoring.verify of the run (default prob: the model's P(supported) of
#                              each claim; off: the graph's features alone, no model question)
#   KGEVAL_FACTCHECK_SNAPSHOT  snapshot file (default testdata/cache/factcheck.jsonl.gz)
#   KGEVAL_FACTCHECK_KINDS     cache kinds the snapshot holds (default claim,verify,extract)
#   KGEVAL_FACTCHECK_OUT       report prefix (default docs/results/factcheck-expertqa: .txt and .csv)
#   KGEVAL_NEO4J_URI, KGEVAL_NEO4J_PASSWORD
#                              use this Neo4j as it is; unset, the bundled one is started
#                              (and stopped again if this script started it)
#   KGEVAL_LLM_BASE_URL        snapshot: use this model endpoint as it is (with KGEVAL_LLM_MODEL);
#                              unset, the local model server is started (and stopped) as for make test
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-replay}
case "$mode" in replay|snapshot|evidence) ;; *) echo "usage: $0 [replay|snapshot|evidence]" >&2; exit 2 ;; esac
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$root/.kgeval}
group=${KGEVAL_FACTCHECK_GROUP:-balanced}
name=factcheck-expertqa also=()
case "$group" in
  balanced) dataset=testdata/expertqa_claims_balanced.jsonl ;;
  all) dataset=testdata/expertqa_claims.jsonl ;;
  missing)
    # Missing claims are all unsupported: their AUROC is taken against the
    # Complete claims, whose answers the balanced snapshot already holds.
    dataset=$KGEVAL_STATE_DIR/factcheck/expertqa_missing_vs_complete.jsonl
    mkdir -p "$(dirname "$dataset")"
    { cat testdata/expertqa_claims_missing.jsonl
      grep -F '"human":{"faithfulness":1}' testdata/expertqa_claims_balanced.jsonl; } > "$dataset"
    name=factcheck-expertqa-missing also=(testdata/cache/factcheck.jsonl.gz) ;;
  *) echo "factcheck: KGEVAL_FACTCHECK_GROUP=$group: want balanced, all or missing" >&2; exit 2 ;;
esac
evidence=${KGEVAL_FACTCHECK_EVIDENCE:-}
if [ -n "$evidence" ]; then
  case "$evidence" in graph|cosine|whole) ;; *) echo "factcheck: KGEVAL_FACTCHECK_EVIDENCE=$evidence: want graph, cosine or whole" >&2; exit 2 ;; esac
  export KGEVAL_SCORING_EVIDENCE=$evidence KGEVAL_SCORING_EVIDENCE_TOKENS=${KGEVAL_FACTCHECK_EVIDENCE_TOKENS:-1500}
  name=$name-$evidence$KGEVAL_SCORING_EVIDENCE_TOKENS
fi
dataset=${KGEVAL_FACTCHECK_DATASET:-$dataset}
run=${KGEVAL_FACTCHECK_RUN:-$name}
verify=${KGEVAL_FACTCHECK_VERIFY:-prob}
snapshot=${KGEVAL_FACTCHECK_SNAPSHOT:-testdata/cache/${name/-expertqa/}.jsonl.gz}
kinds=${KGEVAL_FACTCHECK_KINDS:-claim,verify,extract}
out=${KGEVAL_FACTCHECK_OUT:-docs/results/$name}
bin=bin/kgeval

started_neo4j=0 started_llm=0
cleanup() {
  if [ "$started_llm" = 1 ]; then scripts/llm.sh stop || true; fi
  if [ "$started_neo4j" = 1 ]; then deploy/neo4j/neo4j.sh stop || true; fi
}
trap cleanup EXIT
t0=$SECONDS
step() { echo; echo "=== factcheck: $* ($((SECONDS - t0)) s)"; }

[ -x "$bin" ] || { echo "factcheck: $bin missing: run make build (make factcheck does)" >&2; exit 1; }
[ -f "$dataset" ] || { echo "factcheck: no dataset $dataset (go run ./cmd/kgeval-factcheck-data writes it)" >&2; exit 1; }
. scripts/neo4j-env.sh
use_neo4j || exit 1
scripts/fetch-minilm.sh >/dev/null || { echo "factcheck: fetching the MiniLM model failed" >&2; exit 1; }

if [ "$mode" = evidence ]; then
  tokens=${KGEVAL_FACTCHECK_EVIDENCE_TOKENS:-128}
  export KGEVAL_FACTCHECK_LIMIT=${KGEVAL_FACTCHECK_LIMIT:-300}
  csvs=()
  for ev in whole graph cosine; do
    snap=testdata/cache/factcheck-$ev$tokens.jsonl.gz
    # A whole-context question does not depend on the budget: the
    # balanced snapshot answers it.
    [ "$ev" = whole ] && snap=testdata/cache/factcheck.jsonl.gz
    KGEVAL_FACTCHECK_GROUP=balanced KGEVAL_FACTCHECK_EVIDENCE=$ev KGEVAL_FACTCHECK_EVIDENCE_TOKENS=$tokens \
      KGEVAL_FACTCHECK_SNAPSHOT=$snap "$0" replay || exit 1
    csvs+=("docs/results/factcheck-expertqa-$ev$tokens.csv")
  done
  step "evidence windows side by side"
  scripts/factcheck-compare.sh "$tokens" "${csvs[@]}" | tee docs/results/factcheck-evidence.txt
  exit 0
fi

flags=(--metrics kg,k_precision --limit "${KGEVAL_FACTCHECK_LIMIT:-0}")
for f in "${also[@]}"; do
  step "import $f"
  $bin cache import "$f" || exit 1
done
if [ "$mode" = replay ]; then
  if [ -f "$snapshot" ]; then
    step "import $snapshot"
    $bin cache import "$snapshot" || exit 1
  else
    echo "factcheck: no snapshot at $snapshot (make one with \`make factcheck-snapshot\`, hours):" >&2
    echo "factcheck: every model question is refused, so the claims have no model P(supported); the graph's features only" >&2
  fi
  flags+=(--cache-only)
else
  use_llm || exit 1
fi

# --replace: the run reads every answer it needs from the cache again, so
# the cache records the run on each entry and the export is complete.
step "evaluate $dataset as run $run (extraction.method rules, scoring.verify $verify, ${flags[*]})"
KGEVAL_EXTRACTION_METHOD=rules KGEVAL_SCORING_VERIFY=$verify $bin evaluate --dataset "$dataset" --run "$run" --replace "${flags[@]}" || exit 1

if [ "$mode" = snapshot ]; then
  # The model's answers only (no label vectors: the bundled encoder
  # recomputes them in seconds).
  step "export the model's cache entries of run $run ($kinds) to $snapshot"
  mkdir -p "$(dirname "$snapshot")"
  $bin cache export --no-time --kind "$kinds" --out "$snapshot" --run "$run" || exit 1
fi

step "factcheck report"
mkdir -p "$(dirname "$out")"
$bin factcheck --run "$run" --csv "$out.csv" > "$out.txt" || exit 1
cat "$out.txt"
echo
echo "factcheck: wrote $out.txt and $out.csv in $((SECONDS - t0)) s (kgeval calibrate --run $run refits scoring/claims/calibration.json)"

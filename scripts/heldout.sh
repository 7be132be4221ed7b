#!/usr/bin/env bash
# make heldout: a check beyond WikiEval with no model call. ExpertQA
# (testdata/expertqa.jsonl: 300 answers of 4 systems, experts' claim-level
# support labels) evaluated with extraction.method rules, and every
# faithfulness-type metric correlated with the experts' labels
# (kgeval correlate --human); the answer-relevance metrics likewise
# (<out>-relevance: against the experts' claim informativeness and answer
# usefulness). Minutes; see docs/VALIDITY.md.
#
# Environment (all optional):
#   KGEVAL_HELDOUT_DATASET  dataset with human labels (default testdata/expertqa.jsonl)
#   KGEVAL_HELDOUT_RUN      run name (default heldout-expertqa-rules)
#   KGEVAL_HELDOUT_OUT      report prefix (default docs/results/heldout-expertqa-rules: .txt and .csv,
#                           and -relevance.txt and -relevance.csv)
#   KGEVAL_NEO4J_URI, KGEVAL_NEO4J_PASSWORD
#                           use this Neo4j as it is; unset, the bundled one is started
#                           (and stopped again if this script started it)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$root/.kgeval}
dataset=${KGEVAL_HELDOUT_DATASET:-testdata/expertqa.jsonl}
run=${KGEVAL_HELDOUT_RUN:-heldout-expertqa-rules}
out=${KGEVAL_HELDOUT_OUT:-docs/results/heldout-expertqa-rules}
bin=bin/kgeval

started_neo4j=0
cleanup() { if [ "$started_neo4j" = 1 ]; then deploy/neo4j/neo4j.sh stop || true; fi; }
trap cleanup EXIT
[ -x "$bin" ] || { echo "heldout: $bin missing: run make build (make heldout does)" >&2; exit 1; }
. scripts/neo4j-env.sh
use_neo4j || exit 1
scripts/fetch-minilm.sh >/dev/null || { echo "heldout: fetching the MiniLM model failed" >&2; exit 1; }

# No model at all: rule-read triplets, and claims scored by the calibration's
# fit without the model (scoring.verify prob is the default).
KGEVAL_SCORING_VERIFY=off KGEVAL_EXTRACTION_METHOD=rules $bin evaluate --dataset "$dataset" --run "$run" --replace --cache-only \
  --metrics kg,ts,k_precision || exit 1
mkdir -p "$(dirname "$out")"
$bin correlate --run "$run" --human --metrics faithfulness,ts_groundedness,k_precision \
  --csv "$out.csv" > "$out.txt" || exit 1
$bin correlate --run "$run" --human --metrics answer_relevancy,ts_answer_relevancy \
  --csv "$out-relevance.csv" > "$out-relevance.txt" || exit 1
echo "heldout: wrote $out.txt, $out.csv, $out-relevance.txt and $out-relevance.csv"

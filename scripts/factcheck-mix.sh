#!/usr/bin/env bash
# make factcheck: claim-level faithfulness on the training mix (issue 37),
# replayed from the cache snapshots in the repository with no model call.
# Each dataset of testdata/mix_*.jsonl (testdata/README.md) is evaluated as
# a run of its own (extraction.method rules, scoring.verify prob, every
# question form), then `kgeval factcheck` reads the runs together: each
# score per dataset and its macro mean, every fit and pass mark chosen
# leaving the dataset out (docs/VERDICTS.md "Calibration").
# make factcheck-snapshot: the same against the local model server, each
# dataset's answers exported to testdata/cache/mix-<name>.jsonl.gz (hours).
# make calibrate: after make factcheck, refit scoring/claims/calibration.json
# on the mix runs.
#
# Usage: scripts/factcheck-mix.sh [replay|snapshot|calibrate]
#
# Environment (all optional):
#   KGEVAL_MIX_DATASETS   name:limit[:forms] (default "ragtruth:0 halueval:100 expertqa:100
#                         faithbench:100 hagrid:0": testdata/mix_<name>.jsonl, its first
#                         <limit> lines, 0 all (every even prefix of a mix file is balanced),
#                         asked in the question forms its snapshot holds)
#   KGEVAL_MIX_FORMS      scoring.verify_forms of a dataset that names none (default threeway)
#   KGEVAL_MIX_SNAPSHOT_SUFFIX  the snapshots' name after mix-<name> (default -w256)
#   KGEVAL_MIX_OUT        report prefix (default docs/results/factcheck-mix: .txt, .csv, .json)
#   KGEVAL_NEO4J_URI, KGEVAL_NEO4J_PASSWORD, KGEVAL_LLM_BASE_URL: as scripts/factcheck.sh
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-replay}
case "$mode" in replay|snapshot|calibrate) ;; *) echo "usage: $0 [replay|snapshot|calibrate]" >&2; exit 2 ;; esac
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$(pwd)/.kgeval}
datasets=${KGEVAL_MIX_DATASETS:-ragtruth:0 halueval:100 expertqa:100 faithbench:100 hagrid:0}
forms=${KGEVAL_MIX_FORMS:-threeway}
# The snapshots of the default evidence window (scoring.evidence_tokens 256,
# issue 50): testdata/cache/mix-<name>-w256.jsonl.gz. KGEVAL_MIX_SNAPSHOT_SUFFIX=""
# with KGEVAL_SCORING_EVIDENCE_TOKENS=1500, KGEVAL_MIX_FORMS=claim,context,threeway and
# KGEVAL_MIX_DATASETS="ragtruth:108 halueval:100 expertqa:100 faithbench:100:claim,threeway"
# replays the report before it (docs/results/factcheck-mix-whole1500.txt).
suffix=${KGEVAL_MIX_SNAPSHOT_SUFFIX--w256}
out=${KGEVAL_MIX_OUT:-docs/results/factcheck-mix}
bin=bin/kgeval
t0=$SECONDS

started_neo4j=0
cleanup() { if [ "$started_neo4j" = 1 ]; then deploy/neo4j/neo4j.sh stop || true; fi; }
trap cleanup EXIT
. scripts/neo4j-env.sh
use_neo4j || exit 1

runs=()
for d in $datasets; do
  IFS=: read -r name limit dforms <<< "$d"
  limit=${limit:-0} dforms=${dforms:-$forms}
  runs+=(--run "mix-$name")
  [ "$mode" = calibrate ] && continue
  # factcheck.sh starts no Neo4j of its own (KGEVAL_NEO4J_URI is set) and
  # writes the per-dataset report beside the snapshot's run.
  KGEVAL_SCORING_VERIFY_FORMS=$dforms KGEVAL_SCORING_VERIFY=prob KGEVAL_FACTCHECK_DATASET=testdata/mix_$name.jsonl KGEVAL_FACTCHECK_RUN=mix-$name KGEVAL_FACTCHECK_LIMIT=$limit \
    KGEVAL_FACTCHECK_SNAPSHOT=testdata/cache/mix-$name$suffix.jsonl.gz KGEVAL_FACTCHECK_OUT=$KGEVAL_STATE_DIR/factcheck/mix-$name \
    scripts/factcheck.sh "$mode" > "$KGEVAL_STATE_DIR/factcheck-mix-$name.log" 2>&1 || {
      echo "factcheck-mix: $name failed; its log:" >&2; tail -20 "$KGEVAL_STATE_DIR/factcheck-mix-$name.log" >&2; exit 1; }
  grep -E '^(refused|calls|models)|model call' "$KGEVAL_STATE_DIR/factcheck-mix-$name.log" | tail -2
  echo "factcheck-mix: $name (first ${limit/#0/all} lines, forms $dforms) evaluated as run mix-$name ($((SECONDS - t0)) s)"
done

if [ "$mode" = calibrate ]; then
  $bin calibrate "${runs[@]}" --out scoring/claims/calibration.json || exit 1
  exit 0
fi
mkdir -p "$(dirname "$out")"
$bin factcheck "${runs[@]}" --csv "$out.csv" --json "$out.json" > "$out.txt" || exit 1
cat "$out.txt"
echo
echo "factcheck-mix: wrote $out.txt, .csv and .json in $((SECONDS - t0)) s (make calibrate refits scoring/claims/calibration.json on these runs)"

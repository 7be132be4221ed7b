#!/usr/bin/env bash
# The model's cost of each configuration, cold: `kgeval evaluate --fresh`
# (no cached answer read) on the first COST_LIMIT (6) WikiEval records,
# one run per extraction × claim-check mode, each run's record (with its
# cost ledger) written to docs/results/cost-<extraction>-<verify>.json.
# scripts/value-per-cost.py reads them with the mix report. Needs Neo4j
# and the model server (make neo4j-start llm-start); extraction by the
# model takes about 8 minutes a sample on 2 CPU cores.
#
# Usage: scripts/cost-cold.sh [extraction-verify ...]   (default: rules-off rules-cascade rules-prob both-prob)
set -uo pipefail
cd "$(dirname "$0")/.."
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$(pwd)/.kgeval}
export KGEVAL_NEO4J_URI=${KGEVAL_NEO4J_URI:-bolt://127.0.0.1:${KGEVAL_NEO4J_BOLT_PORT:-7687}}
export KGEVAL_NEO4J_PASSWORD=${KGEVAL_NEO4J_PASSWORD:-$(cat "$KGEVAL_STATE_DIR/neo4j/password")}
export KGEVAL_LLM_BASE_URL=${KGEVAL_LLM_BASE_URL:-http://127.0.0.1:${KGEVAL_LLM_PORT:-8089}/v1}
limit=${COST_LIMIT:-6}
configs=${*:-rules-off rules-cascade rules-prob both-prob}
for c in $configs; do
  ext=${c%-*} verify=${c#*-}
  echo "== cost-cold: extraction $ext, scoring.verify $verify, $limit WikiEval records, --fresh" >&2
  t0=$SECONDS
  KGEVAL_EXTRACTION_METHOD=$ext KGEVAL_SCORING_VERIFY=$verify bin/kgeval evaluate --dataset testdata/wikieval.jsonl --limit "$limit" \
    --fresh --run "cost-$c" --replace > "$KGEVAL_STATE_DIR/cost-$c.log" 2>&1 || { echo "cost-cold: $c failed; see $KGEVAL_STATE_DIR/cost-$c.log" >&2; exit 1; }
  bin/kgeval runs show "cost-$c" --json > "docs/results/cost-$c.json" || exit 1
  grep -A12 '^model cost' "$KGEVAL_STATE_DIR/cost-$c.log" >&2
  echo "cost-cold: $c in $((SECONDS - t0)) s" >&2
done

#!/usr/bin/env bash
# make test: starts what the tests need (Neo4j + GDS, the model files),
# runs every Go test against them, and stops what it started.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$root/.kgeval}

started_neo4j=0 started_llm=0 tmp=""
cleanup() {
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
  if [ "$started_llm" = 1 ]; then scripts/llm.sh stop || true; fi
  if [ "$started_neo4j" = 1 ]; then deploy/neo4j/neo4j.sh stop || true; fi
}
trap cleanup EXIT

t0=$(date +%s)
scripts/fetch-minilm.sh || { echo "test: fetching the MiniLM model failed" >&2; exit 1; }
scripts/llm.sh install || { echo "test: installing the local model server failed" >&2; exit 1; }
if ! scripts/llm.sh status >/dev/null 2>&1; then
  scripts/llm.sh start || exit 1
  started_llm=1
fi
export KGEVAL_LLM_BASE_URL=http://127.0.0.1:${KGEVAL_LLM_PORT:-8089}/v1
export KGEVAL_LLM_MODEL=${KGEVAL_LLM_MODEL:-qwen2.5-coder-1.5b-instruct}
if ! deploy/neo4j/neo4j.sh status >/dev/null 2>&1; then
  deploy/neo4j/neo4j.sh start || exit 1
  started_neo4j=1
fi
export KGEVAL_NEO4J_URI=bolt://127.0.0.1:${KGEVAL_NEO4J_BOLT_PORT:-7687}
export KGEVAL_NEO4J_PASSWORD=$(cat "$KGEVAL_STATE_DIR/neo4j/password")
echo "test: setup took $(( $(date +%s) - t0 )) s; Neo4j at $KGEVAL_NEO4J_URI, model $KGEVAL_LLM_MODEL at $KGEVAL_LLM_BASE_URL"

scripts/web-assets.sh || { echo "test: installing the dashboard's front-end libraries failed" >&2; exit 1; }

# go test -json, read by scripts/testsum.go: it prints what go test -v
# would (as it comes), then the failed packages and tests by name and the
# counts. Counting events, not "--- FAIL" lines, counts a package that does
# not build or whose test binary dies (panic, os.Exit, timeout) as failed.
# The events stay in $KGEVAL_STATE_DIR/go-test.json.
tmp=$(mktemp -d)
go build -o "$tmp/testsum" scripts/testsum.go || { echo "test: building scripts/testsum.go failed" >&2; exit 1; }
go test -json -count=1 -timeout 60m ./... 2>&1 | tee "$KGEVAL_STATE_DIR/go-test.json" | "$tmp/testsum" -counts "$tmp/counts" -summary "$tmp/summary"
rc=${PIPESTATUS[0]}
if ! read -r tests_passed tests_failed tests_skipped subtests_passed subtests_failed subtests_skipped pkgs_ok pkgs_failed < "$tmp/counts"; then
  echo "test: scripts/testsum.go wrote no counts" > "$tmp/summary"
  tests_passed=0 tests_failed=0 tests_skipped=0 subtests_passed=0 subtests_failed=0 subtests_skipped=0 pkgs_ok=0 pkgs_failed=1
fi
if [ "$rc" != 0 ] && [ "$pkgs_failed" = 0 ]; then
  # go test failed before or outside any package (a bad flag, go.mod out of
  # date): count it, so that the closing line does not say 0 failed.
  echo "go test exited $rc with no package failed: counted as one failed package" >> "$tmp/summary"
  pkgs_failed=1
fi
[ "$pkgs_failed" = 0 ] && [ "$tests_failed" = 0 ] && [ "$subtests_failed" = 0 ] || rc=1

# The steps after go test (benchmarks, engine agreement, each browser test
# step) are counted as steps.
steps_passed=0 steps_failed=0 failed_steps=""
step_failed() { steps_failed=$((steps_failed + 1)); failed_steps="$failed_steps    $1"$'\n'; rc=1; }

# Every benchmark of make bench runs once, so that a broken one fails here
# and not first in the report (pipeline's 1,000-sample benchmark is left to
# make bench: minutes on GDS).
echo "=== benchmarks, one iteration each: scoring, lexical, minilm"
if go test -count=1 -run '^$' -bench . -benchtime 1x ./scoring/... ./lexical/ ./minilm/; then
  steps_passed=$((steps_passed + 1))
else
  step_failed "benchmarks, one iteration each"
fi

# SPEC §4 on a generated corpus: GDS and native engines against NetworkX.
echo "=== engine agreement: ${KGEVAL_AGREEMENT_GRAPHS:-500} generated pair graphs, GDS vs native vs NetworkX"
if py=$(scripts/pyenv.sh bench scripts/requirements-bench.txt) &&
   go build -o bin/kgeval-enginecmp ./cmd/kgeval-enginecmp &&
   bin/kgeval-enginecmp -n "${KGEVAL_AGREEMENT_GRAPHS:-500}" -out "$KGEVAL_STATE_DIR/engines.json" &&
   "$py" scripts/compare_networkx.py "$KGEVAL_STATE_DIR/engines.json"; then
  steps_passed=$((steps_passed + 1))
else
  step_failed "engine agreement"
fi
# The dashboard in headless Chromium (scripts/browser-test.sh, issue 8).
echo "=== browser test: dashboard in headless Chromium"
# Each step prints "--- PASS: browser/Name" or "--- FAIL: browser/Name";
# the script fails when a step fails, something throws outside a step or
# fewer steps ran than it declares.
scripts/browser-test.sh 2>&1 | tee "$tmp/browser.log"
browser_rc=${PIPESTATUS[0]}
steps_passed=$((steps_passed + $(grep -c -- '^--- PASS: browser/' "$tmp/browser.log")))
while read -r name; do step_failed "$name"; done < <(sed -n 's/^--- FAIL: \(browser\/[A-Za-z0-9_]*\).*/\1/p' "$tmp/browser.log")
if [ "$browser_rc" != 0 ] && ! grep -q -- '^--- FAIL: browser/' "$tmp/browser.log"; then
  step_failed "browser test (exited $browser_rc: $(grep -m1 '^browser: ' "$tmp/browser.log" || echo 'see above'))"
fi

# The Python package (issue 39): the wheel in a fresh venv, its pytest suite.
echo "=== python: make wheel, a fresh venv, pytest python/tests"
if scripts/python-test.sh; then
  steps_passed=$((steps_passed + 1))
else
  step_failed "python package (scripts/python-test.sh)"
fi

echo "test: took $(( $(date +%s) - t0 )) s"
cat "$tmp/summary"
[ -z "$failed_steps" ] || printf 'failed steps (%d):\n%s' "$steps_failed" "$failed_steps"
echo "tests: $tests_passed passed, $tests_failed failed, $tests_skipped skipped; subtests and fuzz seeds: $subtests_passed passed, $subtests_failed failed, $subtests_skipped skipped; packages: $pkgs_ok ok, $pkgs_failed failed; steps after go test: $steps_passed passed, $steps_failed failed"
exit $rc

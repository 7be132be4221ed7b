#!/usr/bin/env bash
# make bench: measures kgeval's engines and writes bench/REPORT.md.
# Starts Neo4j if it is not running (and stops it after).
set -uo pipefail
cd "$(dirname "$0")/.."
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$(pwd)/.kgeval}
N=${KGEVAL_BENCH_GRAPHS:-500}
mkdir -p bench
started=0
trap '[ "$started" = 1 ] && deploy/neo4j/neo4j.sh stop' EXIT
if ! deploy/neo4j/neo4j.sh status >/dev/null 2>&1; then
  deploy/neo4j/neo4j.sh start || exit 1
  started=1
fi
export KGEVAL_NEO4J_URI=bolt://127.0.0.1:${KGEVAL_NEO4J_BOLT_PORT:-7687}
export KGEVAL_NEO4J_PASSWORD=$(cat "$KGEVAL_STATE_DIR/neo4j/password")
py=$(scripts/pyenv.sh bench scripts/requirements-bench.txt) || exit 1

go build -o bin/kgeval-enginecmp ./cmd/kgeval-enginecmp || exit 1
# Both GDS community modes (scoring.communities): batch (the default), one
# projection and one Leiden call per batch of pair graphs, and
# louvain-per-graph, SPEC §4's one Louvain call per graph (the default
# before issue 38).
echo "== engines: $N generated pair graphs, GDS (default: batch) vs native vs NetworkX"
engines_out=$(bin/kgeval-enginecmp -n "$N" -out bench/engines.json) || exit 1
echo "$engines_out"
compare_out=$("$py" scripts/compare_networkx.py bench/engines.json --summary bench/engines-summary.json)
compare_rc=$?
echo "$compare_out"
echo "== engines: the same graphs, GDS (louvain-per-graph) vs native vs NetworkX"
engines_pg_out=$(bin/kgeval-enginecmp -n "$N" -communities louvain-per-graph -out bench/engines-per-graph.json) || exit 1
echo "$engines_pg_out"
compare_pg_out=$("$py" scripts/compare_networkx.py bench/engines-per-graph.json --summary bench/engines-per-graph-summary.json)
[ $? = 0 ] || compare_rc=1
echo "$compare_pg_out"

echo "== writes: $N generated pair graphs by transaction size, statement shape and parallel writers"
writebench=$(go test -run '^$' -bench '^BenchmarkWriteShapes$' -benchtime 1x -count 3 -timeout 30m ./graphstore/ 2>&1 | grep -E '^Benchmark|^(ok|FAIL)')
echo "$writebench"

echo "== pipeline: ${KGEVAL_BENCH_SAMPLES:-1000} synthetic samples with pre-extracted triplets (storage + scoring path, no LLM)"
scripts/fetch-minilm.sh >/dev/null || exit 1
pipebench=$(go test -run '^$' -bench 'Evaluate_1000' -benchtime 1x -count 1 -timeout 60m ./pipeline/ 2>&1 | grep -E '^Benchmark|^ok|FAIL')
echo "$pipebench"

llmbench="(skipped: KGEVAL_BENCH_LLM=0)"
if [ "${KGEVAL_BENCH_LLM:-1}" != 0 ]; then
  n=${KGEVAL_BENCH_LLM_SAMPLES:-3}
  echo "== model calls and tokens per sample and metric family: $n WikiEval samples, one --fresh run per family (no cached answer used)"
  llm_started=0
  if ! scripts/llm.sh status >/dev/null 2>&1; then scripts/llm.sh start >/dev/null && llm_started=1; fi
  # One run per family, each with --fresh: every run extracts again (the KG
  # scores are always computed), so the extraction line of the ts run is the
  # kg/ts cost and the judge lines of the llm and ragas runs are theirs.
  llm_out=""
  for fam in ts llm ragas; do
    echo "-- --metrics $fam" >&2
    out=$(bin/kgeval evaluate --dataset testdata/wikieval.jsonl --limit "$n" --metrics "$fam" --fresh --run "bench-llm-$fam" --replace \
      --neo4j-uri "$KGEVAL_NEO4J_URI" --llm-base-url "http://127.0.0.1:${KGEVAL_LLM_PORT:-8089}/v1" 2>/dev/null)
    llm_out="$llm_out
== $fam
$(printf '%s\n' "$out" | grep -E '^(extraction|judge):')"
  done
  [ "$llm_started" = 1 ] && scripts/llm.sh stop >/dev/null
  llmbench=$(printf '%s\n' "$llm_out" | python3 -c '
import re, sys
n = int(sys.argv[1])
runs = dict(re.findall(r"^== (\w+)\n((?:(?!==).*\n?)*)", sys.stdin.read(), re.M))
print(f"{n} samples; model: {sys.argv[2]}")
print("%-28s %12s %18s %22s %15s" % ("family (requests)", "calls/sample", "prompt tok/sample", "completion tok/sample", "model time"))
rows = [("kg (extraction)", "ts", "extraction"), ("llm (judge)", "llm", "judge"), ("ragas (judge)", "ragas", "judge")]
for label, run, kind in rows:
    m = re.search(kind + r": .*?model calls (\d+).*?tokens (\d+) prompt \+ (\d+) completion, model time ([\dhms.]+)", runs.get(run, ""))
    if not m:
        print(f"{label:<28} (no {kind} line in the output of --metrics {run})"); continue
    calls, pt, ct = (int(m.group(i)) for i in (1, 2, 3))
    print("%-28s %12.1f %18.0f %22.0f %15s" % (label, calls / n, pt / n, ct / n, m.group(4) + " total"))
for label in ("ts (kg triplets, encoder)", "ragas encoder metrics"):
    print("%-28s %12.1f %18.0f %22.0f %15s" % (label, 0, 0, 0, "-"))
' "$n" "qwen2.5-coder-1.5b-instruct (local, 2 CPU threads)")
  llmbench="$llmbench
$llm_out"
  echo "$llmbench"
fi

echo "== go benchmarks"
gobench=$(go test -run '^$' -bench . -benchmem -count 1 ./scoring/ 2>&1)
echo "$gobench"

echo "== local encoder: Go all-MiniLM-L6-v2 vs sentence-transformers (labels/s)"
scripts/fetch-minilm.sh >/dev/null || exit 1
encbench=$(go test -run '^$' -bench 'Embed_Batch' -benchtime 3s -count 1 ./minilm/ 2>&1 | grep -E '^Benchmark|labels')
echo "$encbench"
stbench="(skipped: KGEVAL_BENCH_ST=0)"
if [ "${KGEVAL_BENCH_ST:-1}" != 0 ]; then
  # sentence-transformers needs PyTorch: a ~2.5 GB download the first time.
  stpy=$(scripts/pyenv.sh st scripts/requirements-st.txt) &&
    stbench=$("$stpy" scripts/bench_minilm_st.py --threads 1,2 2>&1) || stbench="sentence-transformers benchmark failed: $stbench"
fi
echo "$stbench"

echo "== dashboard API load test: ${KGEVAL_BENCH_WEB_SAMPLES:-10000}-sample run on loopback"
webbench=$(go run ./web/webbench -samples "${KGEVAL_BENCH_WEB_SAMPLES:-10000}" -c 4 -d 10s 2>&1)
echo "$webbench"

{
  echo "# kgeval benchmark report"
  echo
  echo "Generated by \`make bench\` on $(date -u +%Y-%m-%d) ($(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; Go $(go env GOVERSION))."
  echo
  echo "## KG engines on $N generated pair graphs (5–80 entities)"
  echo
  echo "GDS in the default configuration, scoring.communities: batch (one projection, one Dijkstra and one Leiden call per batch of 500 graphs; each graph's communities its own whatever the batch, docs/SPEC-NOTES.md §4):"
  echo
  echo '```'
  echo "$engines_out"
  echo "$compare_out"
  echo '```'
  echo
  echo "GDS with scoring.communities: louvain-per-graph (one Louvain call per graph; the default before issue 38), same graphs:"
  echo
  echo '```'
  echo "$engines_pg_out"
  echo "$compare_pg_out"
  echo '```'
  echo
  echo "## Pair-graph writes: $N generated graphs, by transaction size, statement shape and parallel writers"
  echo
  echo "uid: one statement per node and edge kind, edges joined by uid index lookups (what kgeval runs, 100 graphs per transaction, 2 writers); one: one statement per batch, edges joined by list index. rows = nodes + edges; three repetitions (-count 3)."
  echo
  echo '```'
  echo "$writebench"
  echo '```'
  echo
  echo "## Pipeline: ${KGEVAL_BENCH_SAMPLES:-1000} synthetic samples, pre-extracted triplets (no LLM)"
  echo
  echo "One evaluation per engine (4 pair graphs per sample, fresh labels so the encoder embeds every one)."
  echo "Per stage: samples/s (embed = in-process MiniLM; store = Neo4j writes; score = engine + score writes)."
  echo "peak-RSS-MiB is the benchmark process's peak resident memory so far (VmHWM; native runs first)."
  echo
  echo '```'
  echo "$pipebench"
  echo '```'
  echo
  echo "## Model calls and tokens per sample, by metric family"
  echo
  echo "\`kgeval evaluate --metrics F --fresh\` for F = ts, llm, ragas on the first ${KGEVAL_BENCH_LLM_SAMPLES:-3} WikiEval records (every answer asked again; within a family the judge shares questions between metrics of a sample). The KG scores need only extraction; the encoder metrics and ts need no model call."
  echo
  echo '```'
  echo "$llmbench"
  echo '```'
  echo
  echo "## Go benchmarks (native engine)"
  echo
  echo '```'
  echo "$gobench"
  echo '```'
  echo
  echo "## Local encoder: labels/s at batch 1, 32, 256"
  echo
  echo "Go (this package, in process):"
  echo '```'
  echo "$encbench"
  echo '```'
  echo "sentence-transformers (PyTorch CPU), same labels, same machine:"
  echo '```'
  echo "$stbench"
  echo '```'
  echo
  echo "## Dashboard API on loopback (${KGEVAL_BENCH_WEB_SAMPLES:-10000}-sample run, 4 clients, 10 s per endpoint; aim p99 < 300 ms)"
  echo
  echo '```'
  echo "$webbench"
  echo '```'
  # Value per cost: the mix report (make factcheck) and the cold ledgers
  # (scripts/cost-cold.sh) as a table and a plot.
  if python3 scripts/value-per-cost.py docs/results/factcheck-mix.json docs/results bench/VALUE.md bench/value-per-cost.svg; then
    echo; echo "<!-- value:begin (make value-per-cost) -->"; scripts/value-per-cost-section.sh; echo "<!-- value:end -->"
  fi
  # The peer comparison is measured by make bench-peers (hours with the local model), not here.
  if [ -f bench/PEERS.md ]; then echo; echo "<!-- peers:begin (make bench-peers) -->"; cat bench/PEERS.md; echo "<!-- peers:end -->"; fi
  if [ -f bench/NOTES.md ]; then echo; cat bench/NOTES.md; fi
} > bench/REPORT.md
echo "bench: wrote bench/REPORT.md"
exit $compare_rc

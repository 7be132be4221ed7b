#!/usr/bin/env bash
# make bench-peers: RAGAS 0.4.3 (PyPI) beside kgeval on WikiEval-50.
#
# Creates the pinned venv (scripts/requirements-peers.txt, via scripts/pyenv.sh),
# fetches the encoder files if needed, starts the local model server if nothing
# answers on its port (and stops it after), scores the records with
# scripts/bench_peers_ragas.py (resumable: records already in the results file
# are not asked again) and writes the report:
#   bench/peers/ragas-wikieval50.jsonl          one line per (record, metric)
#   bench/peers/ragas-wikieval50-summary.json   win rates, CIs, means, calls, tokens
#   bench/PEERS.md                              the section, also spliced into bench/REPORT.md
#
# Environment (all optional):
#   KGEVAL_PEERS_LIMIT        first N questions only (default: all 50)
#   KGEVAL_PEERS_ALL=1        both metrics on all three answers (150 records each)
#   KGEVAL_PEERS_CONCURRENCY  records scored at once (default 4, the server's slots)
#   KGEVAL_PEERS_OUT          results file elsewhere (then the report goes next to
#                             it and bench/ is left alone)
#   KGEVAL_LLM_PORT, KGEVAL_LLM_MODEL, KGEVAL_MODELS_DIR, KGEVAL_CACHE_DIR, KGEVAL_STATE_DIR
# Extra arguments are passed to `bench_peers_ragas.py run`.
set -euo pipefail
cd "$(dirname "$0")/.."
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$(pwd)/.kgeval}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
port=${KGEVAL_LLM_PORT:-8089}

# torch from PyPI brings its CUDA wheels: ~2.5 GB the first time.
py=$(scripts/pyenv.sh peers scripts/requirements-peers.txt)
scripts/fetch-minilm.sh >/dev/null

answers() {
  "$py" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)' \
    "http://127.0.0.1:$port/v1/models" 2>/dev/null
}
llm_started=0
if ! answers; then
  scripts/llm.sh install >/dev/null
  scripts/llm.sh start
  llm_started=1
fi
trap '[ "$llm_started" = 1 ] && scripts/llm.sh stop' EXIT

args=()
[ -n "${KGEVAL_PEERS_LIMIT:-}" ] && args+=(--limit "$KGEVAL_PEERS_LIMIT")
[ "${KGEVAL_PEERS_ALL:-0}" = 1 ] && args+=(--all)
"$py" scripts/bench_peers_ragas.py run "${args[@]}" "$@"

if [ -n "${KGEVAL_PEERS_OUT:-}" ]; then
  "$py" scripts/bench_peers_ragas.py report --markdown "${KGEVAL_PEERS_OUT%.jsonl}-report.md" >/dev/null
  exit 0
fi
"$py" scripts/bench_peers_ragas.py report --markdown bench/PEERS.md >/dev/null
# Splice bench/PEERS.md into bench/REPORT.md between the peers markers (make
# bench writes them too); without markers, insert it before the notes.
"$py" - bench/REPORT.md bench/PEERS.md <<'PY'
import re, sys
report_path, peers_path = sys.argv[1], sys.argv[2]
begin, end = "<!-- peers:begin (make bench-peers) -->", "<!-- peers:end -->"
section = begin + "\n" + open(peers_path, encoding="utf-8").read().rstrip("\n") + "\n" + end
try:
    report = open(report_path, encoding="utf-8").read()
except FileNotFoundError:
    report = "# kgeval benchmark report\n"
if begin in report and end in report:
    report = re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _: section, report, flags=re.S)
elif "\n## Reading these numbers" in report:
    report = report.replace("\n## Reading these numbers", "\n" + section + "\n\n## Reading these numbers", 1)
else:
    report = report.rstrip("\n") + "\n\n" + section + "\n"
open(report_path, "w", encoding="utf-8").write(report)
PY
echo "bench-peers: wrote bench/peers/ragas-wikieval50-summary.json, bench/PEERS.md and its section in bench/REPORT.md"

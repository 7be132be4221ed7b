#!/usr/bin/env bash
# make wheelhouse: downloads the wheels of scripts/requirements-wheelhouse.txt
# (what kgeval[local] needs) into dist/wheelhouse for this machine's Python and
# platform, so that `pip install --no-index --find-links dist/wheelhouse
# dist/kgeval-...whl[local]` needs no index (the self-contained install test).
set -euo pipefail
cd "$(dirname "$0")/.."
py=${KGEVAL_PYTHON:-python3}
mkdir -p dist/wheelhouse
"$py" -m pip download -q --disable-pip-version-check --only-binary=:all: -d dist/wheelhouse -r scripts/requirements-wheelhouse.txt
echo "wheelhouse: dist/wheelhouse ($(ls dist/wheelhouse | wc -l) wheels)"

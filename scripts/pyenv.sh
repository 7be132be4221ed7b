#!/usr/bin/env bash
# Creates (once) a Python virtualenv for one of kgeval's helper scripts and
# prints its python. Usage: scripts/pyenv.sh NAME REQUIREMENTS_FILE
# Virtualenvs live in ${KGEVAL_CACHE_DIR:-~/.cache/kgeval}/venv-NAME so that
# clones and CI runs share them; a stamp of the requirements file keeps
# re-runs instant.
set -euo pipefail
name=$1 req=$2
cache=${KGEVAL_CACHE_DIR:-$HOME/.cache/kgeval}
venv=$cache/venv-$name
stamp=$venv/.stamp-$(sha256sum "$req" | cut -c1-16)
if [ ! -f "$stamp" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" >&2
  touch "$stamp"
fi
echo "$venv/bin/python"

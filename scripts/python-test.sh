#!/usr/bin/env bash
# The Python package's tests (make test runs this after go test): builds the
# wheel (make wheel: bin/kgeval, the same static binary as make build, and
# python/kgeval), installs it into a fresh venv under $KGEVAL_STATE_DIR with the
# pinned test requirements, and runs pytest on python/tests against the Neo4j
# of KGEVAL_NEO4J_URI / KGEVAL_NEO4J_PASSWORD (the bundled WikiEval records are
# replayed from testdata/cache/wikieval50.jsonl.gz: no model call).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export KGEVAL_STATE_DIR=${KGEVAL_STATE_DIR:-$root/.kgeval}
: "${KGEVAL_NEO4J_URI:?set KGEVAL_NEO4J_URI (make test sets it)}"
: "${KGEVAL_NEO4J_PASSWORD:?set KGEVAL_NEO4J_PASSWORD (make test sets it)}"
py=${KGEVAL_PYTHON:-python3}
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "python-test: $py is older than 3.11 (the pins of scripts/requirements-python-test.txt, tomllib in build-wheel.py)" >&2; exit 1; }

make -s wheel wheelhouse
wheel=$(ls dist/kgeval-*-py3-none-manylinux_2_17_"$(uname -m)".*.whl)
venv=$KGEVAL_STATE_DIR/venv-python-test
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r scripts/requirements-python-test.txt
"$venv/bin/pip" install -q --disable-pip-version-check "$wheel"
"$venv/bin/pip" check >&2
cd python/tests
# test_local.py installs the wheel with kgeval[local] from the wheelhouse into
# a venv of its own; its Neo4j fetches the jars from the Maven repository that
# make neo4j-start filled (the same files as Maven Central), else from Central.
m2=${KGEVAL_M2_REPO:-$HOME/.cache/kgeval/m2}
KGEVAL_REPO=$root KGEVAL_BUILT_BINARY=$root/bin/kgeval KGEVAL_WHEEL=$root/$wheel KGEVAL_WHEELHOUSE=$root/dist/wheelhouse \
  KGEVAL_TEST_MAVEN_URL="file://$m2,https://repo1.maven.org/maven2" PATH="$venv/bin:$PATH" \
  "$venv/bin/python" -m pytest -p no:cacheprovider -q -rfE "${@:-.}" \
  --junitxml "$KGEVAL_STATE_DIR/python-test.xml"

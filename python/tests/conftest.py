"""The Python suite of make test (scripts/python-test.sh): the wheel installed
in a fresh venv, against the real Neo4j + GDS of the Go tests (KGEVAL_NEO4J_URI,
KGEVAL_NEO4J_PASSWORD) and the bundled WikiEval records replayed from the cache
snapshot with no model call (--cache-only)."""
import json
import os
import pathlib
import subprocess

import pytest

import kgeval

pytest_plugins = ["pytester"]

# pytester's inner sessions run with HOME in a temporary directory: name the
# encoder's files where they are (scripts/fetch-minilm.sh put them).
os.environ.setdefault("KGEVAL_EMBEDDING_MODELS_DIR", os.path.expanduser("~/.cache/kgeval/models"))

REPO = pathlib.Path(os.environ.get("KGEVAL_REPO") or pathlib.Path(__file__).resolve().parents[2])
SNAPSHOT = REPO / "testdata" / "cache" / "wikieval50.jsonl.gz"
WIKIEVAL = REPO / "testdata" / "wikieval50.jsonl"
TRACES = REPO / "testdata" / "traces"


def kgeval_cli(*args, check=True):
    """Runs the installed binary as a user would (the console script's binary)."""
    p = subprocess.run([kgeval.binary(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        raise AssertionError("kgeval %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return p


def jsonl(text):
    return [json.loads(l) for l in text.splitlines() if l.strip()]


@pytest.fixture(scope="session", autouse=True)
def snapshot():
    """The WikiEval-50 cache snapshot in the model cache (kgeval cache import)."""
    for v in ("KGEVAL_NEO4J_URI", "KGEVAL_NEO4J_PASSWORD"):
        if not os.environ.get(v):
            pytest.fail("%s is not set: run through make test (scripts/python-test.sh)" % v)
    kgeval_cli("cache", "import", str(SNAPSHOT))


@pytest.fixture(scope="session")
def wikieval():
    """The first 6 WikiEval-50 records: 2 questions, each with a grounded, an
    ungrounded and a poor answer."""
    with open(WIKIEVAL, encoding="utf-8") as f:
        return [json.loads(l) for l in f][:6]


@pytest.fixture
def runs():
    """Run names to delete after the test."""
    names = []
    yield names
    for n in names:
        kgeval_cli("runs", "delete", n, check=False)


def run_name(prefix):
    return kgeval.new_run_name("pytest-" + prefix)

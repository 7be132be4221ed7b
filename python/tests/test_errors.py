"""Error codes end to end: the binary's JSON error and a server's JSON error
both raise the KgevalError subclass of their code."""
import os
import time

import pytest

import kgeval
from conftest import Proxy, kgeval_cli, run_name
from test_evaluate import RAGAS, as_columns


def test_binary_neo4j_unreachable(wikieval, monkeypatch):
    monkeypatch.setenv("KGEVAL_NEO4J_URI", "bolt://127.0.0.1:1")
    monkeypatch.setenv("KGEVAL_NEO4J_CONNECT_TIMEOUT", "2s")
    with pytest.raises(kgeval.UnavailableError) as e:
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), metrics="kg", cache_only=True, progress=False)
    err = e.value
    assert isinstance(err, kgeval.KgevalError) and err.code == "unavailable" and err.kind == "unreachable" and err.status == 3
    assert "not reachable" in err.message and "kgeval neo4j start" in err.message and "KGEVAL_NEO4J_URI" in err.message, err.message
    assert '{"code"' not in err.message
    # The CLI's own line stays as it was for a terminal.
    p = kgeval_cli("runs", "list", check=False)
    assert p.returncode == 3 and p.stderr.startswith("kgeval: neo4j at bolt://127.0.0.1:1 is not reachable"), p.stderr
    # Each code its class: not found, invalid.
    monkeypatch.undo()
    with pytest.raises(kgeval.NotFoundError) as e:
        kgeval.runs.show(run_name("nope"))
    assert e.value.status == 4
    with pytest.raises(kgeval.InvalidError) as e:
        kgeval.from_traces(__file__ + ".jsonl")
    assert isinstance(e.value, ValueError)


def test_server_neo4j_unreachable(server, wikieval, runs):
    """A server whose Neo4j stops answering (a relay cut) answers 503
    unavailable, and the Client raises UnavailableError."""
    proxy = Proxy(int(os.environ["KGEVAL_NEO4J_URI"].rsplit(":", 1)[1]))
    url, token = server({"KGEVAL_NEO4J_URI": "bolt://127.0.0.1:%d" % proxy.port, "KGEVAL_NEO4J_CONNECT_TIMEOUT": "2s"})
    c = kgeval.Client(url, token, timeout=120)
    run = run_name("srv503")
    runs.append(run)
    kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False)
    assert len(c.result(run).rows()) == 1
    proxy.cut()
    t0 = time.monotonic()
    with pytest.raises(kgeval.UnavailableError) as e:
        c.result(run).rows()
    assert e.value.code == "unavailable" and e.value.status == 503, (e.value.code, e.value.status, e.value.message)
    assert time.monotonic() - t0 < 110

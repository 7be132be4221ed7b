"""kgeval.Client against a running `kgeval serve`: the same Result as the binary's."""
import os
import re
import socket
import subprocess
import time

import pandas as pd
import pytest

import kgeval
from conftest import kgeval_cli, run_name
from test_evaluate import RAGAS, as_columns


@pytest.fixture
def server(tmp_path):
    out = kgeval_cli("serve", "new-token", "pytest").stdout
    token = re.search(r"token:\s+(\S+)", out).group(1)
    sha = re.search(r"sha256: (\w+)", out).group(1)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = tmp_path / "serve.yaml"
    cfg.write_text("web:\n  state_dir: %s\n  secure_cookies: false\n  tokens: [{name: pytest, sha256: %s}]\n" % (tmp_path / "web", sha))
    log = open(tmp_path / "serve.log", "w")
    p = subprocess.Popen([kgeval.binary(), "serve", "--config", str(cfg), "--addr", "127.0.0.1:%d" % port], stdout=log, stderr=log)
    url = "http://127.0.0.1:%d" % port
    deadline = time.monotonic() + 60
    while True:
        try:
            kgeval.Client(url, token)._request("GET", "/healthz")
            break
        except kgeval.KgevalError:
            if p.poll() is not None or time.monotonic() > deadline:
                p.kill()
                raise AssertionError("kgeval serve did not start: " + open(tmp_path / "serve.log").read()[-2000:])
            time.sleep(0.5)
    yield url, token
    p.terminate()
    p.wait(30)


def test_client_evaluate(server, wikieval, runs):
    url, token = server
    c = kgeval.Client(url, token)
    run = run_name("client")
    runs.append(run)
    res = c.evaluate(pd.DataFrame(as_columns(wikieval[:3], RAGAS)), run=run, metrics=["kg"], cache_only=True, progress=False)
    assert res.run == run
    local = kgeval.result(run)
    assert res.to_pandas(all=True).equals(local.to_pandas(all=True))
    assert res.claims().equals(local.claims())
    assert res.explain("wikieval-00-poor") == kgeval_cli("explain", "--run", run, "--sample", "wikieval-00-poor").stdout
    with pytest.raises(kgeval.KgevalError) as e:
        kgeval.Client(url, "kgv_wrong").result(run).rows()
    assert e.value.code == "unauthorized" and "API token" in e.value.message, (e.value.code, e.value.message)

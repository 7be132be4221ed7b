"""kgeval.Client against a running `kgeval serve`: the same Result as the binary's."""
import pandas as pd
import pytest

import kgeval
from conftest import kgeval_cli, run_name
from test_evaluate import RAGAS, as_columns

INPUTS = ["user_input", "retrieved_contexts", "response", "reference"]


def test_client_evaluate(server, wikieval, runs):
    url, token = server()
    c = kgeval.Client(url, token)
    run = run_name("client")
    runs.append(run)
    res = c.evaluate(pd.DataFrame(as_columns(wikieval[:3], RAGAS)), run=run, metrics=["kg"], cache_only=True, progress=False)
    assert res.run == run
    local = kgeval.result(run)
    assert list(res.to_pandas().columns[:4]) == INPUTS
    assert res.to_pandas(all=True).drop(columns=INPUTS).equals(local.to_pandas(all=True))
    assert res.claims().equals(local.claims())
    assert res.explain("wikieval-00-poor") == kgeval_cli("explain", "--run", run, "--sample", "wikieval-00-poor").stdout
    stored = c.result(run)
    assert stored.summary.get("name") == run and stored.summary["samples"] == 3, stored.summary
    assert {h["pair"] for h in stored.summary["headline"]} == {h["pair"] for h in local.summary["headline"]}
    with pytest.raises(kgeval.UnauthorizedError) as e:
        kgeval.Client(url, "kgv_wrong").result(run).rows()
    assert e.value.code == "unauthorized" and e.value.status == 401 and "API token" in e.value.message, (e.value.code, e.value.message)
    with pytest.raises(kgeval.NotFoundError):
        c.result(run + "-nope").rows()

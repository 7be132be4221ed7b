"""kgeval.evaluate on a DataFrame and a datasets.Dataset, replayed from the
snapshot with 0 model calls, against the CLI's export of the same run."""
import json
import math

import pandas as pd
import pytest

import kgeval
from conftest import jsonl, kgeval_cli, run_name

RAGAS = {"question": "user_input", "contexts": "retrieved_contexts", "answer": "response", "reference": "reference"}
OLD_RAGAS = {"question": "question", "contexts": "contexts", "answer": "answer", "reference": "ground_truth"}


def as_columns(recs, names):
    return [{"id": r["id"], "system": r["system"], **{names[k]: r[k] for k in names}} for r in recs]


def flat_export(rows):
    """The CLI export's values, as Result.to_pandas(all=True) names them."""
    out = {}
    for r in rows:
        d = {}
        for pair, scores in r["scores"].items():
            for m, v in scores.items():
                if m != "reason":
                    d["%s.%s" % (pair, m)] = v
        d.update(r.get("metrics") or {})
        out[r["id"]] = d
    return out


def assert_same_scores(df, cli_rows):
    want = flat_export(cli_rows)
    assert sorted(df["id"]) == sorted(want), (list(df["id"]), list(want))
    n = 0
    for rec in df.to_dict(orient="records"):
        for k, v in want[rec["id"]].items():
            got = rec.get(k)
            if v is None:
                assert got is None or (isinstance(got, float) and math.isnan(got)), (rec["id"], k, got)
            else:
                assert got == v, (rec["id"], k, got, v)
                n += 1
    assert n > 0


def evaluate_replayed(data, run, runs):
    runs.append(run)
    res = kgeval.evaluate(data, run=run, metrics="kg", cache_only=True, progress=False)
    assert res.run == run
    assert res.summary["calls"]["calls"] == 0, res.summary["calls"]  # no model call
    assert res.summary["calls"]["cache_hits"] > 0
    assert res.summary["samples"] == len(data)
    return res


def test_evaluate_dataframe(wikieval, runs):
    df = pd.DataFrame(as_columns(wikieval, RAGAS))
    res = evaluate_replayed(df, run_name("df"), runs)
    out = res.to_pandas(all=True)
    # The CLI's export of the same run.
    cli = jsonl(kgeval_cli("export", "--run", res.run).stdout)
    assert_same_scores(out, cli)
    # The same records evaluated by the CLI from the file: the same scores.
    run2 = run_name("cli")
    runs.append(run2)
    path = str(__import__("conftest").WIKIEVAL)
    kgeval_cli("evaluate", "--dataset", path, "--limit", "6", "--run", run2, "--metrics", "kg", "--cache-only")
    assert_same_scores(out, jsonl(kgeval_cli("export", "--run", run2).stdout))
    # to_pandas: one row per sample with the headline and pass/fail.
    short = res.to_pandas()
    assert list(short["id"]) == [r["id"] for r in wikieval]
    for col in ("id", "system", "faithfulness", "faithfulness.pass", "context_relevancy", "pass"):
        assert col in short.columns
    head = {r["id"]: r["headline"] for r in jsonl(kgeval_cli("export", "--run", res.run, "--headline").stdout)}
    for rec in short.to_dict(orient="records"):
        assert rec["faithfulness"] == head[rec["id"]]["faithfulness"]["value"]
        assert rec["faithfulness.pass"] == head[rec["id"]]["faithfulness"]["pass"]
    grounded = short.set_index("id").loc["wikieval-00-grounded"]
    assert grounded["faithfulness.pass"]
    # claims: one row per claim, with verdict and evidence.
    claims = res.claims()
    assert {"id", "pair", "text", "verdict", "score", "p_supported", "evidence"} <= set(claims.columns)
    assert set(claims["verdict"]) <= {"supported", "unsupported", "contradicted"}
    ung = claims[(claims["id"] == "wikieval-00-ungrounded") & (claims["pair"] == "faithfulness")]
    assert "contradicted" in set(ung["verdict"]), ung
    assert all(isinstance(e, str) and e for e in ung["evidence"])
    # explain: the text kgeval explain prints.
    assert res.explain("wikieval-00-ungrounded") == kgeval_cli("explain", "--run", res.run, "--sample", "wikieval-00-ungrounded").stdout
    # A stored run read back.
    again = kgeval.result(res.run).to_pandas()
    assert again.equals(short)


def test_evaluate_dataset(wikieval, runs):
    # datasets is pinned in scripts/requirements-python-test.txt: a missing
    # one fails here instead of skipping the test.
    import datasets
    ds = datasets.Dataset.from_list(as_columns(wikieval, OLD_RAGAS))
    res = evaluate_replayed(ds, run_name("ds"), runs)
    assert_same_scores(res.to_pandas(all=True), jsonl(kgeval_cli("export", "--run", res.run).stdout))


def test_evaluate_records_and_rejections(wikieval, runs):
    recs = as_columns(wikieval[:1], RAGAS) + [{"id": "no-question", "response": "Because.", "retrieved_contexts": ["x"]}]
    run = run_name("rej")
    runs.append(run)
    with pytest.warns(UserWarning, match="no-question"):
        res = kgeval.evaluate(recs, run=run, metrics="kg", cache_only=True, progress=False)
    assert [r["id"] for r in res.rejected] == ["no-question"] and "missing question" in res.rejected[0]["reason"], res.rejected
    assert list(res.to_pandas()["id"]) == [wikieval[0]["id"]]


def test_evaluate_errors(wikieval, runs, monkeypatch):  # runs first: its cleanup runs after monkeypatch restores the Neo4j URI
    with pytest.raises(ValueError):
        kgeval.evaluate([])
    run = run_name("dup")
    runs.append(run)
    kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False)
    with pytest.raises(kgeval.KgevalError) as e:
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False)
    assert e.value.code == 1 and "--replace" in e.value.message, e.value.message
    monkeypatch.setenv("KGEVAL_NEO4J_URI", "bolt://127.0.0.1:1")
    monkeypatch.setenv("KGEVAL_NEO4J_CONNECT_TIMEOUT", "2s")
    with pytest.raises(kgeval.KgevalError) as e:
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), metrics="kg", cache_only=True, progress=False)
    assert e.value.code == 3, e.value.message
    assert "not reachable" in e.value.message and "kgeval neo4j start" in e.value.message and "KGEVAL_NEO4J_URI" in e.value.message

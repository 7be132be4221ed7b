"""kgeval.evaluate on a DataFrame and a datasets.Dataset, replayed from the
snapshot with 0 model calls, against the CLI's export of the same run; the
RAGAS shape of the Result; pass over the asked metrics' calibrated marks."""
import json
import math
import os

import pandas as pd
import pytest

import kgeval
from conftest import jsonl, kgeval_cli, run_name

RAGAS = {"question": "user_input", "contexts": "retrieved_contexts", "answer": "response", "reference": "reference"}
OLD_RAGAS = {"question": "question", "contexts": "contexts", "answer": "answer", "reference": "ground_truth"}
PAIRS = ["context_relevancy", "faithfulness", "factual_correctness", "answer_relevancy"]


def as_columns(recs, names, ids=True):
    return [{**({"id": r["id"]} if ids else {}), "system": r["system"], **{names[k]: r[k] for k in names}} for r in recs]


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
    assert sorted(set(df["id"])) == sorted(want), (list(df["id"]), list(want))
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


def evaluate_replayed(data, run, runs, **kw):
    # The snapshot holds the model's extractions: replay them (rules is
    # the default extraction, which reads no cache).
    kw.setdefault("config", {"extraction": {"method": "both"}})
    runs.append(run)
    res = kgeval.evaluate(data, run=run, metrics=kw.pop("metrics", "kg"), cache_only=True, progress=False, **kw)
    assert res.run == run
    assert res.summary["calls"]["calls"] == 0, res.summary["calls"]  # no model call
    assert res.summary["calls"]["cache_hits"] > 0
    return res


def test_evaluate_dataframe(wikieval, runs):
    df = pd.DataFrame(as_columns(wikieval, RAGAS))
    res = evaluate_replayed(df, run_name("df"), runs)
    assert res.summary["samples"] == len(df)
    out = res.to_pandas(all=True)
    # The CLI's export of the same run.
    cli = jsonl(kgeval_cli("export", "--run", res.run).stdout)
    assert_same_scores(out, cli)
    # The same records evaluated by the CLI from the file: the same scores.
    run2 = run_name("cli")
    runs.append(run2)
    path = str(__import__("conftest").WIKIEVAL)
    os.environ["KGEVAL_EXTRACTION_METHOD"] = "both"  # as evaluate_replayed: the snapshot's extractions
    try:
        kgeval_cli("evaluate", "--dataset", path, "--limit", "6", "--run", run2, "--metrics", "kg", "--cache-only")
    finally:
        del os.environ["KGEVAL_EXTRACTION_METHOD"]
    assert_same_scores(out, jsonl(kgeval_cli("export", "--run", run2).stdout))
    # to_pandas: the input columns first (RAGAS's order), one row per input row.
    short = res.to_pandas()
    assert list(short.columns[:6]) == ["user_input", "retrieved_contexts", "response", "reference", "id", "system"], list(short.columns)
    assert list(short["id"]) == [r["id"] for r in wikieval]
    assert list(short["response"]) == [r["answer"] for r in wikieval]
    assert [list(c) for c in short["retrieved_contexts"]] == [r["contexts"] for r in wikieval]
    for col in PAIRS + [p + ".pass" for p in PAIRS] + ["pass", "reason"]:
        assert col in short.columns, col
    head = {r["id"]: r["headline"] for r in jsonl(kgeval_cli("export", "--run", res.run, "--headline").stdout)}
    for rec in short.to_dict(orient="records"):
        for pair in PAIRS:
            h = head[rec["id"]][pair]
            assert rec[pair] == h["value"] or (h["value"] is None and math.isnan(rec[pair]))
            # A pair's pass is a verdict only against a calibrated mark: the
            # binary's flag says which, not this test.
            want = h["pass"] if (h.get("calibrated") or h.get("configured")) else None
            assert rec[pair + ".pass"] == want, (rec["id"], pair, rec[pair + ".pass"], h)
    grounded = short.set_index("id").loc["wikieval-00-grounded"]
    assert grounded["faithfulness.pass"]
    # repr: the means and pass rates.
    text = repr(res)
    assert res.run in text and "faithfulness=0." in text and "pass " in text, text
    # claims: one row per claim, with verdict and evidence.
    claims = res.claims()
    assert {"id", "pair", "text", "verdict", "score", "p_supported", "evidence"} <= set(claims.columns)
    assert set(claims["verdict"]) <= {"supported", "unsupported", "contradicted"}
    ung = claims[(claims["id"] == "wikieval-00-ungrounded") & (claims["pair"] == "faithfulness")]
    assert "contradicted" in set(ung["verdict"]), ung
    assert all(isinstance(e, str) and e for e in ung["evidence"])
    # explain: the text kgeval explain prints.
    assert res.explain("wikieval-00-ungrounded") == kgeval_cli("explain", "--run", res.run, "--sample", "wikieval-00-ungrounded").stdout
    # A stored run read back: the same scores (no input columns), a summary.
    again = kgeval.result(res.run)
    assert again.to_pandas().equals(short.drop(columns=["user_input", "retrieved_contexts", "response", "reference"]))
    s = again.summary
    assert s["name"] == res.run and s["samples"] == 6 and s["status"] == "done", s
    assert {h["pair"] for h in s["headline"]} == set(PAIRS) and all(h["n"] > 0 for h in s["headline"]), s["headline"]


def test_evaluate_dataset(wikieval, runs):
    # datasets is pinned in scripts/requirements-python-test.txt: a missing
    # one fails here instead of skipping the test.
    import datasets
    ds = datasets.Dataset.from_list(as_columns(wikieval, OLD_RAGAS))
    res = evaluate_replayed(ds, run_name("ds"), runs)
    assert_same_scores(res.to_pandas(all=True), jsonl(kgeval_cli("export", "--run", res.run).stdout))


def test_pass_reads_the_asked_metric(wikieval, runs):
    """metrics=["faithfulness"] computes that pair alone, and pass reads it
    alone: the grounded answers pass although factual_correctness (not
    asked) would fail one of them."""
    res = evaluate_replayed(pd.DataFrame(as_columns(wikieval, RAGAS)), run_name("pair"), runs, metrics=["faithfulness"])
    df = res.to_pandas()
    assert [c for c in df.columns if c in PAIRS] == ["faithfulness"], list(df.columns)
    rows = res.rows()
    assert all(set(r["headline"]) == {"faithfulness"} for r in rows), rows[0]["headline"]
    assert all(r["headline"]["faithfulness"]["calibrated"] for r in rows)
    for rec in df.to_dict(orient="records"):
        assert rec["pass"] == rec["faithfulness.pass"], rec
    assert df.set_index("id").loc["wikieval-00-grounded", "pass"] is True or df.set_index("id").loc["wikieval-00-grounded", "pass"] == True  # noqa: E712
    assert not df.set_index("id").loc["wikieval-00-ungrounded", "pass"]
    assert set(res.claims()["pair"]) == {"faithfulness"}


def test_duplicates_kept_in_order(wikieval, runs):
    """3 equal rows without ids in, 3 rows out, in input order (evaluated once)."""
    one = as_columns(wikieval[1:2], RAGAS, ids=False)[0]
    other = as_columns(wikieval[0:1], RAGAS, ids=False)[0]
    df = pd.DataFrame([one, other, one, one])
    res = evaluate_replayed(df, run_name("dup"), runs)
    assert res.summary["samples"] == 2
    out = res.to_pandas()
    assert len(out) == 4 and list(out["response"]) == [one["response"], other["response"], one["response"], one["response"]]
    assert out["id"][0] == out["id"][2] == out["id"][3] != out["id"][1]
    assert out["faithfulness"][0] == out["faithfulness"][2] == out["faithfulness"][3]


def test_missing_column_raises(wikieval):
    df = pd.DataFrame(as_columns(wikieval[:2], RAGAS)).drop(columns=["response"])
    with pytest.raises(kgeval.InvalidError) as e:
        kgeval.evaluate(df, progress=False)
    assert "no answer column" in e.value.message and "'response'" in e.value.message and "user_input" in e.value.message, e.value.message


def test_wrong_type_raises(wikieval):
    recs = as_columns(wikieval[:4], RAGAS)
    recs[1]["response"], recs[3]["response"] = 42, {"text": "x"}
    with pytest.raises(kgeval.InvalidError) as e:
        kgeval.evaluate(pd.DataFrame(recs), progress=False)
    m = e.value.message
    assert "column 'response' must hold text: 2 rows do not" in m and "row 1: 42 (int)" in m and "row 3:" in m, m


def test_bad_rows_kept_with_reason(wikieval, runs):
    """A NaN answer and a row without contexts are kept, with their reason
    and pass None, after one warning that counts them; never pass=True."""
    recs = as_columns(wikieval[:4], RAGAS)
    recs[1]["response"] = float("nan")
    recs[3]["retrieved_contexts"] = []
    run = run_name("bad")
    runs.append(run)
    with pytest.warns(UserWarning) as w:
        res = kgeval.evaluate(pd.DataFrame(recs), run=run, metrics="kg", cache_only=True, progress=False)
    msgs = [str(x.message) for x in w if "kgeval" in str(x.message)]
    assert len(msgs) == 1, msgs
    assert "2 of 4 rows were not evaluated" in msgs[0] and "no answer (response is NaN) (row 1)" in msgs[0] \
        and "no contexts (retrieved_contexts is empty) (row 3)" in msgs[0], msgs[0]
    df = res.to_pandas()
    assert list(df["id"]) == [r["id"] for r in recs]
    for i in (1, 3):
        assert df["pass"][i] is None and isinstance(df["reason"][i], str) and df["reason"][i].startswith("not evaluated: no "), df.iloc[i]
        assert df["faithfulness"][i] is None or math.isnan(df["faithfulness"][i])
    assert df["pass"][0] is not None
    assert res.summary["samples"] == 2 and [r["row"] for r in res.rejected] == [1, 3]


def test_evaluate_records_and_rejections(wikieval, runs):
    recs = as_columns(wikieval[:1], RAGAS) + [{"id": "no-question", "response": "Because.", "retrieved_contexts": ["x"]}]
    run = run_name("rej")
    runs.append(run)
    with pytest.warns(UserWarning, match="1 of 2 rows were not evaluated.*no question"):
        res = kgeval.evaluate(recs, run=run, metrics="kg", cache_only=True, progress=False)
    assert [r["id"] for r in res.rejected] == ["no-question"] and "no question" in res.rejected[0]["reason"], res.rejected
    df = res.to_pandas()
    assert list(df["id"]) == [wikieval[0]["id"], "no-question"] and df["pass"][1] is None


def test_csv_lists_and_sample_ids(wikieval, runs, tmp_path):
    """A list column written to CSV (pandas writes Python's repr) is read
    back as a list, and sample_id from the file is kept."""
    df = pd.DataFrame(as_columns(wikieval[:3], RAGAS)).rename(columns={"id": "sample_id"})
    path = tmp_path / "data.csv"
    df.to_csv(path, index=False)
    back = pd.read_csv(path)["retrieved_contexts"]
    assert all(isinstance(c, str) and c.startswith("[") for c in back), back  # Python's repr, one string each
    res = evaluate_replayed(str(path), run_name("csv"), runs)
    out = res.to_pandas()
    assert list(out["id"]) == [r["id"] for r in wikieval[:3]]
    assert [list(c) for c in out["retrieved_contexts"]] == [r["contexts"] for r in wikieval[:3]]
    # The same scores as the DataFrame with real lists.
    direct = evaluate_replayed(pd.DataFrame(as_columns(wikieval[:3], RAGAS)), run_name("csv-df"), runs)
    assert list(out["faithfulness"]) == list(direct.to_pandas()["faithfulness"])


def test_config_keys_and_precedence(wikieval, runs, monkeypatch):
    with pytest.raises(kgeval.InvalidError) as e:
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), config={"scoring": {"tua": 0.6}}, progress=False)
    assert "unknown key 'scoring.tua' (did you mean 'scoring.tau'?)" in e.value.message, e.value.message
    with pytest.raises(kgeval.InvalidError) as e:
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), config={"neo4jj": {"uri": "bolt://x"}}, progress=False)
    assert "did you mean 'neo4j.uri'" in e.value.message, e.value.message
    # config= wins over the environment, and a password in both is reported.
    password = __import__("os").environ["KGEVAL_NEO4J_PASSWORD"]
    monkeypatch.setenv("KGEVAL_NEO4J_PASSWORD", "not-the-password")
    run = run_name("cfg")
    runs.append(run)
    with pytest.warns(UserWarning, match="neo4j.password is given in config= and in KGEVAL_NEO4J_PASSWORD: config= wins"):
        res = kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False,
                              config={"neo4j": {"password": password}})
    assert len(res.to_pandas()) == 1
    monkeypatch.setenv("KGEVAL_NEO4J_PASSWORD", password)


def test_model_endpoint_unreachable(wikieval, runs):
    """A model endpoint that does not answer stops the evaluation before any
    work (no run is stored) when the configuration asks it (here the claim
    check); the defaults ask it nothing, so there it is not probed."""
    run = run_name("nomodel")
    cfg = {"llm": {"base_url": "http://127.0.0.1:1/v1"}}
    with pytest.raises(kgeval.UnavailableError) as e:
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, config=dict(cfg, scoring={"verify": "cascade"}), progress=False)
    assert "http://127.0.0.1:1/v1 (llm.base_url) does not answer" in e.value.message and e.value.status == 3, e.value.message
    with pytest.raises(kgeval.NotFoundError):
        kgeval.runs.show(run)
    runs.append(run)
    res = kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", progress=False, config=cfg)
    assert res.summary["calls"]["calls"] == 0


def test_evaluate_errors(wikieval, runs, monkeypatch):  # runs first: its cleanup runs after monkeypatch restores the Neo4j URI
    with pytest.raises(kgeval.InvalidError):
        kgeval.evaluate([])
    run = run_name("dup")
    runs.append(run)
    kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False)
    with pytest.raises(kgeval.ConflictError) as e:
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False)
    assert e.value.code == "conflict" and e.value.status == 5 and "replace=True" in e.value.message \
        and "--replace" not in e.value.message, e.value.message
    again = kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False, replace=True)
    assert len(again.to_pandas()) == 1
    with pytest.raises(kgeval.InvalidError):
        kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, replace=True, resume=True)
    with pytest.raises(kgeval.NotFoundError) as e:
        kgeval.result(run + "-nope").rows()
    assert e.value.code == "not_found" and e.value.kind == "no_such_run", (e.value.code, e.value.kind)


def test_runs_list_and_delete(wikieval):
    run = run_name("runs")
    kgeval.evaluate(as_columns(wikieval[:1], RAGAS), run=run, metrics="kg", cache_only=True, progress=False)
    listed = {r["name"]: r for r in kgeval.runs.list()}
    assert listed[run]["status"] == "done" and listed[run]["samples"] == 1
    kgeval.runs.delete(run)
    assert run not in {r["name"] for r in kgeval.runs.list()}
    with pytest.raises(kgeval.NotFoundError):
        kgeval.runs.delete(run)


def test_model_fails_mid_run(wikieval, runs):
    """An endpoint that answers the preflight but fails every request (fault
    injection): the run finishes, and one warning says how many requests
    failed and which claims went unchecked by the model."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"data": [{"id": "m"}]}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    run = run_name("midrun")
    runs.append(run)
    cfg = {"llm": {"base_url": "http://127.0.0.1:%d/v1" % srv.server_address[1], "max_retries": 0, "model": "failing-%s" % run},
           "extraction": {"method": "rules"}, "scoring": {"verify": "prob"}}
    try:
        with pytest.warns(UserWarning, match=r"model requests failed in run .*claims went unchecked by the model .*wikieval-00-grounded \(\d+\)"):
            res = kgeval.evaluate(as_columns(wikieval[:2], RAGAS), run=run, metrics=["faithfulness"], config=cfg, progress=False)
    finally:
        srv.shutdown()
        srv.server_close()
    claims = res.claims()
    assert len(claims) > 0 and claims["p_supported"].isna().all()

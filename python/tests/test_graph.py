"""Result.graph: a sample's pair graph drawn with neo4j-viz, the graph
`kgeval export graph` writes, with each claim's verdict."""
import json

import pandas as pd

import kgeval
from conftest import kgeval_cli, run_name
from test_evaluate import RAGAS, as_columns

RULES = {"extraction": {"method": "rules"}, "scoring": {"verify": "off"}}


def test_result_graph(wikieval, runs):
    run = run_name("graph")
    runs.append(run)
    res = kgeval.evaluate(pd.DataFrame(as_columns(wikieval[:2], RAGAS)), run=run, metrics=["faithfulness"], config=RULES, progress=False)
    sid = "wikieval-00-ungrounded"
    vg = res.graph(sid, pair="faithfulness", render=False)
    export = json.loads(kgeval_cli("export", "graph", "--run", run, "--sample", sid, "--pair", "faithfulness").stdout)
    claims = [c for c in res.claim_rows() if c["id"] == sid and c["pair"] == "faithfulness"]
    assert claims and len(vg.nodes) == len(export["nodes"]) + len(claims)
    labels = {n.caption for n in vg.nodes}
    assert {n["label"] for n in export["nodes"]} <= labels
    assert any(c.startswith(("CONTRADICTED", "UNSUPPORTED")) for c in labels if c), labels
    edges = [r for r in vg.relationships if r.caption != "CLAIM"]
    assert len(edges) == len(export["edges"]) and any(r.caption == "SIMILAR" for r in edges)
    html = res.graph(sid)  # what a notebook shows inline
    assert type(html).__name__ == "HTML" and "PSLV-C56" in html.data

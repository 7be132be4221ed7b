"""Result.graph: a sample's pair graph drawn inline in Jupyter with Neo4j's
notebook library, neo4j-viz (``pip install kgeval[viz]``): the graph
``kgeval export graph`` writes (the one the dashboard draws), its input
entities coloured by their verdict (a path to the context within delta, or
none), SIMILAR and CONFLICTS edges apart, and one node per claim with its
verdict, linked to the input entities it names."""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

#: Colours: the answer's side, the context's, and the verdicts.
COLORS = {"in": "#8da0cb", "ctx": "#d9d9d9", "passed": "#66c2a5", "failed": "#fc8d62",
          "supported": "#1b9e77", "unsupported": "#e6ab02", "contradicted": "#d95f02",
          "SIMILAR": "#7570b3", "CONFLICTS": "#d95f02", "REL": "#999999", "CLAIM": "#bbbbbb"}


def graph_data(g: Dict[str, Any], claims: List[Dict[str, Any]]) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """The nodes and relationships to draw, as plain dicts (the keyword
    arguments of neo4j_viz.Node and Relationship), from an exported pair
    graph and the sample's claims of that pair."""
    paths = g.get("paths") or {}
    communities = g.get("communities") or []
    nodes: List[Dict[str, Any]] = []
    for n in g.get("nodes") or []:
        nid = n["id"]
        p = paths.get(str(nid))
        if n.get("side") == "in" and p is not None:
            color = COLORS["passed"] if p.get("passed") else COLORS["failed"]
        else:
            color = COLORS.get(n.get("side", ""), COLORS["ctx"])
        props = {"kind": n.get("kind"), "side": n.get("side"), "passage": n.get("passage")}
        if nid < len(communities):
            props["community"] = communities[nid]
        if p is not None:
            props.update({"path_cost": p.get("cost"), "passed": p.get("passed")})
        nodes.append({"id": nid, "caption": n.get("label") or n.get("key"), "color": color,
                      "size": 12 if n.get("kind") == "entity" else 6, "properties": props})
    rels: List[Dict[str, Any]] = []
    for i, e in enumerate(g.get("edges") or []):
        rels.append({"id": "e%d" % i, "source": e["from"], "target": e["to"], "caption": e.get("type"),
                     "color": COLORS.get(e.get("type", ""), COLORS["REL"]),
                     "properties": {"weight": e.get("weight"), "cost": e.get("cost")}})
    entities = [n for n in g.get("nodes") or [] if n.get("side") == "in" and n.get("kind") == "entity"]
    for c in claims:
        cid = "claim-%s" % c.get("claim")
        verdict = c.get("verdict") or "unsupported"
        text = c.get("text") or ""
        nodes.append({"id": cid, "caption": "%s %.2f: %s" % (verdict.upper(), c.get("score") or 0.0, text[:80]),
                      "color": COLORS.get(verdict, COLORS["CLAIM"]), "size": 18,
                      "properties": {"claim": text, "verdict": verdict, "score": c.get("score"), "evidence": c.get("evidence")}})
        low = text.lower()
        for n in entities:
            label = (n.get("label") or "").lower()
            if label and label in low:
                rels.append({"id": "%s-%s" % (cid, n["id"]), "source": cid, "target": n["id"], "caption": "CLAIM",
                             "color": COLORS["CLAIM"], "properties": {}})
    return nodes, rels


def draw(result: Any, sample_id: str, pair: str, render: bool = True) -> Any:
    try:
        from neo4j_viz import Node, Relationship, VisualizationGraph
    except ImportError:
        raise ImportError("Result.graph draws with neo4j-viz: pip install neo4j-viz (or kgeval[viz])") from None
    g = result._backend.graph(result.run, sample_id, pair)
    claims = [c for c in result.claim_rows() if c.get("id") == sample_id and c.get("pair") == pair]
    nodes, rels = graph_data(g, claims)
    vg = VisualizationGraph(nodes=[Node(**n) for n in nodes], relationships=[Relationship(**r) for r in rels])
    return vg.render() if render else vg

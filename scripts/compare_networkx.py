#!/usr/bin/env python3
"""Score the pair graphs exported by kgeval-enginecmp with NetworkX and
compare with kgeval's GDS and native engines (issue 3, SPEC §4).

multihop: d(v) = least cost of a directed path from input entity v to any
context entity, computed per input entity with nx.single_source_dijkstra
(exactly the definition), passing when d(v) <= delta (+1e-9, see SPEC notes).
community: nx.community.louvain_communities(weight='weight', resolution=1,
seed=...) on the undirected multigraph (parallel edges add up).

Prints agreement and pair graphs per second of each engine, and writes a
JSON summary with --summary.
"""
import argparse, json, math, sys, time

import networkx as nx

EPS = 1e-9


def build(g):
    d = nx.DiGraph()
    u = nx.MultiGraph()
    for n in g["nodes"]:
        d.add_node(n["id"])
        u.add_node(n["id"])
    for e in g["edges"]:
        # keep the cheaper of parallel directed edges, like the engines
        if d.has_edge(e["from"], e["to"]) and d[e["from"]][e["to"]]["cost"] <= e["cost"]:
            pass
        else:
            d.add_edge(e["from"], e["to"], cost=e["cost"])
        u.add_edge(e["from"], e["to"], weight=e["weight"])
    return d, u


def scores(g, params, seed):
    ins = [n["id"] for n in g["nodes"] if n["kind"] == "entity" and n["side"] == "in"]
    ctx = {n["id"] for n in g["nodes"] if n["kind"] == "entity" and n["side"] == "ctx"}
    if not ins or not ctx:
        return None
    d, u = build(g)
    if not params.get("directed", True):
        d = d.to_undirected()
    passed = 0
    costs = {}
    for v in ins:
        dist = nx.single_source_dijkstra_path_length(d, v, weight="cost")
        best = min((c for t, c in dist.items() if t in ctx), default=math.inf)
        costs[v] = best
        if best <= params["delta"] + EPS:
            passed += 1
    multihop = passed / len(ins)
    comms = nx.community.louvain_communities(u, weight="weight", resolution=1, seed=seed)
    of = {}
    for i, c in enumerate(comms):
        for v in c:
            of[v] = i
    has_in = {of[v] for v in ins}
    has_ctx = {of[v] for v in ctx}
    overlap = len(has_in & has_ctx) / len(comms)
    coverage = sum(1 for v in ins if of[v] in has_ctx) / len(ins)
    return {"multihop": multihop, "overlap": overlap, "coverage": coverage, "costs": costs}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--summary")
    args = ap.parse_args()
    data = json.load(open(args.file))
    graphs, params = data["graphs"], data["params"]
    t = time.perf_counter()
    nxres = [scores(g, params, args.seed) for g in graphs]
    nx_s = time.perf_counter() - t

    n = len(graphs)
    out = {"graphs": n, "networkx_version": nx.__version__, "seconds": dict(data["seconds"], networkx=nx_s)}
    for eng in ("gds", "native"):
        res = data[eng]
        mh_mismatch = cost_mismatch = 0
        d_ov = d_cov = 0.0
        scored = 0
        for g, r, x in zip(graphs, res, nxres):
            if x is None:
                if r.get("multihop") is not None:
                    mh_mismatch += 1
                continue
            scored += 1
            if r["multihop"] != x["multihop"]:
                mh_mismatch += 1
            for p in r.get("paths") or []:
                c = p.get("cost")
                want = x["costs"][p["node"]]
                if (c is None) != math.isinf(want) or (c is not None and abs(c - want) > 1e-9):
                    cost_mismatch += 1
            d_ov += abs(r["community_overlap"] - x["overlap"])
            d_cov += abs(r["community_coverage"] - x["coverage"])
        out[eng] = {
            "multihop_mismatches": mh_mismatch,
            "cost_mismatches": cost_mismatch,
            "overlap_mad": d_ov / max(scored, 1),
            "coverage_mad": d_cov / max(scored, 1),
        }
    s = out["seconds"]
    out["graphs_per_second"] = {k: n / s[k] for k in ("gds", "native", "networkx") if s.get(k)}
    out["ratio_vs_networkx"] = {k: s["networkx"] / s[k] for k in ("gds", "native") if s.get(k)}
    print(f"{n} pair graphs, NetworkX {nx.__version__}")
    print(f"{'engine':8} {'graphs/s':>10} {'x NetworkX':>10} {'multihop≠':>10} {'cost≠':>7} {'overlap MAD':>12} {'coverage MAD':>13}")
    for eng in ("gds", "native"):
        e = out[eng]
        print(f"{eng:8} {out['graphs_per_second'][eng]:10.1f} {out['ratio_vs_networkx'][eng]:10.2f} "
              f"{e['multihop_mismatches']:10d} {e['cost_mismatches']:7d} {e['overlap_mad']:12.4f} {e['coverage_mad']:13.4f}")
    print(f"{'networkx':8} {out['graphs_per_second']['networkx']:10.1f} {1.0:10.2f}")
    print(f"Neo4j write: {data['write_rows']} rows in {s['write']:.2f}s = {data['write_rows']/s['write']:.0f} rows/s")
    if args.summary:
        json.dump(out, open(args.summary, "w"), indent=2)
    ok = all(out[e]["multihop_mismatches"] == 0 and out[e]["overlap_mad"] <= 0.05 and out[e]["coverage_mad"] <= 0.05 for e in ("gds", "native"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

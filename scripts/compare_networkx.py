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
    # Louvain's own tie-breaking noise: NetworkX against itself with another seed.
    other = [scores(g, params, args.seed + 1) for g in graphs]
    pairs = [(a, b) for a, b in zip(nxres, other) if a]
    noise = {"overlap_mad": sum(abs(a["overlap"] - b["overlap"]) for a, b in pairs) / max(len(pairs), 1),
             "coverage_mad": sum(abs(a["coverage"] - b["coverage"]) for a, b in pairs) / max(len(pairs), 1)}

    n = len(graphs)
    out = {"graphs": n, "networkx_version": nx.__version__, "seconds": dict(data["seconds"], networkx=nx_s),
           "networkx_seed_noise": noise}
    for eng in ("gds", "native"):
        res = data[eng]
        mh_mismatch = cost_mismatch = 0
        d_ov = d_cov = 0.0
        sums = {"ov": 0.0, "cov": 0.0, "xov": 0.0, "xcov": 0.0}
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
            sums["ov"] += r["community_overlap"]; sums["xov"] += x["overlap"]
            sums["cov"] += r["community_coverage"]; sums["xcov"] += x["coverage"]
            d_ov += abs(r["community_overlap"] - x["overlap"])
            d_cov += abs(r["community_coverage"] - x["coverage"])
        out[eng] = {
            "multihop_mismatches": mh_mismatch,
            "cost_mismatches": cost_mismatch,
            "overlap_mad": d_ov / max(scored, 1),
            "coverage_mad": d_cov / max(scored, 1),
            "overlap_mean": sums["ov"] / max(scored, 1),
            "coverage_mean": sums["cov"] / max(scored, 1),
            "overlap_mean_diff": abs(sums["ov"] - sums["xov"]) / max(scored, 1),
            "coverage_mean_diff": abs(sums["cov"] - sums["xcov"]) / max(scored, 1),
        }
        out["networkx"] = {"overlap_mean": sums["xov"] / max(scored, 1), "coverage_mean": sums["xcov"] / max(scored, 1)}
    s = out["seconds"]
    out["graphs_per_second"] = {k: n / s[k] for k in ("gds", "native", "networkx") if s.get(k)}
    out["ratio_vs_networkx"] = {k: s["networkx"] / s[k] for k in ("gds", "native") if s.get(k)}
    print(f"{n} pair graphs, NetworkX {nx.__version__}")
    print(f"{'engine':8} {'graphs/s':>9} {'x NetworkX':>10} {'multihop≠':>9} {'cost≠':>6} {'mean ovl':>9} {'mean cov':>9} {'Δmean ovl':>9} {'Δmean cov':>9} {'MAD ovl':>8} {'MAD cov':>8}")
    for eng in ("gds", "native"):
        e = out[eng]
        print(f"{eng:8} {out['graphs_per_second'][eng]:9.1f} {out['ratio_vs_networkx'][eng]:10.2f} "
              f"{e['multihop_mismatches']:9d} {e['cost_mismatches']:6d} {e['overlap_mean']:9.4f} {e['coverage_mean']:9.4f} "
              f"{e['overlap_mean_diff']:9.4f} {e['coverage_mean_diff']:9.4f} {e['overlap_mad']:8.4f} {e['coverage_mad']:8.4f}")
    x = out["networkx"]
    print(f"{'networkx':8} {out['graphs_per_second']['networkx']:9.1f} {1.0:10.2f} {'':9} {'':6} {x['overlap_mean']:9.4f} {x['coverage_mean']:9.4f} "
          f"{'':9} {'':9} {noise['overlap_mad']:8.4f} {noise['coverage_mad']:8.4f}  (MAD: seed {args.seed} vs {args.seed + 1})")
    print(f"Neo4j write: {data['write_rows']} rows in {s['write']:.2f}s = {data['write_rows']/s['write']:.0f} rows/s")
    if args.summary:
        json.dump(out, open(args.summary, "w"), indent=2)
    # SPEC §4: multihop exact; community dataset means within 0.05.
    ok = all(out[e]["multihop_mismatches"] == 0 and out[e]["cost_mismatches"] == 0 and out[e]["overlap_mean_diff"] <= 0.05
             and out[e]["coverage_mean_diff"] <= 0.05 for e in ("gds", "native"))
    print("agreement:", "OK" if ok else "FAILED", "(multihop and costs exact; community dataset means within 0.05)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Value per cost: what each configuration buys on the training mix and what
it costs the model per sample, cold (issue 50).

Usage: scripts/value-per-cost.py MIX_JSON COST_DIR OUT_MD OUT_SVG

MIX_JSON is `kgeval factcheck --json` over the mix runs (make factcheck:
docs/results/factcheck-mix.json): its rows "without the model", "model on
every claim" and "cascade: model inside the band" read with the median mark
rule give each claim-check mode's macro AUROC, per-dataset AUROC and
balanced accuracy (nested leave-one-dataset-out), and the prompt tokens per
sample its claims cost on the mix (their three-way question, asked or read
from the snapshot: what a cold run pays).

COST_DIR holds `kgeval runs show NAME --json` of cold runs (--fresh) on
the first 6 WikiEval records, one per file cost-<extraction>-<verify>.json
(scripts/cost-cold.sh writes them). A configuration's cost per sample is
its ledger's prompt + 8 x completion tokens (cached answers counted at what
they cost) over the samples; a configuration without its own file is
composed from the ledger's stages of the runs that measured them (the
extraction of <extraction>-*, the claims of rules-<verify>), and says so.

Writes a Markdown table (OUT_MD) and an SVG plot of macro AUROC against
cold tokens per sample with the frontier (OUT_SVG). Standard library only.
"""
import glob
import json
import os
import sys

MODES = {"off": "without the model", "prob": "model on every claim", "cascade": "cascade: model inside the band"}
RULE = "median"


def shipped_default(path="configs/kgeval.yaml"):
    """The (extraction, claim check) configs/kgeval.yaml ships: its
    extraction.method and scoring.verify, read by line (standard library)."""
    section, found = None, {}
    for line in open(path):
        if line and not line.startswith((" ", "#", "\n")):
            section = line.split(":")[0].strip()
        stripped = line.strip()
        for sec, key in (("extraction", "method"), ("scoring", "verify")):
            if section == sec and stripped.startswith(key + ":"):
                found[sec] = stripped.split(":", 1)[1].split("#")[0].strip()
    return found.get("extraction", "rules"), found.get("scoring", "off")


def mix_rows(path):
    rep = json.load(open(path))
    names = [d["name"] for d in rep["datasets"]]
    out = {}
    for r in rep["rows"]:
        if r.get("mark_rule") != RULE:
            continue
        for mode, name in MODES.items():
            if r["name"] == name:
                out[mode] = r
    return names, out


def stage_cost(ledger, stage):
    w = 0
    for e in (ledger or {}).get(stage, {}).values():
        w += e.get("prompt_tokens", 0) + e.get("cached_prompt_tokens", 0) + 8 * e.get("completion_tokens", 0)
    return w


def costs(cost_dir):
    runs = {}
    for f in sorted(glob.glob(os.path.join(cost_dir, "cost-*.json"))):
        if f.endswith("cost-external.json"):
            continue
        key = os.path.basename(f)[len("cost-"):-len(".json")]
        d = json.load(open(f))
        rec = d.get("run", d)
        runs[key] = {"samples": max(rec.get("samples") or 0, 1), "ledger": rec.get("ledger") or {}}
    return runs


def config_cost(runs, external, extraction, mode):
    """Cold cost per sample of extraction × mode, and how it was had."""
    key = f"{extraction}-{mode}"
    if key in runs:
        r = runs[key]
        return sum(stage_cost(r["ledger"], s) for s in r["ledger"]) / r["samples"], "measured (cost-%s.json)" % key
    if key in external:
        return external[key]["per_sample"], "measured on 7ee988f (cost-external.json)"
    cl = runs.get(f"rules-{mode}")
    ext = next((v for k, v in sorted(external.items()) if k.startswith(extraction + "-") and "extract_per_sample" in v), None)
    if extraction == "llm":
        # The model's extraction requests are both's (both adds the rules' triplets, read without a request).
        ext = ext or next((v for k, v in sorted(external.items()) if k.startswith("both-") and "extract_per_sample" in v), None)
    if ext is None or cl is None:
        return None, "not measured"
    c = stage_cost(cl["ledger"], "claims") / cl["samples"]
    return ext["extract_per_sample"] + c, f"composed: extraction measured on 7ee988f + claims of cost-rules-{mode}.json"


def fmt(v, p=3):
    return "–" if v is None else f"{v:.{p}f}"


def main():
    mix_json, cost_dir, out_md, out_svg = sys.argv[1:5]
    names, rows = mix_rows(mix_json)
    runs = costs(cost_dir)
    ext_path = os.path.join(cost_dir, "cost-external.json")
    external = json.load(open(ext_path)) if os.path.exists(ext_path) else {}
    lines = []
    head = ["extraction", "claim check", "mix macro AUROC", "mix macro BAcc"] + [f"{n} AUROC / BAcc" for n in names] + \
           ["mix prompt tokens / sample (claims)", "WikiEval-6 cold tokens / sample", "cost from"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    points = []
    default = shipped_default()
    for extraction in ["rules", "both", "llm"]:
        for mode in ["off", "cascade", "prob"]:
            # The mix's runs read triplets by rule: another extraction's
            # headline is not measured on it (extracting the mix's texts
            # with the model takes hours on 2 cores).
            r = rows.get(mode) if extraction == "rules" else None
            cost, how = config_cost(runs, external, extraction, mode)
            auc = r["macro"]["auroc"] if r else None
            ba = r["macro"]["balanced_accuracy"] if r else None
            cells = [f"{fmt(c.get('auroc'))} / {fmt(c.get('balanced_accuracy'))}" for c in (r["cells"] if r else [])]
            cells += ["–"] * (len(names) - len(cells))
            mixtok = fmt(r.get("tokens_per_sample"), 0) if r else "–"
            note = how
            if extraction != "rules":
                note += "; not measured on the mix (its snapshot holds no model extraction)"
            label = f"{extraction}/{mode}"
            extraction_cell = extraction
            if (extraction, mode) == default:
                extraction_cell = f"**{extraction}**"
                mode = f"**{mode}** (default)"
            lines.append("| " + " | ".join([extraction_cell, mode, fmt(auc), fmt(ba)] + cells + [mixtok, fmt(cost, 0), note]) + " |")
            if cost is not None and auc is not None:
                points.append((label, cost, auc, ba))
    # The frontier: no other point is cheaper with a higher AUROC.
    front = [p for p in points if not any(q[1] <= p[1] and q[2] >= p[2] - 1e-12 and (q[1] < p[1] or q[2] > p[2] + 1e-12) for q in points if q is not p)]
    open(out_md, "w").write("\n".join(lines) + "\n\nFrontier (no other configuration is as cheap with as high a macro AUROC): " +
                            ", ".join(f"{p[0]} ({p[1]:.0f} tokens, AUROC {p[2]:.3f}, BAcc {p[3]:.3f})" for p in sorted(front, key=lambda p: p[1])) + "\n")
    svg(points, front, out_svg)


def svg(points, front, path):
    """Two panels: macro AUROC and macro balanced accuracy against cold
    tokens per sample, the AUROC frontier drawn on the first."""
    PW, H = 460, 400
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * PW}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{2 * PW}" height="{H}" fill="white"/>',
           '<text x="70" y="18">Value per cost: the headline on the training mix (nested LODO) against the model\'s cold cost</text>']
    xs = [p[1] for p in points] or [1]
    xmax = max(xs) * 1.15 + 1
    for k, (idx, name, fr) in enumerate([(2, "macro AUROC", front), (3, "macro balanced accuracy at the pass mark", [])]):
        ox, L, B, T, R = k * PW, 70, 50, 40, 20
        ys = [p[idx] for p in points] or [0.5]
        ymin, ymax = min(ys) - 0.01, max(ys) + 0.01
        X = lambda v: ox + L + (PW - L - R) * v / xmax
        Y = lambda v: H - B - (H - B - T) * (v - ymin) / (ymax - ymin)
        out.append(f'<line x1="{ox+L}" y1="{H-B}" x2="{ox+PW-R}" y2="{H-B}" stroke="black"/><line x1="{ox+L}" y1="{T}" x2="{ox+L}" y2="{H-B}" stroke="black"/>')
        out.append(f'<text x="{ox+(PW+L)/2}" y="{H-12}" text-anchor="middle">tokens a sample, cold (prompt + 8 × completion)</text>')
        out.append(f'<text x="{ox+16}" y="{H/2}" transform="rotate(-90 {ox+16} {H/2})" text-anchor="middle">{name}</text>')
        for i in range(5):
            v = ymin + (ymax - ymin) * i / 4
            out.append(f'<text x="{ox+L-6}" y="{Y(v)+4:.1f}" text-anchor="end">{v:.3f}</text>')
            t = xmax * i / 4
            out.append(f'<text x="{X(t):.1f}" y="{H-B+16}" text-anchor="middle">{t:.0f}</text>')
        fs = sorted(fr, key=lambda p: p[1])
        if len(fs) > 1:
            out.append('<polyline fill="none" stroke="#c33" stroke-width="1.5" points="' + " ".join(f"{X(p[1]):.1f},{Y(p[idx]):.1f}" for p in fs) + '"/>')
        for p in points:
            on = p in fr
            out.append(f'<circle cx="{X(p[1]):.1f}" cy="{Y(p[idx]):.1f}" r="4" fill="{"#c33" if on else "#357"}"/>')
            out.append(f'<text x="{X(p[1])+6:.1f}" y="{Y(p[idx])-6:.1f}">{p[0]}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

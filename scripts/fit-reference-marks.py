#!/usr/bin/env python3
"""Pass marks for correctness against a reference (issue 50 point 4).

Usage: scripts/fit-reference-marks.py OUT_JSON REPORT_TXT NAME=EXPORT_JSONL=DATASET_JSONL ...

Each set is `kgeval export --run RUN` of a labelled answer-equivalence set
(testdata/rel_*.jsonl: human.answer_correctness 1 when the answer is
correct against the reference) and the dataset file with its labels. For
each candidate score of the answer against the reference (bert_score_f1,
semantic_similarity, factual_correctness.score) it reports AUROC per set
and the balanced accuracy of a mark chosen on the other set (leave one
dataset out), and writes, for each, the mark that maximises the median
(with two sets: the mean) balanced accuracy over the sets, with each set's
balanced accuracy there. Standard library only; deterministic.
"""
import json
import sys

import _auc as auc

CANDIDATES = ["bert_score_f1", "semantic_similarity", "factual_correctness.score"]


def value(row, key):
    if "." in key:
        pair, m = key.split(".", 1)
        return (row.get("scores", {}).get(pair) or {}).get(m)
    return row.get("metrics", {}).get(key)


def load(export, dataset):
    labels = {}
    for line in open(dataset):
        r = json.loads(line)
        labels[r["id"]] = r["human"]["answer_correctness"]
    rows = [json.loads(l) for l in open(export) if l.strip()]
    return labels, rows


def pairs(labels, rows, key):
    out = []
    for r in rows:
        v = value(r, key)
        if isinstance(v, (int, float)) and r["id"] in labels:
            out.append((float(v), labels[r["id"]]))
    return out


def auroc(xy):
    a = auc.auroc([x for x, _ in xy], [y for _, y in xy])
    return None if a != a else a


def bacc(xy, t):
    tp = sum(1 for x, y in xy if y == 1 and x >= t)
    tn = sum(1 for x, y in xy if y == 0 and x < t)
    p = sum(1 for _, y in xy if y == 1)
    n = len(xy) - p
    return 0.5 * (tp / p + tn / n)


def candidates(sets):
    vs = sorted({x for xy in sets for x, _ in xy})
    return [vs[0]] + [(a + b) / 2 for a, b in zip(vs, vs[1:])]


def choose(sets):
    best, bt = -1.0, None
    for t in candidates(sets):
        bs = sorted(bacc(xy, t) for xy in sets)
        n = len(bs)
        v = bs[n // 2] if n % 2 else (bs[n // 2 - 1] + bs[n // 2]) / 2
        if v > best + 1e-12:
            best, bt = v, t
    return bt


def main():
    out_json, report = sys.argv[1], sys.argv[2]
    sets = {}
    for arg in sys.argv[3:]:
        name, export, dataset = arg.split("=")
        sets[name] = load(export, dataset)
    names = sorted(sets)
    lines = ["Pass marks for correctness against a reference: answer-equivalence sets (testdata/rel_*.jsonl), each left out in turn.",
             "AUROC per set; LODO BAcc: balanced accuracy at the mark chosen on the other set; final mark: the best median (two sets: mean) balanced accuracy over the sets.", ""]
    marks = {}
    for key in CANDIDATES:
        xy = {n: pairs(*sets[n], key) for n in names}
        if any(len(v) < 20 for v in xy.values()):
            continue
        aucs = {n: auroc(xy[n]) for n in names}
        lodo = {}
        for n in names:
            others = [xy[m] for m in names if m != n]
            lodo[n] = bacc(xy[n], choose(others))
        t = choose(list(xy.values()))
        at = {n: bacc(xy[n], t) for n in names}
        macro_lodo = sum(lodo.values()) / len(lodo)
        lines.append(f"{key}: " + "; ".join(f"{n} n {len(xy[n])} AUROC {aucs[n]:.3f} LODO BAcc {lodo[n]:.3f}" for n in names) +
                     f"; macro LODO BAcc {macro_lodo:.3f}; final mark {t:.4g} (BAcc there " + ", ".join(f"{n} {at[n]:.3f}" for n in names) + ")")
        marks[key] = {"pass_mark": t, "lodo_balanced_accuracy": {n: round(lodo[n], 4) for n in names}, "macro_lodo_balanced_accuracy": round(macro_lodo, 4),
                      "auroc": {n: round(aucs[n], 4) for n in names}, "balanced_accuracy_at_mark": {n: round(at[n], 4) for n in names},
                      "sets": names}
    open(out_json, "w").write(json.dumps({"label": "human.answer_correctness", "marks": marks}, indent=2, sort_keys=True) + "\n")
    open(report, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

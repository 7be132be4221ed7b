#!/usr/bin/env python3
"""How a claim's P(supported) is best read from its evidence chunks.

Usage: kgeval export claims --run RUN | scripts/chunk-aggregate.py DATASET

Reads a claims export (JSONL on stdin) of a run whose evidence took several
requests per claim (chunk_p), and the dataset's labels (human.faithfulness,
1 supported), and prints, for each way of reading the chunks (max, mean,
top2: scoring.evidence_aggregate), the AUROC of the samples' scores (a
sample's score the mean over its claims) with a 95% bootstrap interval over
samples (2000 resamples, seed 1), and the requests per claim.
"""
import json
import random
import sys


def auroc(scores, labels):
    pos = [s for s, y in zip(scores, labels) if y == 1]
    neg = [s for s, y in zip(scores, labels) if y == 0]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def read(how, ps):
    s = sorted(ps, reverse=True)
    if how == "max":
        return s[0]
    if how == "top2":
        s = s[:2]
    return sum(s) / len(s)


labels = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    h = (r.get("human") or {}).get("faithfulness")
    if h is not None:
        labels[r["id"]] = int(h)
claims = [json.loads(l) for l in sys.stdin if l.strip()]
claims = [c for c in claims if c["pair"] == "faithfulness" and c.get("p_supported") is not None and c["id"] in labels]
chunks = [len(c.get("chunk_p") or [c["p_supported"]]) for c in claims]
ids = sorted({c["id"] for c in claims})
print(f"{len(claims)} claims of {len(ids)} labelled samples; requests per claim: mean {sum(chunks) / len(chunks):.2f}, "
      f"{sum(1 for n in chunks if n > 1)} claims with more than one chunk")
rng = random.Random(1)
boot = [[rng.choice(ids) for _ in ids] for _ in range(2000)]
print(f"{'read':6} {'AUROC':>6}  95% interval")
for how in ["max", "mean", "top2"]:
    per = {}
    for c in claims:
        per.setdefault(c["id"], []).append(read(how, c.get("chunk_p") or [c["p_supported"]]))
    score = {i: sum(v) / len(v) for i, v in per.items()}
    a = auroc([score[i] for i in ids], [labels[i] for i in ids])
    bs = sorted(x for x in (auroc([score[i] for i in b], [labels[i] for i in b]) for b in boot) if x == x)
    print(f"{how:6} {a:6.3f}  [{bs[int(0.025 * len(bs))]:.3f}, {bs[int(0.975 * len(bs)) - 1]:.3f}]")

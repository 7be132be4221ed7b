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
import sys

from _auc import auroc, interval, read_labels, resamples, sample_means


def read(how, ps):
    s = sorted(ps, reverse=True)
    if how == "max":
        return s[0]
    if how == "top2":
        s = s[:2]
    return sum(s) / len(s)


labels = read_labels(sys.argv[1])
claims = [json.loads(l) for l in sys.stdin if l.strip()]
claims = [c for c in claims if c["pair"] == "faithfulness" and c.get("p_supported") is not None and c["id"] in labels]
chunks = [len(c.get("chunk_p") or [c["p_supported"]]) for c in claims]
ids = sorted({c["id"] for c in claims})
print(f"{len(claims)} claims of {len(ids)} labelled samples; requests per claim: mean {sum(chunks) / len(chunks):.2f}, "
      f"{sum(1 for n in chunks if n > 1)} claims with more than one chunk")
boot = resamples(ids)
print(f"{'read':6} {'AUROC':>6}  95% interval")
for how in ["max", "mean", "top2"]:
    score = sample_means((c["id"], read(how, c.get("chunk_p") or [c["p_supported"]])) for c in claims)
    a = auroc([score[i] for i in ids], [labels[i] for i in ids])
    lo, hi = interval(auroc([score[i] for i in b], [labels[i] for i in b]) for b in boot)
    print(f"{how:6} {a:6.3f}  [{lo:.3f}, {hi:.3f}]")

"""AUROC helpers shared by scripts/chunk-aggregate.py and atom-aggregate.py.

A sample's score is the mean over its claims; intervals are 95% bootstraps
over samples (2000 resamples, seed 1), read at the 2.5th and 97.5th
percentiles.
"""
import json
import random


def auroc(scores, labels):
    """The probability that a random positive outscores a random negative
    (ties count half); NaN when one class is missing."""
    pos = [s for s, y in zip(scores, labels) if y == 1]
    neg = [s for s, y in zip(scores, labels) if y == 0]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def read_labels(path):
    """The dataset's labels: sample id -> human.faithfulness (1 supported)."""
    labels = {}
    for line in open(path):
        r = json.loads(line)
        h = (r.get("human") or {}).get("faithfulness")
        if h is not None:
            labels[r["id"]] = int(h)
    return labels


def resamples(ids, n=2000, seed=1):
    """n bootstrap resamples of ids, drawn with a fixed seed."""
    rng = random.Random(seed)
    return [[rng.choice(ids) for _ in ids] for _ in range(n)]


def sample_means(pairs):
    """Mean score per sample id from (sample id, claim score) pairs."""
    per = {}
    for i, p in pairs:
        per.setdefault(i, []).append(p)
    return {i: sum(v) / len(v) for i, v in per.items()}


def interval(values):
    """The 95% interval of bootstrap values (NaNs dropped)."""
    v = sorted(x for x in values if x == x)
    return v[int(0.025 * len(v))], v[int(0.975 * len(v)) - 1]

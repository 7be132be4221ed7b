#!/usr/bin/env python3
"""Does splitting a claim into atomic facts pay? (scoring.atomic_words)

Usage: kgeval export claims --run ATOMIC | scripts/atom-aggregate.py DATASET SENTENCES

Reads a claims export (JSONL on stdin) of a run with scoring.atomic_words
set (each split claim carries atoms and atom_p), the export of the same
samples asked sentence by sentence (SENTENCES, a file), and the dataset's
labels (human.faithfulness, 1 supported). Prints, for each reading (the
sentence asked as it is; its facts' minimum, the atomic run's P; their
mean), the AUROC of the samples' scores (a sample's score the mean over
its claims) with a 95% bootstrap interval over samples (2000 resamples,
seed 1), the paired difference of each against the sentence, and the
requests per claim (a split claim: one to split, one per fact).
"""
import json
import sys

from _auc import auroc, interval, read_labels, resamples, sample_means


def faith(lines):
    return {(c["id"], c["claim"]): c for c in (json.loads(l) for l in lines if l.strip())
            if c["pair"] == "faithfulness" and c.get("p_supported") is not None}


labels = read_labels(sys.argv[1])
atomic = faith(sys.stdin)
sentence = faith(open(sys.argv[2]))
keys = sorted(k for k in atomic if k in sentence and k[0] in labels)
split = [k for k in keys if atomic[k].get("atom_p")]
facts = sum(len(atomic[k]["atom_p"]) for k in split)
# Every claim of at least atomic_words words took a split request; the
# export does not say which short claims were, so count the split ones.
requests = (len(keys) - len(split) + len(split) + facts) / len(keys)
print(f"{len(keys)} claims of {len({k[0] for k in keys})} labelled samples; {len(split)} split into {facts} facts "
      f"({facts / max(len(split), 1):.2f} a split claim); requests per claim: sentence 1.00, atomic at least {requests:.2f}")
reads = {
    "sentence": {k: sentence[k]["p_supported"] for k in keys},
    "facts min": {k: atomic[k]["p_supported"] for k in keys},
    "facts mean": {k: (sum(atomic[k]["atom_p"]) / len(atomic[k]["atom_p"]) if atomic[k].get("atom_p") else atomic[k]["p_supported"]) for k in keys},
}
ids = sorted({k[0] for k in keys})
boot = resamples(ids)
scores = {name: sample_means((k[0], p) for k, p in r.items()) for name, r in reads.items()}
base = scores["sentence"]
print(f"{'read':11} {'AUROC':>6}  95% interval     minus sentence, 95% interval")
for name, s in scores.items():
    a = auroc([s[i] for i in ids], [labels[i] for i in ids])
    bs, ds = [], []
    for b in boot:
        y = [labels[i] for i in b]
        x = auroc([s[i] for i in b], y)
        if x == x:
            bs.append(x)
            ds.append(x - auroc([base[i] for i in b], y))
    lo, hi = interval(bs)
    dlo, dhi = interval(ds)
    diff = "" if name == "sentence" else f"{a - auroc([base[i] for i in ids], [labels[i] for i in ids]):+.3f} [{dlo:+.3f}, {dhi:+.3f}]"
    print(f"{name:11} {a:6.3f}  [{lo:.3f}, {hi:.3f}]   {diff}")

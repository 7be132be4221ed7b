#!/usr/bin/env python3
"""Reference values for stats/logistic_test.go, from scikit-learn 1.9.1.

Reads stats/testdata/logistic_data.csv (60 rows: group, y, features a, b, c;
written once by `--make-data`, seeded) and writes
stats/testdata/logistic_expected.json:

  * "fits": per lambda, StandardScaler's mean_ and scale_ and the
    coefficients, intercept and predict_proba of
    LogisticRegression(C=1/lambda, solver="newton-cholesky", tol=1e-12)
    on the standardised features (lambda 0: C=inf, no penalty);
  * "cv": 5-fold out-of-fold predictions with lambda 1, the fold of a row
    being int(sha256(group).hexdigest(), 16) % 5, scaler and model fitted on
    the other folds' rows;
  * "auroc": DeLong's 95% interval of the AUROC of the out-of-fold
    predictions and of feature a, from placement values computed pair by
    pair (not from ranks, as the Go code does), with
    sklearn.metrics.roc_auc_score for the AUROC and scipy.stats.norm.ppf;
  * "balanced_accuracy": sklearn.metrics.balanced_accuracy_score at fixed
    thresholds;
  * "cv_threshold": the cross-validated threshold choice by brute force:
    every candidate (the smallest score, midpoints of consecutive distinct
    scores) scored with balanced_accuracy_score, the smallest of the best.

Usage (from the repository root):

  py=$(scripts/pyenv.sh sklearn stats/testdata/requirements.txt)
  "$py" stats/testdata/logistic_reference.py            # expected values
  "$py" stats/testdata/logistic_reference.py --make-data  # the data, then the values
"""
import csv
import hashlib
import json
import os
import sys

import numpy as np
import scipy.stats
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, roc_auc_score
from sklearn.preprocessing import StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "logistic_data.csv")
OUT = os.path.join(HERE, "logistic_expected.json")
FOLDS = 5
LAMBDAS = [1.0, 0.1, 0.0]


def make_data():
    rng = np.random.default_rng(27)
    n = 60
    a = rng.normal(size=n)
    b = rng.uniform(size=n)
    c = (rng.uniform(size=n) < 0.15).astype(float)
    z = 0.3 + 1.2 * a + 2.0 * (b - 0.5) - 1.5 * c
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-z))).astype(int)
    with open(DATA, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["group", "y", "a", "b", "c"])
        for i in range(n):
            w.writerow([f"rec-{i // 4:02d}", y[i], f"{a[i]:.4f}", f"{b[i]:.4f}", f"{c[i]:.0f}"])


def load():
    with open(DATA) as f:
        rows = list(csv.DictReader(f))
    groups = [r["group"] for r in rows]
    y = np.array([int(r["y"]) for r in rows])
    x = np.array([[float(r["a"]), float(r["b"]), float(r["c"])] for r in rows])
    return groups, y, x


def fit(x, y, lam):
    sc = StandardScaler().fit(x)
    c = np.inf if lam == 0 else 1 / lam
    m = LogisticRegression(C=c, solver="newton-cholesky", tol=1e-12, max_iter=1000).fit(sc.transform(x), y)
    return sc, m


def fold_of(g):
    return int(hashlib.sha256(g.encode()).hexdigest(), 16) % FOLDS


def delong(scores, y, level=0.95):
    pos, neg = scores[y == 1], scores[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    auc = roc_auc_score(y, scores)
    se = np.sqrt(v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg))
    z = scipy.stats.norm.ppf((1 + level) / 2)
    return {"auc": float(auc), "lo": float(max(0, auc - z * se)), "hi": float(min(1, auc + z * se))}


def best_threshold(s, y):
    v = np.unique(s)
    cands = [v[0]] + [(v[k] + v[k + 1]) / 2 for k in range(len(v) - 1)]
    best, bt = -1, None
    for t in cands:
        ba = balanced_accuracy_score(y, (s >= t).astype(int))
        if ba > best + 1e-12:
            best, bt = ba, t
    return float(bt), float(best)


def main():
    if "--make-data" in sys.argv[1:]:
        make_data()
    groups, y, x = load()
    out = {"sklearn": sklearn.__version__, "folds": FOLDS, "fits": [], "cv": {}, "auroc": {}, "balanced_accuracy": [], "cv_threshold": {}}
    for lam in LAMBDAS:
        sc, m = fit(x, y, lam)
        out["fits"].append({
            "lambda": lam,
            "mean": [float(v) for v in sc.mean_],
            "scale": [float(v) for v in sc.scale_],
            "coef": [float(v) for v in m.coef_[0]],
            "intercept": float(m.intercept_[0]),
            "predict": [float(v) for v in m.predict_proba(sc.transform(x))[:, 1]],
        })
    fold = np.array([fold_of(g) for g in groups])
    oof = np.zeros(len(y))
    for k in range(FOLDS):
        held = fold == k
        if not held.any():
            continue
        sc, m = fit(x[~held], y[~held], 1.0)
        oof[held] = m.predict_proba(sc.transform(x[held]))[:, 1]
    out["cv"] = {"lambda": 1.0, "fold": [int(v) for v in fold], "oof": [float(v) for v in oof]}
    out["auroc"] = {"oof": delong(oof, y), "a": delong(x[:, 0], y), "c": delong(x[:, 2], y)}
    for t in [0.5, 0.3, float(np.median(oof))]:
        out["balanced_accuracy"].append({"scores": "oof", "threshold": t,
                                         "balanced_accuracy": float(balanced_accuracy_score(y, (oof >= t).astype(int)))})
    pred = np.zeros(len(y), dtype=int)
    fts = []
    for k in range(FOLDS):
        held = fold == k
        if not held.any():
            continue
        t, _ = best_threshold(oof[~held], y[~held])
        fts.append({"fold": k, "rows": int(held.sum()), "threshold": t})
        pred[held] = (oof[held] >= t).astype(int)
    t_all, ba_all = best_threshold(oof, y)
    out["cv_threshold"] = {"scores": "oof", "folds": fts, "balanced_accuracy": float(balanced_accuracy_score(y, pred)),
                           "threshold": t_all, "in_sample_balanced_accuracy": ba_all}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

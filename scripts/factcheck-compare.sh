#!/usr/bin/env bash
# scripts/factcheck-compare.sh TOKENS A.csv B.csv ...: the rows of several
# `kgeval factcheck --csv` reports side by side (make factcheck-evidence:
# the same claims with the evidence window chosen three ways). Standard
# library Python only.
set -euo pipefail
tokens=$1; shift
python3 - "$tokens" "$@" <<'PY'
import csv, os, sys
tokens, files = sys.argv[1], sys.argv[2:]
rows = ["faithfulness.p_supported", "P(supported) alone (cv)", "combination (cv)",
        "faithfulness.score", "graph alone (cv)", "k_precision"]
reports = []
for f in files:
    with open(f, newline="") as fh:
        reports.append({r["score"]: r for r in csv.DictReader(fh)})
names = [os.path.basename(f).rsplit(".", 1)[0].replace("factcheck-expertqa-", "") for f in files]
print(f"ExpertQA balanced claims; evidence window of each claim at a {tokens}-token budget, chosen three ways")
print("(whole: every passage, in chunks within the model's context). AUROC [95% CI] / balanced accuracy (cv).")
print("faithfulness.score applies the committed calibration (fitted on whole-context answers) as it is.")
print()
w = 26
print("score".ljust(28) + "".join(n.ljust(w + 8) for n in names))
for name in rows:
    line = name.ljust(28)
    for rep in reports:
        r = rep.get(name)
        if r is None or r["auroc"] == "":
            line += "n/a".ljust(w + 8)
            continue
        a, lo, hi, b = (float(r[k]) for k in ("auroc", "auroc_lo", "auroc_hi", "balanced_accuracy"))
        line += f"{a:.3f} [{lo:.3f}, {hi:.3f}] / {b:.3f}".ljust(w + 8)
    print(line.rstrip())
print()
print("n (samples with the score): " + ", ".join(f"{n} {rep.get(rows[0], {}).get('n', '?')}" for n, rep in zip(names, reports)))
PY

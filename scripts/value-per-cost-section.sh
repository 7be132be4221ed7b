#!/usr/bin/env bash
# Prints bench/REPORT.md's "Value per cost" section from bench/VALUE.md
# (scripts/value-per-cost.py). make value-per-cost writes it into the
# report between its markers; make bench includes it.
cd "$(dirname "$0")/.."
cat <<'TXT'
## Value per cost

Each configuration's headline on the training mix (`make factcheck`:
nested leave-one-dataset-out, pass marks by the median dataset's balanced
accuracy on held-out predictions; `docs/results/factcheck-mix.txt`) against
what the model costs per sample cold (`scripts/cost-cold.sh`: `kgeval
evaluate --fresh` on the first 6 WikiEval records, the run's ledger, prompt
+ 8 × completion tokens; on 2 CPU cores a 1.5B model writes about eight
times slower than it reads). "mix prompt tokens / sample" is the claims'
three-way questions on the mix, asked or read from the snapshot (what a
cold run pays). The evidence window is the default (`scoring.evidence:
graph`, 256 tokens; five sets). The whole context (1,500 tokens) on the
four-set mix: off 0.778 / 0.655, cascade 0.776 / 0.682 (51 prompt tokens a
sample), prob 0.778 / 0.696 (368; 1,010 cold on WikiEval-6);
`docs/results/factcheck-mix-whole1500.txt` and SPEC-NOTES §4d''. The model's extraction was not measured on
the mix (its snapshot holds none; extracting its texts takes hours here);
on WikiEval-50 (`make validity`) rules, both and llm rank the grounded
answer first at multihop 0.970 / 0.958 / 0.756 and support 0.970 / 0.979 /
0.678.

TXT
cat bench/VALUE.md
echo
echo '![macro AUROC against cold tokens per sample](value-per-cost.svg)'

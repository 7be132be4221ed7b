"""Result: one run's scores, claims and explanations, read from the binary
or from a kgeval server alike."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional


def _jsonl(text: str) -> List[dict]:
    return [json.loads(l) for l in text.splitlines() if l.strip()]


class Result:
    """The outcome of one evaluation, a stored run.

    ``run`` is the run's name (the dashboard's /runs/RUN, ``kgeval compare``),
    ``summary`` what ``kgeval evaluate --json`` printed (samples, rejected
    records with their reasons, model calls, the headline per pair), when
    this process evaluated it.
    """

    def __init__(self, run: str, backend, summary: Optional[dict] = None):
        self.run = run
        self.summary = summary or {}
        self._backend = backend
        self._rows: Optional[List[dict]] = None
        self._claims: Optional[List[dict]] = None

    def __repr__(self) -> str:
        return "Result(run=%r, samples=%s)" % (self.run, self.summary.get("samples", "?"))

    @property
    def rejected(self) -> List[dict]:
        """The dataset's records that were not evaluated, each with its reason."""
        return list(self.summary.get("rejected") or [])

    def rows(self) -> List[dict]:
        """One dict per sample, as ``kgeval export --headline`` writes it: id,
        system, scores per pair (every KG metric), metrics (the other
        families), nulls (why a value is null), headline per pair (metric,
        value, pass_mark, pass, reason) and pass."""
        if self._rows is None:
            self._rows = self._backend.rows(self.run)
        return self._rows

    def claim_rows(self) -> List[dict]:
        """One dict per claim, as ``kgeval export claims`` writes it."""
        if self._claims is None:
            self._claims = self._backend.claims(self.run)
        return self._claims

    def to_pandas(self, all: bool = False):
        """A DataFrame, one row per sample: id, system, each pair's headline
        score (column named after the pair) and ``<pair>.pass``, then ``pass``
        (false when a headline fails, true when one passes and none fails,
        None when no headline has a value) and ``reason`` (why a headline is
        null). With all=True also every KG metric as ``<pair>.<metric>`` and
        every other metric by name."""
        import pandas as pd
        return pd.DataFrame([flat_row(r, all) for r in self.rows()])

    def claims(self):
        """A DataFrame, one row per claim: id, system, pair, claim (its
        position), text, verdict (supported, unsupported, contradicted),
        score (calibrated P(supported)), p_supported (the model's, None when
        not asked), evidence (best evidence sentence), evidence_passage."""
        import pandas as pd
        cols = ["id", "system", "pair", "claim", "text", "verdict", "score", "p_supported", "evidence", "evidence_passage"]
        rows = self.claim_rows()
        extra = sorted({k for r in rows for k in r} - set(cols))
        return pd.DataFrame(rows, columns=cols + extra)

    def explain(self, sample_id: str) -> str:
        """What ``kgeval explain --run RUN --sample ID`` prints."""
        return self._backend.explain(self.run, str(sample_id))


def flat_row(r: dict, all: bool = False) -> Dict[str, Any]:
    """One export row as flat columns (Result.to_pandas)."""
    out: Dict[str, Any] = {"id": r.get("id"), "system": r.get("system")}
    reasons = []
    for pair, h in (r.get("headline") or {}).items():
        out[pair] = h.get("value")
        out[pair + ".pass"] = h.get("pass")
        if h.get("value") is None and h.get("reason"):
            reasons.append("%s: %s" % (pair, h["reason"]))
    out["pass"] = r.get("pass")
    out["reason"] = "; ".join(reasons) or None
    if all:
        for pair, scores in (r.get("scores") or {}).items():
            for m, v in scores.items():
                if m != "reason":
                    out["%s.%s" % (pair, m)] = v
        for m, v in (r.get("metrics") or {}).items():
            out[m] = v
    return out


class LocalBackend:
    """Reads runs through the bundled binary, with the configuration args
    (--config FILE) and environment of the evaluation."""

    def __init__(self, args: List[str], env: Optional[dict] = None):
        self.args, self.env = list(args), env

    def _run(self, *args: str) -> str:
        from . import _binary
        return _binary.run([*args, *self.args], env=self.env)

    def rows(self, run: str) -> List[dict]:
        return _jsonl(self._run("export", "--run", run, "--headline"))

    def claims(self, run: str) -> List[dict]:
        return _jsonl(self._run("export", "claims", "--run", run))

    def explain(self, run: str, sample: str) -> str:
        return self._run("explain", "--run", run, "--sample", sample)

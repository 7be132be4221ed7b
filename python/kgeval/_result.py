"""Result: one run's scores, claims and explanations, read from the binary
or from a kgeval server alike, shaped as RAGAS's results are: one row per
input row, the input columns first."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Protocol, Sequence

from ._data import Row

if TYPE_CHECKING:
    import pandas


def _jsonl(text: str) -> List[Dict[str, Any]]:
    return [json.loads(l) for l in text.splitlines() if l.strip()]


class Backend(Protocol):
    def rows(self, run: str) -> List[Dict[str, Any]]: ...

    def claims(self, run: str) -> List[Dict[str, Any]]: ...

    def explain(self, run: str, sample: str) -> str: ...

    def record(self, run: str) -> Dict[str, Any]: ...


def decisive(h: Dict[str, Any]) -> bool:
    """Whether a headline's pass is a verdict: its mark was fitted
    (calibrated) or set by the caller (configured). A default mark (slot
    coverage's 0.5, a pair without a fitted mark) gives a score, not a fail."""
    return bool(h.get("calibrated") or h.get("configured")) and h.get("pass_mark") is not None


def row_pass(headline: Dict[str, Dict[str, Any]], pairs: Optional[Sequence[str]]) -> Optional[bool]:
    """A sample's pass over the asked pairs (all when None), read from the
    decisive headlines only: False when one fails, True when one passes and
    none fails, None when none decides."""
    verdicts = [h.get("pass") for p, h in headline.items()
                if (pairs is None or p in pairs) and decisive(h) and h.get("pass") is not None]
    if not verdicts:
        return None
    return all(verdicts)


class Result:
    """The outcome of one evaluation, a stored run.

    ``run`` is the run's name (the dashboard's /runs/RUN, ``kgeval compare``),
    ``summary`` what ``kgeval evaluate --json`` printed (samples, rejected
    records with their reasons, model calls, the headline per pair) when this
    process evaluated it, else the stored run's record with the headline
    computed from its rows.
    """

    def __init__(self, run: str, backend: Backend, summary: Optional[Dict[str, Any]] = None, *,
                 inputs: Optional[List[Row]] = None, pairs: Optional[Sequence[str]] = None) -> None:
        self.run = run
        self._summary = summary
        self._backend = backend
        self._inputs = inputs
        self.pairs: Optional[List[str]] = list(pairs) if pairs else None
        self._rows: Optional[List[Dict[str, Any]]] = None
        self._claims: Optional[List[Dict[str, Any]]] = None

    @property
    def summary(self) -> Dict[str, Any]:
        """What ``kgeval evaluate --json`` printed, or for a stored run its
        record (``kgeval runs show --json``) with ``headline``: per pair the
        mean, n and passing of its headline metric."""
        if self._summary is None:
            rec = self._backend.record(self.run)
            rec["headline"] = self.headline()
            self._summary = rec
        return self._summary

    def headline(self) -> List[Dict[str, Any]]:
        """Per asked pair: its headline metric, mean and n over the samples
        with a value, whether its mark is a verdict (decisive) and how many
        pass it then, and how many rows pass overall."""
        out = []
        for pair in self._pair_names():
            vals, passing, dec, metric = [], 0, False, None
            for r in self.rows():
                h = (r.get("headline") or {}).get(pair)
                if not h:
                    continue
                metric = h.get("metric")
                if h.get("value") is not None:
                    vals.append(h["value"])
                if decisive(h):
                    dec = True
                    passing += 1 if h.get("pass") else 0
            out.append({"pair": pair, "metric": metric, "mean": sum(vals) / len(vals) if vals else None, "n": len(vals),
                        "decisive": dec, "passing": passing if dec else None})
        return out

    def _pair_names(self) -> List[str]:
        names: List[str] = []
        for r in self.rows():
            for p in r.get("headline") or {}:
                if p not in names and (self.pairs is None or p in self.pairs):
                    names.append(p)
        return names

    def __repr__(self) -> str:
        try:
            rows = self.flat_rows()
            parts = []
            for h in self.headline():
                s = "%s=%s" % (h["pair"], "null" if h["mean"] is None else "%.3f" % h["mean"])
                if h["decisive"]:
                    s += " (pass %d/%d)" % (h["passing"], h["n"])
                parts.append(s)
            passed = [r["pass"] for r in rows if r["pass"] is not None]
            n_pass = "pass %d/%d" % (sum(1 for p in passed if p), len(passed)) if passed else "pass n/a"
            bad = sum(1 for r in rows if r.get("reason") and str(r["reason"]).startswith(("not evaluated", "rejected")))
            return "Result(run=%r, rows=%d%s, %s, %s)" % (self.run, len(rows), ", not evaluated=%d" % bad if bad else "",
                                                         ", ".join(parts), n_pass)
        except Exception as e:  # a repr must not raise (a stopped Neo4j)
            return "Result(run=%r, %s)" % (self.run, e.__class__.__name__)

    @property
    def rejected(self) -> List[Dict[str, Any]]:
        """The rows that were not evaluated, each with its reason (and the
        records the binary refused, as ``evaluate --json`` lists them)."""
        out = list((self._summary or {}).get("rejected") or [])
        if self._inputs is not None:
            out = [{"row": i, "id": r.id, "reason": r.reason} for i, r in enumerate(self._inputs) if r.reason and r.record is None]
        return out

    def rows(self) -> List[Dict[str, Any]]:
        """One dict per sample, as ``kgeval export --headline`` writes it: id,
        record, system, scores per pair (every KG metric), metrics (the other
        families), nulls (why a value is null), headline per pair (metric,
        value, pass_mark, pass, calibrated, reason) and pass (the binary's,
        over every pair; Result's own reads the asked pairs' decisive marks)."""
        if self._rows is None:
            self._rows = self._backend.rows(self.run)
        return self._rows

    def claim_rows(self) -> List[Dict[str, Any]]:
        """One dict per claim, as ``kgeval export claims`` writes it."""
        if self._claims is None:
            self._claims = self._backend.claims(self.run)
        return self._claims

    def flat_rows(self, all: bool = False) -> List[Dict[str, Any]]:
        """The rows of to_pandas as dicts (no pandas needed)."""
        rows = self.rows()
        if self._inputs is None:
            return [flat_row(r, self.pairs, all) for r in rows]
        by_record = {r.get("record"): r for r in rows}
        by_id = {r.get("id"): r for r in rows}
        pair_names = self._pair_names()
        out = []
        for row in self._inputs:
            d: Dict[str, Any] = dict(row.inputs)
            r = None
            if row.record is not None:
                r = by_record.get(row.record) or by_id.get(row.id)
            if r is None:
                d.update({"id": row.id, "system": row.system})
                for p in pair_names:
                    d[p] = None
                    d[p + ".pass"] = None
                d["pass"] = None
                d["reason"] = row.reason or "not evaluated: no score came back for this row"
            else:
                d.update(flat_row(r, self.pairs, all))
            out.append(d)
        return out

    def to_pandas(self, all: bool = False) -> "pandas.DataFrame":
        """A DataFrame, one row per input row in input order (duplicates
        kept): the input columns (user_input, retrieved_contexts, response,
        reference, those given), id, system, each asked pair's headline score
        (column named after the pair) and ``<pair>.pass`` (None when its mark
        is not calibrated: a score, not a verdict), then ``pass`` (False when
        a calibrated mark fails, True when one passes and none fails, None
        otherwise and for a row not evaluated) and ``reason`` (why a row was
        not evaluated, or why a headline is null). With all=True also every
        KG metric as ``<pair>.<metric>`` and every other metric by name.

        A stored run (kgeval.result) has no input columns: one row per sample."""
        import pandas as pd
        rows = self.flat_rows(all)
        cols: List[str] = []
        for r in rows:
            for k in r:
                if k not in cols:
                    cols.append(k)
        return pd.DataFrame(rows, columns=cols)

    def claims(self) -> "pandas.DataFrame":
        """A DataFrame, one row per claim: id, system, pair, claim (its
        position), text, verdict (supported, unsupported, contradicted),
        score (calibrated P(supported)), p_supported (the model's, None when
        not asked), evidence (best evidence sentence), evidence_passage."""
        import pandas as pd
        cols = ["id", "system", "pair", "claim", "text", "verdict", "score", "p_supported", "evidence", "evidence_passage"]
        rows = [c for c in self.claim_rows() if self.pairs is None or c.get("pair") in self.pairs]
        extra = sorted({k for r in rows for k in r} - set(cols))
        return pd.DataFrame(rows, columns=cols + extra)

    def explain(self, sample_id: str) -> str:
        """What ``kgeval explain --run RUN --sample ID`` prints."""
        return self._backend.explain(self.run, str(sample_id))

    def graph(self, sample_id: str, pair: str = "faithfulness", render: bool = True) -> Any:
        """The sample's pair graph drawn inline in Jupyter with neo4j-viz
        (``pip install kgeval[viz]``): entities, SIMILAR edges, each input
        entity's verdict and each claim's (the graph ``kgeval export graph``
        writes and the dashboard draws). render=False returns the
        neo4j_viz.VisualizationGraph instead of its HTML."""
        from ._viz import draw
        return draw(self, str(sample_id), pair, render)


def flat_row(r: Dict[str, Any], pairs: Optional[Sequence[str]] = None, all: bool = False) -> Dict[str, Any]:
    """One export row as flat columns (Result.to_pandas)."""
    out: Dict[str, Any] = {"id": r.get("id"), "system": r.get("system")}
    reasons = []
    for pair, h in (r.get("headline") or {}).items():
        if pairs is not None and pair not in pairs:
            continue
        out[pair] = h.get("value")
        out[pair + ".pass"] = h.get("pass") if decisive(h) else None
        if h.get("value") is None and h.get("reason"):
            reasons.append("%s: %s" % (pair, h["reason"]))
    out["pass"] = row_pass(r.get("headline") or {}, pairs)
    out["reason"] = "; ".join(reasons) or None
    if all:
        for pair, scores in (r.get("scores") or {}).items():
            if pairs is not None and pair not in pairs:
                continue
            for m, v in scores.items():
                if m != "reason":
                    out["%s.%s" % (pair, m)] = v
        for m, v in (r.get("metrics") or {}).items():
            out[m] = v
    return out


class LocalBackend:
    """Reads runs through the bundled binary, with the configuration args
    (--config FILE) and environment of the evaluation."""

    def __init__(self, args: List[str], env: Optional[Dict[str, Optional[str]]] = None) -> None:
        self.args, self.env = list(args), env

    def _run(self, *args: str) -> str:
        from . import _binary
        return _binary.run([*args, *self.args], env=self.env)

    def rows(self, run: str) -> List[Dict[str, Any]]:
        return _jsonl(self._run("export", "--run", run, "--headline"))

    def claims(self, run: str) -> List[Dict[str, Any]]:
        return _jsonl(self._run("export", "claims", "--run", run))

    def explain(self, run: str, sample: str) -> str:
        return self._run("explain", "--run", run, "--sample", sample)

    def record(self, run: str) -> Dict[str, Any]:
        rec: Dict[str, Any] = json.loads(self._run("runs", "show", run, "--json"))
        return rec

    def graph(self, run: str, sample: str, pair: str) -> Dict[str, Any]:
        g: Dict[str, Any] = json.loads(self._run("export", "graph", "--run", run, "--sample", sample, "--pair", pair))
        return g


"""The kgeval pytest plugin (entry point pytest11): the ``kgeval_assert``
fixture checks a sample's headline scores against thresholds, and a red test
says why: the claims that are not supported, each with its evidence.

    @kgeval.parametrize("tests/rag_cases.jsonl")
    def test_rag(sample, kgeval_assert):
        kgeval_assert(sample, faithfulness=0.7, context_relevancy=0.5)

Every sample of a session is evaluated in one run: the collected ones
together at the first assertion; a sample built inside a test joins the run
(the run is evaluated again with it; the model cache answers the samples it
held). The run is deleted when the session ends unless --kgeval-keep-runs or
--kgeval-run NAME. Scores go into JUnit (pytest --junitxml) as properties;
the session ends with a summary.
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

from . import _data
from ._result import decisive


def pytest_addoption(parser: Any) -> None:
    g = parser.getgroup("kgeval")
    g.addoption("--kgeval-run", default=None, help="run name of the session's evaluation (default: pytest-<time>-<hex>); a named run is kept")
    g.addoption("--kgeval-config", default=None, help="kgeval config file (YAML) for the evaluation")
    g.addoption("--kgeval-metrics", default=None, help="metrics to compute: pairs and/or families (as kgeval.evaluate's metrics=)")
    g.addoption("--kgeval-cache-only", action="store_true", default=False, help="make no model call: answers from the model cache only")
    g.addoption("--kgeval-keep-runs", action="store_true", default=False,
                help="keep the session's run in Neo4j when the session ends (default: deleted, unless --kgeval-run names it)")


class _Session:
    """The samples of a test session and their one run."""

    def __init__(self, config: Any) -> None:
        from ._api import new_run_name
        self.config = config
        opt = config.getoption
        self.named = opt("--kgeval-run")
        self.run: str = self.named or new_run_name("pytest")
        self.keep = bool(opt("--kgeval-keep-runs") or self.named)
        self.samples: Dict[str, Dict[str, Any]] = {}
        self.rows: Dict[str, Dict[str, Any]] = {}
        self.claims: Dict[str, List[Dict[str, Any]]] = {}
        self.reasons: Dict[str, str] = {}
        self.evaluated = False
        self.outcomes: List[Tuple[str, bool]] = []

    def add(self, sample: Dict[str, Any]) -> str:
        s = _data.sample_record(sample)
        self.samples.setdefault(s["id"], s)
        return str(s["id"])

    def row(self, sample: Dict[str, Any]) -> Tuple[str, Optional[Dict[str, Any]]]:
        __tracebackhide__ = True
        sid = self.add(sample)
        if sid not in self.rows and sid not in self.reasons:
            self._evaluate()
        return sid, self.rows.get(sid)

    def _evaluate(self) -> None:
        """Evaluates every sample of the session so far into the session's
        run (again, with replace, when a sample joins it)."""
        __tracebackhide__ = True
        from ._api import evaluate
        opt = self.config.getoption
        batch = list(self.samples.values())
        with warnings.catch_warnings(record=True) as caught:  # bad samples fail their own test, not the session (-W error)
            warnings.simplefilter("always")
            res = evaluate(batch, run=self.run, config=opt("--kgeval-config"), metrics=opt("--kgeval-metrics"),
                           cache_only=opt("--kgeval-cache-only"), progress=False, replace=True)
        self.evaluated = True
        del caught
        self.rows, self.claims, self.reasons = {}, {}, {}
        for r in res.rows():
            self.rows[r["id"]] = dict(r, _run=res.run, _pairs=res.pairs)
        for row in res._inputs or []:
            if row.reason and row.id is not None and row.id not in self.rows:
                self.reasons[row.id] = row.reason
        for c in res.claim_rows():
            self.claims.setdefault(c["id"], []).append(c)

    def finish(self) -> Optional[str]:
        """Deletes the session's run unless it is kept; what happened, for the summary."""
        if self.keep or not self.evaluated:
            return None
        from . import runs
        try:
            runs.delete(self.run)
        except Exception as e:  # the summary says so; the tests' outcome stands
            return "run %s not deleted: %s" % (self.run, e)
        return "run %s deleted (--kgeval-keep-runs keeps it)" % self.run


def pytest_configure(config: Any) -> None:
    config._kgeval = _Session(config)


def pytest_collection_modifyitems(session: Any, config: Any, items: List[Any]) -> None:
    """Registers the samples parametrized into tests that use kgeval_assert,
    so that they are evaluated in one run."""
    ks = getattr(config, "_kgeval", None)
    for item in items:
        if ks is None or "kgeval_assert" not in getattr(item, "fixturenames", ()):
            continue
        cs = getattr(item, "callspec", None)
        for v in (cs.params.values() if cs else ()):
            if isinstance(v, dict) and any(k in v for k in ("question", "user_input", "answer", "response")):
                ks.add(v)


def _fmt(v: Optional[float]) -> str:
    return "null" if v is None else "%.2f" % v


def _message(sid: str, row: Dict[str, Any], failures: List[str], claims: List[Dict[str, Any]], pairs: List[str], keep: str = "") -> str:
    lines = ["kgeval: sample %s (run %s): %s" % (sid, row.get("_run"), "; ".join(failures))]
    for pair in pairs:
        bad = [c for c in claims if c.get("pair") == pair and c.get("verdict") != "supported"]
        if not bad:
            continue
        lines.append("  %s: %d of %d claims not supported:" % (pair, len(bad), len([c for c in claims if c.get("pair") == pair])))
        for c in bad:
            lines.append("    %s %.2f %r" % (c.get("verdict", "?").upper(), c.get("score", 0.0), c.get("text")))
            if c.get("p_supported") is not None:
                lines.append("      model P(supported) %.2f" % c["p_supported"])
            for x in c.get("conflicts") or []:
                lines.append("      conflict (%s): %r, the evidence says %r" % (x.get("kind"), x.get("claim"), x.get("evidence")))
            if c.get("evidence"):
                where = "passage %d" % c["evidence_passage"] if c.get("evidence_passage") else "reference"
                lines.append("      evidence [%s]: %r" % (where, c["evidence"]))
            else:
                lines.append("      evidence: none found in the context")
    lines.append("  why, in full: kgeval explain --run %s --sample %s%s" % (row.get("_run"), sid, keep))
    return "\n".join(lines)


@pytest.fixture
def kgeval_assert(request: Any) -> Callable[..., Dict[str, Any]]:
    """``kgeval_assert(sample, faithfulness=0.7, context_relevancy=0.5)``:
    each keyword is a pair (its headline metric: score for faithfulness and
    factual_correctness, slot_coverage for the question pairs) or
    ``"pair.metric"`` through ``**{...}``, with the lowest value it may have
    (the highest for a contradiction metric). With no threshold, the sample
    must pass its headlines' pass marks. A null value fails with its reason.
    Returns the sample's export row."""
    ks: _Session = request.config._kgeval

    def check(sample: Dict[str, Any], **thresholds: float) -> Dict[str, Any]:
        __tracebackhide__ = True
        sid, row = ks.row(sample)
        if row is None:
            raise AssertionError("kgeval: sample %s was not evaluated: %s" % (sid, ks.reasons.get(sid, "see the warnings")))
        heads = row.get("headline") or {}
        asked = row.get("_pairs")
        for pair, h in heads.items():
            request.node.user_properties.append(("kgeval.%s.%s" % (pair, h.get("metric")), h.get("value")))
        request.node.user_properties.append(("kgeval.run", row.get("_run")))
        failures, pairs = [], []
        if not thresholds:
            for pair, h in heads.items():
                if asked and pair not in asked or not decisive(h):
                    continue  # a mark that is not calibrated gives a score, not a fail
                if h.get("pass") is False:
                    failures.append("%s %s %s < pass mark %.2f" % (pair, h.get("metric"), _fmt(h.get("value")), h.get("pass_mark")))
                    pairs.append(pair)
        for key, want in thresholds.items():
            pair, _, metric = key.partition(".")
            if not metric:
                h = heads.get(pair)
                if h is None:
                    raise AssertionError("kgeval: sample %s has no pair %r (pairs: %s)" % (sid, pair, ", ".join(heads) or "none"))
                metric, v, reason = h.get("metric"), h.get("value"), h.get("reason")
            else:
                s = (row.get("scores") or {}).get(pair) or {}
                v = s.get(metric) if s else (row.get("metrics") or {}).get(key)
                reason = s.get("reason") or (row.get("nulls") or {}).get(key)
            lower = "contradiction" in metric
            if v is None:
                failures.append("%s %s is null (%s)" % (pair, metric, reason or "no reason given"))
                pairs.append(pair)
            elif (v > want + 1e-12) if lower else (v < want - 1e-12):
                failures.append("%s %s %s %s %.2f" % (pair, metric, _fmt(v), ">" if lower else "<", want))
                pairs.append(pair)
        ks.outcomes.append((sid, not failures))
        if failures:
            keep = "" if ks.keep else " (before the session ends; --kgeval-keep-runs keeps the run)"
            raise AssertionError(_message(sid, row, failures, ks.claims.get(sid, []), pairs, keep))
        return row

    return check


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    ks = getattr(config, "_kgeval", None)
    if not ks or not ks.outcomes:
        return
    ok = sum(1 for _, p in ks.outcomes if p)
    tr = terminalreporter
    tr.section("kgeval")
    tr.write_line("%d samples checked in run %s: %d passed, %d failed" % (len(ks.outcomes), ks.run, ok, len(ks.outcomes) - ok))
    for sid, p in ks.outcomes:
        if not p:
            tr.write_line("  FAILED %s  (kgeval explain --run %s --sample %s)" % (sid, ks.run, sid))
    note = ks.finish()
    ks.finished = True
    if note:
        tr.write_line(note)


def pytest_unconfigure(config: Any) -> None:
    ks = getattr(config, "_kgeval", None)
    if ks is not None and not getattr(ks, "finished", False):
        ks.finish()

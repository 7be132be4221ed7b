"""kgeval.runs: the stored runs (``kgeval runs list | show | delete``)."""
from __future__ import annotations

import json
from typing import Any, Dict, List

from . import _binary, _local


def _env() -> Dict[str, str]:
    return _local.ensure_neo4j({}, progress=False, start=False)


def list() -> List[Dict[str, Any]]:  # noqa: A001 - kgeval.runs.list(), as the CLI names it
    """The stored runs, newest first: each run's record (name, status,
    samples, rejected, dataset, started, finished, calls, ...)."""
    runs: List[Dict[str, Any]] = json.loads(_binary.run(["runs", "list", "--json"], env=_env()))
    return runs


def show(name: str) -> Dict[str, Any]:
    """One run's record; NotFoundError when there is none."""
    rec: Dict[str, Any] = json.loads(_binary.run(["runs", "show", name, "--json"], env=_env()))
    return rec


def delete(name: str) -> None:
    """Deletes a run: its record, samples, graphs and scores (not the shared
    model cache); NotFoundError when there is none."""
    _binary.run(["runs", "delete", name], env=_env())


__all__ = ["list", "show", "delete"]

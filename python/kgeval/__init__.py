"""kgeval for Python: evaluate RAG samples with knowledge graphs in Neo4j.

    import kgeval
    res = kgeval.evaluate(df)          # a DataFrame, records, a file or a datasets.Dataset
    res.to_pandas()                    # one row per input row: inputs, headline scores, pass/fail
    res.claims()                       # one row per claim: verdict, P(supported), evidence
    print(res.explain(sample_id))      # what `kgeval explain` prints

The package drives the kgeval binary it carries (JSONL in, JSON out); a
running `kgeval serve` works the same through kgeval.Client. See
docs/PYTHON.md.
"""
from typing import Any

from . import model, runs
from ._api import aevaluate, evaluate, from_traces, neo4j_start, neo4j_stop, new_run_name, result, version
from ._binary import binary
from ._client import Client
from ._data import COLUMNS, load_samples
from ._errors import (ConflictError, ForbiddenError, GateFailedError, InternalError, InvalidError, KgevalError,
                      NotFoundError, TooLargeError, TooManyRequestsError, UnauthorizedError, UnavailableError)
from ._result import Result

try:
    from ._version import BINARY_VERSION, __version__
except ImportError:  # a source checkout, not an installed wheel
    __version__, BINARY_VERSION = "0.0.0+source", "dev"


def parametrize(path: str, argname: str = "sample") -> Any:
    """``@kgeval.parametrize("data.jsonl")``: one test per sample of a dataset
    file, each test id the sample's id (the pytest plugin evaluates them
    together, in one run)."""
    import pytest
    samples = load_samples(path)
    return pytest.mark.parametrize(argname, samples, ids=[s["id"] for s in samples])


__all__ = ["evaluate", "aevaluate", "result", "from_traces", "neo4j_start", "neo4j_stop", "new_run_name", "version", "Result", "Client",
           "runs", "model", "binary", "load_samples", "parametrize", "COLUMNS", "__version__", "BINARY_VERSION",
           "KgevalError", "InternalError", "GateFailedError", "InvalidError", "UnavailableError", "NotFoundError",
           "ConflictError", "UnauthorizedError", "ForbiddenError", "TooLargeError", "TooManyRequestsError"]

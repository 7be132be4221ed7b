"""Turning what a user holds (a DataFrame, records, a file, a datasets.Dataset)
into the JSONL the binary reads."""
from __future__ import annotations

import hashlib
import json
import math
import os
from typing import Any, Iterable, List, Optional

#: Column names accepted, RAGAS's current and older ones, and what each is
#: to kgeval (the binary accepts the same aliases; see docs/PYTHON.md).
COLUMNS = {
    "id": "id", "sample_id": "id",
    "question": "question", "user_input": "question", "query": "question",
    "answer": "answer", "response": "answer",
    "contexts": "contexts", "retrieved_contexts": "contexts", "context": "contexts",
    "reference": "reference", "ground_truth": "reference", "ground_truths": "reference", "reference_answer": "reference",
    "system": "system", "method": "system",
    "human": "human", "metadata": "metadata", "meta": "metadata",
}

#: Files the binary reads as they are.
FILE_FORMATS = (".jsonl", ".json", ".csv", ".parquet")


def _plain(v: Any) -> Any:
    """A JSON-able value: numpy arrays and scalars, pandas NA and NaN made plain."""
    if v is None:
        return None
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if isinstance(v, (str, bool, int)):
        return v
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    tolist = getattr(v, "tolist", None)  # numpy array or scalar
    if callable(tolist):
        return _plain(tolist())
    try:
        import pandas as pd  # noqa: F401
        if pd.isna(v):
            return None
    except Exception:
        pass
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return str(v)


def sample_record(rec: dict) -> dict:
    """One record with kgeval's field names (RAGAS names mapped), plain
    values, and an id (a hash of its texts when it has none, so that the
    pytest plugin can find its row again)."""
    out: dict = {}
    for k, v in rec.items():
        name = COLUMNS.get(str(k), str(k))
        v = _plain(v)
        if v is None:
            continue
        if name == "reference" and isinstance(v, list):  # ground_truths: a list, its first is the reference (as the binary reads it)
            v = str(v[0]) if v else ""
        if name == "contexts" and isinstance(v, str):
            try:
                v = json.loads(v) if v.lstrip().startswith("[") else [v]
            except ValueError:
                v = [v]
        if name == "id":
            v = str(v)
        if name not in out:
            out[name] = v
    if "id" not in out:
        key = json.dumps([out.get("question"), out.get("answer"), out.get("contexts"), out.get("system")], sort_keys=True)
        out["id"] = "sample-" + hashlib.sha1(key.encode()).hexdigest()[:12]
    return out


def records(data: Any) -> Optional[List[dict]]:
    """The records of data, or None when data is a file the binary reads as it is."""
    if isinstance(data, (str, os.PathLike)):
        path = os.fspath(data)
        if not os.path.exists(path):
            raise FileNotFoundError(path)
        if path.lower().endswith(FILE_FORMATS):
            return None
        raise ValueError("%s: want a .jsonl, .json, .csv or .parquet file" % path)
    if hasattr(data, "to_dict") and hasattr(data, "columns"):  # pandas DataFrame
        rows = data.to_dict(orient="records")
    elif hasattr(data, "to_list") and hasattr(data, "features"):  # datasets.Dataset
        rows = data.to_list()
    elif isinstance(data, dict):
        rows = [data]
    elif isinstance(data, Iterable):
        rows = list(data)
    else:
        raise TypeError("data: want a pandas DataFrame, a list of dicts, a datasets.Dataset or a file path, not %s" % type(data).__name__)
    out = []
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise TypeError("data record %d is a %s, want a dict" % (i + 1, type(r).__name__))
        out.append(sample_record(r))
    return out


def write_jsonl(recs: List[dict], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def load_samples(path: str) -> List[dict]:
    """The samples of a dataset file (JSONL or JSON; CSV and Parquet through
    pandas), each with kgeval's field names and an id: what the pytest
    plugin's parametrize takes."""
    p = os.fspath(path)
    low = p.lower()
    if low.endswith(".jsonl"):
        with open(p, encoding="utf-8") as f:
            rows = [json.loads(l) for l in f if l.strip()]
    elif low.endswith(".json"):
        with open(p, encoding="utf-8") as f:
            rows = json.load(f)
        if isinstance(rows, dict):
            rows = rows.get("samples") or rows.get("data") or [rows]
    elif low.endswith(".csv"):
        import pandas as pd
        rows = pd.read_csv(p).to_dict(orient="records")
    elif low.endswith(".parquet"):
        import pandas as pd
        rows = pd.read_parquet(p).to_dict(orient="records")
    else:
        raise ValueError("%s: want a .jsonl, .json, .csv or .parquet file" % p)
    return [sample_record(r) for r in rows]

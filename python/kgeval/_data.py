"""Turning what a user holds (a DataFrame, records, a file, a datasets.Dataset)
into the JSONL the binary reads: columns mapped, types checked, stringified
lists parsed, bad rows set apart with their reason, duplicates evaluated once."""
from __future__ import annotations

import ast
import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ._errors import InvalidError

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

#: The names each of kgeval's fields is read from, for messages.
ALIASES: Dict[str, List[str]] = {}
for _k, _v in COLUMNS.items():
    ALIASES.setdefault(_v, []).append(_k)

#: The input columns Result.to_pandas puts first, in RAGAS's order, and the
#: kgeval field each shows.
RAGAS_COLUMNS = [("user_input", "question"), ("retrieved_contexts", "contexts"), ("response", "answer"), ("reference", "reference")]

#: The texts each default pair reads (configs/kgeval.yaml scoring.pairs).
PAIR_TEXTS = {
    "context_relevancy": ("question", "contexts"),
    "faithfulness": ("answer", "contexts"),
    "factual_correctness": ("answer", "reference"),
    "answer_relevancy": ("question", "answer"),
}

#: Files read here (JSONL and JSON with the standard library, CSV and
#: Parquet with pandas).
FILE_FORMATS = (".jsonl", ".ndjson", ".json", ".csv", ".parquet")

_TEXT = ("question", "answer", "reference", "system")


def _missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    try:
        import pandas as pd
        r = pd.isna(v)
        return bool(r) if isinstance(r, (bool,)) or type(r).__name__ == "bool_" else False
    except Exception:
        return False


def _plain(v: Any) -> Any:
    """A JSON-able value: numpy arrays and scalars, pandas NA and NaN made plain."""
    if _missing(v):
        return None
    if isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    tolist = getattr(v, "tolist", None)  # numpy array or scalar
    if callable(tolist):
        return _plain(tolist())
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return str(v)


def parse_list(s: str) -> Optional[List[Any]]:
    """A list written as text, as a list column becomes in a CSV file: JSON
    (``["a", "b"]``) or Python's repr (``['a', 'b']``, what pandas writes);
    None when s is not one."""
    t = s.strip()
    if not (t.startswith("[") and t.endswith("]")):
        return None
    try:
        v = json.loads(t)
    except ValueError:
        try:
            v = ast.literal_eval(t)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    return list(v) if isinstance(v, (list, tuple)) else None


def _kind(v: Any) -> str:
    return type(v).__name__


class _Bad(Exception):
    """A value of the wrong type in a column."""

    def __init__(self, column: str, value: Any, want: str):
        super().__init__(column)
        self.column, self.value, self.want = column, value, want


def _field(name: str, column: str, v: Any) -> Any:
    """The value of kgeval field name read from column: plain, parsed and
    type-checked (None when missing; _Bad when of the wrong type)."""
    v = _plain(v)
    if v is None:
        return None
    if name == "contexts":
        if isinstance(v, str):
            parsed = parse_list(v)
            v = parsed if parsed is not None else [v]
        if not isinstance(v, list):
            raise _Bad(column, v, "a list of texts")
        if any(not isinstance(x, str) for x in v if x is not None):
            raise _Bad(column, v, "a list of texts")
        return [x for x in v if x is not None and x.strip()]
    if name == "reference" and isinstance(v, str) and column == "ground_truths":
        parsed = parse_list(v)
        v = parsed if parsed is not None else v
    if name == "reference" and isinstance(v, list):  # ground_truths: its first is the reference (as the binary reads it)
        v = v[0] if v else None
        if v is None:
            return None
    if name in _TEXT:
        if not isinstance(v, str):
            raise _Bad(column, v, "text")
        return v
    if name == "id":
        if isinstance(v, bool) or not isinstance(v, (str, int, float)):
            raise _Bad(column, v, "a text or a number")
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        return str(v).strip() or None
    if name in ("metadata", "human") and isinstance(v, str):
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def sample_record(rec: Dict[str, Any]) -> Dict[str, Any]:
    """One record with kgeval's field names (RAGAS names mapped), plain
    values, and an id (a hash of its texts when it has none, so that equal
    rows are one sample and the pytest plugin finds its row again). Raises
    InvalidError for a value of the wrong type."""
    try:
        return _record(rec)
    except _Bad as b:
        raise InvalidError("column %r: %s is a %s, want %s" % (b.column, _short(b.value), _kind(b.value), b.want)) from None


def _record(rec: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in rec.items():
        name = COLUMNS.get(str(k), str(k))
        val = _field(name, str(k), v)
        if val is None or name in out:
            continue
        out[name] = val
    if "id" not in out:
        key = json.dumps([out.get("question"), out.get("answer"), out.get("contexts"), out.get("reference"), out.get("system")],
                         sort_keys=True)
        out["id"] = "sample-" + hashlib.sha1(key.encode()).hexdigest()[:12]
    return out


def _short(v: Any, n: int = 60) -> str:
    s = repr(v)
    return s if len(s) <= n else s[: n - 3] + "..."


def rows_of(data: Any) -> List[Dict[str, Any]]:
    """The rows of data as dicts, in order: a pandas DataFrame, a
    datasets.Dataset, a list of dicts, one dict, or a dataset file (.jsonl,
    .json, .csv, .parquet)."""
    if isinstance(data, (str, os.PathLike)):
        return read_file(os.fspath(data))
    if hasattr(data, "to_dict") and hasattr(data, "columns"):  # pandas DataFrame
        return list(data.to_dict(orient="records"))
    if hasattr(data, "to_list") and hasattr(data, "features"):  # datasets.Dataset
        return list(data.to_list())
    if isinstance(data, dict):
        return [data]
    if isinstance(data, Iterable):
        rows = list(data)
        for i, r in enumerate(rows):
            if not isinstance(r, dict):
                raise InvalidError("data: row %d is a %s, want a dict" % (i, type(r).__name__))
        return rows
    raise InvalidError("data: want a pandas DataFrame, a list of dicts, a datasets.Dataset or a file path, not %s"
                       % type(data).__name__)


def read_file(path: str) -> List[Dict[str, Any]]:
    """The rows of a dataset file, as the binary would read them (JSONL,
    JSON: an array or an object holding "samples" or "data"; CSV and Parquet
    through pandas)."""
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    low = path.lower()
    if low.endswith((".jsonl", ".ndjson")):
        with open(path, encoding="utf-8") as f:
            rows = []
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except ValueError as e:
                        raise InvalidError("%s line %d: not JSON: %s" % (path, n, e)) from None
            return rows
    if low.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)
        if isinstance(rows, dict):
            rows = rows.get("samples") or rows.get("data") or [rows]
        if not isinstance(rows, list):
            raise InvalidError("%s: want a JSON array of records (or an object holding \"samples\")" % path)
        return rows
    if low.endswith(".csv"):
        import pandas as pd
        return list(pd.read_csv(path, keep_default_na=True).to_dict(orient="records"))
    if low.endswith(".parquet"):
        import pandas as pd
        return list(pd.read_parquet(path).to_dict(orient="records"))
    raise InvalidError("%s: want a .jsonl, .json, .csv or .parquet file" % path)


def write_jsonl(recs: List[Dict[str, Any]], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def load_samples(path: str) -> List[Dict[str, Any]]:
    """The samples of a dataset file (JSONL or JSON; CSV and Parquet through
    pandas), each with kgeval's field names and an id: what the pytest
    plugin's parametrize takes."""
    return [sample_record(r) for r in read_file(os.fspath(path))]


def required_texts(pairs: Optional[Sequence[str]]) -> List[str]:
    """The texts a row must have to be evaluated for pairs (None: the default
    pairs): the question always (every sample has one), and what the pairs
    read; the reference only when a pair that reads it was asked for by name
    (by default a row without one is scored without factual_correctness)."""
    need = ["question"]
    if pairs is None:
        need += ["answer", "contexts"]
    else:
        for p in pairs:
            for t in PAIR_TEXTS.get(p, ()):
                if t not in need:
                    need.append(t)
    return need


@dataclass
class Row:
    """One input row: what to_pandas shows of it, its sample id, and why it
    was not evaluated (reason) or the record it was evaluated as."""
    inputs: Dict[str, Any]
    id: Optional[str] = None
    system: Optional[str] = None
    reason: Optional[str] = None
    record: Optional[int] = None  # 1-based, in Prepared.records


@dataclass
class Prepared:
    rows: List[Row] = field(default_factory=list)
    records: List[Dict[str, Any]] = field(default_factory=list)

    def bad(self) -> List[Tuple[int, Row]]:
        return [(i, r) for i, r in enumerate(self.rows) if r.reason]


def prepare(data_rows: List[Dict[str, Any]], pairs: Optional[Sequence[str]] = None) -> Prepared:
    """Checks and maps rows: a required column missing everywhere, or a value
    of the wrong type in a column, raises InvalidError naming the column and
    its first rows; a row without a required text (NaN, empty, no contexts)
    is kept with its reason and not evaluated; rows equal in every text (or
    with the same id and texts) are evaluated once."""
    if not data_rows:
        raise InvalidError("data: no row")
    need = required_texts(pairs)
    present = {COLUMNS.get(str(k), str(k)) for r in data_rows for k in r}
    for t in need:
        if t not in present:
            cols = sorted({str(k) for r in data_rows for k in r})
            raise InvalidError("data: no %s column (kgeval reads it from %s); the columns are %s" % (
                t, " or ".join(repr(a) for a in ALIASES[t]), ", ".join(repr(c) for c in cols) or "none"))
    out = Prepared()
    wrong: Dict[str, List[Tuple[int, Any, str]]] = {}
    by_key: Dict[str, int] = {}
    for i, raw in enumerate(data_rows):
        try:
            rec = _record(raw)
        except _Bad as b:
            wrong.setdefault(b.column, []).append((i, b.value, b.want))
            continue
        inputs = {col: rec.get(name) for col, name in RAGAS_COLUMNS if name in present}
        row = Row(inputs=inputs, id=rec["id"], system=rec.get("system"))
        missing = [t for t in need if not _has_text(rec.get(t))]
        if missing:
            row.reason = "not evaluated: " + ", ".join(_why(t, raw) for t in missing)
        else:
            key = json.dumps(rec, sort_keys=True, ensure_ascii=False)
            if key not in by_key:
                out.records.append(rec)
                by_key[key] = len(out.records)
            row.record = by_key[key]
        out.rows.append(row)
    if wrong:
        parts = []
        for col, items in wrong.items():
            first = "; ".join("row %d: %s (%s)" % (i, _short(v), _kind(v)) for i, v, _ in items[:3])
            parts.append("column %r must hold %s: %d row%s do%s not (%s%s)" % (
                col, items[0][2], len(items), "" if len(items) == 1 else "s", "es" if len(items) == 1 else "",
                first, "; ..." if len(items) > 3 else ""))
        raise InvalidError("data: " + "; ".join(parts))
    return out


def _has_text(v: Any) -> bool:
    if isinstance(v, str):
        return bool(v.strip())
    if isinstance(v, list):
        return bool(v)
    return v is not None


def _why(text: str, raw: Dict[str, Any]) -> str:
    col = next((k for k in ALIASES[text] if k in raw), None)
    if col is None:
        return "no %s" % text
    v = raw[col]
    if _missing(v):
        return "no %s (%s is %s)" % (text, col, "NaN" if isinstance(v, float) or type(v).__name__ in ("NAType", "NaTType") else "null")
    return "no %s (%s is empty)" % (text, col)

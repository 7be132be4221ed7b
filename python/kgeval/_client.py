"""Client: the same evaluate and Result against a running ``kgeval serve``
(its JSON API: uploads, jobs, exports; docs/API.md)."""
from __future__ import annotations

import json
import sys
import time
import warnings
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _data
from ._api import new_run_name
from ._errors import InvalidError, KgevalError, UnavailableError, error
from ._result import Result, _jsonl


#: The code of an HTTP status, for an error without a JSON body (web.go statusOf).
_CODE_OF_STATUS = {400: "invalid", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict",
                   413: "too_large", 429: "too_many_requests", 500: "internal", 502: "unavailable", 503: "unavailable",
                   504: "unavailable"}


class Client:
    """A kgeval server: ``Client("http://127.0.0.1:8080", token="kgv_...")``
    (an API token, ``kgeval serve new-token NAME``)."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60.0):
        self.url, self.token, self.timeout = url.rstrip("/"), token, timeout

    def _request(self, method: str, path: str, body: Optional[bytes] = None, content_type: str = "application/json") -> bytes:
        req = urllib.request.Request(self.url + path, data=body, method=method)
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        if body is not None:
            req.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                data: bytes = resp.read()
                return data
        except urllib.error.HTTPError as e:
            with e:
                raw = e.read()
            try:
                err = json.loads(raw)
            except ValueError:
                err = None
            if isinstance(err, dict) and err.get("error"):
                raise error(err.get("code") or _CODE_OF_STATUS.get(e.code), err["error"], status=e.code,
                            command=[method, path]) from None
            raise error(_CODE_OF_STATUS.get(e.code), "%s %s: HTTP %d %s" % (method, path, e.code, raw[:200].decode("utf-8", "replace")),
                        status=e.code, command=[method, path]) from None
        except urllib.error.URLError as e:
            raise UnavailableError("kgeval server at %s is not reachable: %s (is `kgeval serve` running?)" % (self.url, e.reason),
                                   command=[method, path]) from None

    def _json(self, method: str, path: str, payload: Any = None) -> Any:
        body = None if payload is None else json.dumps(payload).encode()
        return json.loads(self._request(method, path, body))

    def evaluate(self, data: Any, *, metrics: Optional[Union[str, Sequence[str]]] = None, run: Optional[str] = None,
                 limit: Optional[int] = None, engine: Optional[str] = None, cache_only: bool = False,
                 progress: bool = True, poll: float = 1.0, timeout: Optional[float] = None) -> Result:
        """Uploads data (as kgeval.evaluate takes it), starts a job on the
        server, waits for it and returns its Result. Raises KgevalError with
        the server's message when the upload, the job's start or the job fails."""
        names = [m.strip() for m in (metrics.split(",") if isinstance(metrics, str) else (metrics or [])) if m.strip()]
        pairs = [m for m in names if m in _data.PAIR_TEXTS] or None
        prepared = _data.prepare(_data.rows_of(data), pairs)
        recs = prepared.records
        if not recs:
            raise InvalidError("data: no row can be evaluated: " + "; ".join(sorted({r.reason or "" for r in prepared.rows})))
        body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs).encode()
        run = run or new_run_name()
        up = json.loads(self._request("POST", "/api/uploads?name=" + urllib.parse.quote(run + ".jsonl"), body, "application/octet-stream"))
        job = {"upload": up["id"], "run": run, "cache_only": bool(cache_only)}
        if names:
            # The KG scores of every pair are always computed: a job names
            # the metrics it adds; the pairs asked for are what pass reads.
            job["metrics"] = [m for m in names if m != "kg" and m not in _data.PAIR_TEXTS]
        if engine:
            job["engine"] = engine
        if limit:
            job["limit"] = int(limit)
        self._json("POST", "/api/jobs", job)
        deadline = None if timeout is None else time.monotonic() + timeout
        q = urllib.parse.quote(run, safe="")
        while True:
            j = self._json("GET", "/api/jobs/" + q)
            if progress:
                sys.stderr.write("\rkgeval job %s: %s %s %d/%d   " % (run, j.get("status"), j.get("stage", ""), j.get("done", 0), j.get("total", 0)))
                sys.stderr.flush()
            if j.get("status") != "running":
                break
            if deadline is not None and time.monotonic() > deadline:
                raise KgevalError("job %s still running after %.0f s" % (run, timeout or 0), "timeout", kind="timeout")
            time.sleep(poll)
        if progress:
            sys.stderr.write("\n")
        if j.get("status") != "done":
            raise KgevalError("job %s %s: %s" % (run, j.get("status"), j.get("error") or j.get("note") or "no reason given"), "job_" + str(j.get("status")))
        summary = {"run": run, "samples": j.get("samples"), "rejected": up.get("rejected") or [], "calls": j.get("calls")}
        for rej in summary["rejected"]:
            for row in prepared.rows:
                if row.record == rej.get("record"):
                    row.record, row.reason = None, "rejected: %s" % rej.get("reason")
        bad = [r for r in prepared.rows if r.reason]
        if bad:
            warnings.warn("kgeval: %d of %d rows were not evaluated (pass is None, the reason is in to_pandas()): %s"
                          % (len(bad), len(prepared.rows), "; ".join(sorted({r.reason or "" for r in bad}))), UserWarning, stacklevel=2)
        return Result(run, _ServerBackend(self), summary, inputs=prepared.rows, pairs=pairs)

    def result(self, run: str) -> Result:
        """The Result of a run stored on the server."""
        return Result(run, _ServerBackend(self))


class _ServerBackend:
    def __init__(self, c: Client):
        self.c = c

    def _export(self, run: str, query: str) -> List[Dict[str, Any]]:
        return _jsonl(self.c._request("GET", "/api/runs/%s/export?%s" % (urllib.parse.quote(run, safe=""), query)).decode("utf-8"))

    def rows(self, run: str) -> List[Dict[str, Any]]:
        return self._export(run, "format=jsonl&headline=1")

    def claims(self, run: str) -> List[Dict[str, Any]]:
        return self._export(run, "format=claims")

    def record(self, run: str) -> Dict[str, Any]:
        rec = json.loads(self.c._request("GET", "/api/runs/%s" % urllib.parse.quote(run, safe="")))
        return dict(rec.get("run") or rec) if isinstance(rec, dict) else {"name": run}

    def graph(self, run: str, sample: str, pair: str) -> Dict[str, Any]:
        g: Dict[str, Any] = json.loads(self.c._request("GET", "/api/runs/%s/samples/%s/graphs/%s" % (
            urllib.parse.quote(run, safe=""), urllib.parse.quote(sample, safe=""), urllib.parse.quote(pair, safe=""))))
        return g

    def explain(self, run: str, sample: str) -> str:
        return self.c._request("GET", "/api/runs/%s/samples/%s/explain" % (urllib.parse.quote(run, safe=""), urllib.parse.quote(sample, safe=""))).decode("utf-8")

"""kgeval.otel: an OpenTelemetry span exporter that writes OTLP JSON to a
file, one export request per line (the OpenTelemetry Collector's file
exporter format), which ``kgeval import-traces`` and
``kgeval.evaluate(traces=...)`` read. Needs ``opentelemetry-sdk``
(``pip install kgeval[otel]``).

    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from kgeval.otel import FileSpanExporter

    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(FileSpanExporter("spans.jsonl")))
    trace.set_tracer_provider(provider)
    ...                                   # run the instrumented chain
    kgeval.evaluate(traces="spans.jsonl")
"""
from __future__ import annotations

import json
import os
import threading
from typing import IO, Any, Dict, List, Optional, Sequence, Tuple

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.trace import SpanKind, StatusCode

#: OTLP's SpanKind numbers (opentelemetry-proto trace.proto).
_KIND = {SpanKind.INTERNAL: 1, SpanKind.SERVER: 2, SpanKind.CLIENT: 3, SpanKind.PRODUCER: 4, SpanKind.CONSUMER: 5}
_STATUS = {StatusCode.UNSET: 0, StatusCode.OK: 1, StatusCode.ERROR: 2}


def any_value(v: Any) -> Dict[str, Any]:
    """An attribute value as OTLP JSON's AnyValue."""
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, str):
        return {"stringValue": v}
    if isinstance(v, bytes):
        import base64
        return {"bytesValue": base64.b64encode(v).decode()}
    if isinstance(v, (list, tuple)):
        return {"arrayValue": {"values": [any_value(x) for x in v]}}
    if isinstance(v, dict):
        return {"kvlistValue": {"values": attributes(v)}}
    return {"stringValue": str(v)}


def attributes(attrs: Optional[Any]) -> List[Dict[str, Any]]:
    return [{"key": str(k), "value": any_value(v)} for k, v in (attrs or {}).items()]


def span_json(s: ReadableSpan) -> Dict[str, Any]:
    """One span as OTLP JSON (ids in hex, times as strings of nanoseconds)."""
    ctx = s.get_span_context()
    assert ctx is not None
    out: Dict[str, Any] = {
        "traceId": format(ctx.trace_id, "032x"),
        "spanId": format(ctx.span_id, "016x"),
        "name": s.name,
        "kind": _KIND.get(s.kind, 0),
        "startTimeUnixNano": str(s.start_time or 0),
        "endTimeUnixNano": str(s.end_time or 0),
        "attributes": attributes(s.attributes),
        "status": {"code": _STATUS.get(s.status.status_code, 0)},
    }
    if s.parent is not None:
        out["parentSpanId"] = format(s.parent.span_id, "016x")
    if s.status.description:
        out["status"]["message"] = s.status.description
    if s.events:
        out["events"] = [{"name": e.name, "timeUnixNano": str(e.timestamp), "attributes": attributes(e.attributes)} for e in s.events]
    return out


def export_request(spans: Sequence[ReadableSpan]) -> Dict[str, Any]:
    """An OTLP ExportTraceServiceRequest of spans, grouped by resource and
    instrumentation scope as the SDK's OTLP exporters group them."""
    groups: Dict[Tuple[int, Tuple[str, str]], Tuple[Any, Any, List[ReadableSpan]]] = {}
    for s in spans:
        scope = s.instrumentation_scope
        key = (id(s.resource), ((scope.name if scope else ""), (scope.version or "") if scope else ""))
        groups.setdefault(key, (s.resource, scope, []))[2].append(s)
    by_resource: Dict[int, Dict[str, Any]] = {}
    for (rid, _), (resource, scope, ss) in groups.items():
        rs = by_resource.setdefault(rid, {"resource": {"attributes": attributes(resource.attributes if resource else {})},
                                          "scopeSpans": []})
        sc: Dict[str, Any] = {"name": scope.name if scope else ""}
        if scope is not None and scope.version:
            sc["version"] = scope.version
        rs["scopeSpans"].append({"scope": sc, "spans": [span_json(s) for s in ss]})
    return {"resourceSpans": list(by_resource.values())}


class FileSpanExporter(SpanExporter):
    """Writes each batch of finished spans as one line of OTLP JSON to path
    (appended; the file is created when missing). Thread-safe; shutdown()
    closes the file."""

    def __init__(self, path: "str | os.PathLike[str]", *, append: bool = True) -> None:
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        self._f: Optional[IO[str]] = open(self.path, "a" if append else "w", encoding="utf-8")

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if not spans:
            return SpanExportResult.SUCCESS
        line = json.dumps(export_request(spans), ensure_ascii=False)
        with self._lock:
            if self._f is None:
                return SpanExportResult.FAILURE
            self._f.write(line + "\n")
            self._f.flush()
        return SpanExportResult.SUCCESS

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        with self._lock:
            if self._f is not None:
                self._f.flush()
        return True

    def shutdown(self) -> None:
        with self._lock:
            if self._f is not None:
                self._f.close()
                self._f = None


__all__ = ["FileSpanExporter", "export_request", "span_json"]

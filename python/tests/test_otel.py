"""Traces in one step: a chain instrumented with the OpenTelemetry SDK
(nested CHAIN, RETRIEVER and LLM spans with OpenInference attributes)
writes its spans through kgeval.otel.FileSpanExporter, and
kgeval.evaluate(traces=...) converts and scores them in one call: the same
scores as the same texts given as a DataFrame."""
import json
import math

import pandas as pd
import pytest
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

import kgeval
from conftest import jsonl, kgeval_cli, run_name
from kgeval.otel import FileSpanExporter

RULES = {"extraction": {"method": "rules"}, "scoring": {"verify": "off"}}


def rag_chain(tracer, question, passages, answer):
    """A RAG chain as OpenInference instruments one: the chain's span holds
    the question; the retriever's child span its documents; the LLM's
    child span the prompt and the answer."""
    with tracer.start_as_current_span("RAGChain") as chain:
        chain.set_attribute("openinference.span.kind", "CHAIN")
        chain.set_attribute("input.value", json.dumps({"question": question}))
        chain.set_attribute("input.mime_type", "application/json")
        with tracer.start_as_current_span("Retriever") as ret:
            ret.set_attribute("openinference.span.kind", "RETRIEVER")
            ret.set_attribute("input.value", question)
            for i, p in enumerate(passages):
                ret.set_attribute("retrieval.documents.%d.document.content" % i, p)
                ret.set_attribute("retrieval.documents.%d.document.score" % i, 1.0 - i / 10)
        with tracer.start_as_current_span("ChatModel") as llm:
            llm.set_attribute("openinference.span.kind", "LLM")
            llm.set_attribute("llm.model_name", "test-model")
            llm.set_attribute("llm.input_messages.0.message.role", "user")
            llm.set_attribute("llm.input_messages.0.message.content", "Context: %s\nQuestion: %s" % (" ".join(passages), question))
            llm.set_attribute("llm.output_messages.0.message.role", "assistant")
            llm.set_attribute("llm.output_messages.0.message.content", answer)
            llm.set_attribute("llm.token_count.total", 42)
        chain.set_attribute("output.value", answer)
        return answer


def test_traces_to_scores_in_one_call(wikieval, runs, tmp_path):
    path = tmp_path / "spans.jsonl"
    exporter = FileSpanExporter(path)
    provider = TracerProvider(resource=Resource.create({"service.name": "rag-app"}))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    tracer = provider.get_tracer("test-rag", "1.0")
    chosen = wikieval[:2]  # a grounded and an ungrounded answer to one question
    for r in chosen:
        rag_chain(tracer, r["question"], r["contexts"], r["answer"])
    provider.shutdown()  # flushes and closes the file

    # What the exporter wrote is OTLP JSON that import-traces reads.
    p = kgeval_cli("import-traces", str(path))
    assert "otlp-json, 6 spans in 2 traces: 2 samples, 0 rejected" in p.stderr, p.stderr
    samples = jsonl(p.stdout)
    assert [(s["question"], s["contexts"], s["answer"], s["system"]) for s in samples] == \
        [(r["question"], r["contexts"], r["answer"], "rag-app") for r in chosen]

    run = run_name("otel")
    runs.append(run)
    res = kgeval.evaluate(traces=str(path), run=run, metrics=["faithfulness"], config=RULES, progress=False)
    out = res.to_pandas()
    assert len(out) == 2 and list(out["response"]) == [r["answer"] for r in chosen], out
    assert all(isinstance(v, float) and not math.isnan(v) for v in out["faithfulness"]), out["faithfulness"]
    assert out["faithfulness"][0] > out["faithfulness"][1], list(out["faithfulness"])

    # The same texts given as a DataFrame: the same scores.
    run2 = run_name("otel-df")
    runs.append(run2)
    df = pd.DataFrame([{"user_input": r["question"], "retrieved_contexts": r["contexts"], "response": r["answer"]} for r in chosen])
    direct = kgeval.evaluate(df, run=run2, metrics=["faithfulness"], config=RULES, progress=False)
    assert list(direct.to_pandas()["faithfulness"]) == list(out["faithfulness"])


def test_exporter_after_shutdown(tmp_path):
    exporter = FileSpanExporter(tmp_path / "x.jsonl")
    exporter.shutdown()
    exporter.shutdown()  # twice is fine
    from opentelemetry.sdk.trace.export import SpanExportResult
    provider = TracerProvider()
    tracer = provider.get_tracer("t")
    with tracer.start_as_current_span("s") as s:
        pass
    assert exporter.export([s]) == SpanExportResult.FAILURE


def test_phoenix_dataframe_as_data(runs):
    """A Phoenix spans DataFrame given as data is converted (from_traces) and scored."""
    from conftest import TRACES
    df = pd.read_json(TRACES / "langchain-phoenix.jsonl", lines=True)
    run = run_name("phoenix")
    runs.append(run)
    with pytest.warns(UserWarning, match="no context"):
        res = kgeval.evaluate(df, run=run, metrics=["faithfulness"], config=RULES, progress=False, system="rag-v1")
    out = res.to_pandas()
    assert len(out) == 2 and set(out["system"]) == {"rag-v1"} and out["faithfulness"].notna().all(), out

#!/usr/bin/env python3
"""Records the spans of testdata/traces/ (issue 39): a small LangChain RAG chain,
instrumented by openinference-instrumentation-langchain, runs against an
OpenAI-compatible model server, and the OpenTelemetry SDK's OTLP/HTTP exporter
sends its spans to

  - a receiver in this script, which writes each export request as OTLP JSON
    (one request per line, ids in hex: the OTLP JSON encoding, as the
    Collector's file exporter writes it) to OUT/langchain-otlp.jsonl;
  - optionally a Phoenix server (--phoenix URL), exported afterwards by
    scripts/export_phoenix_spans.py.

Three traces and five model requests (max_tokens 64): a RAG chain, a nested
chain (the model rewrites the question, the retriever reads the rewrite, the
model answers) and a plain LLM call with no retriever (a trace import-traces
must reject, saying why).

Usage (scripts/requirements-traces.txt in a venv):
  python scripts/record_traces.py --base-url http://127.0.0.1:8089/v1 \\
      --model qwen2.5-coder-1.5b-instruct --out testdata/traces [--phoenix http://127.0.0.1:6006]
"""
import argparse
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

CORPUS = [
    ("pslv", "The PSLV-C56 mission was launched on Sunday, 30 July 2023 at 06:30 IST from the Satish Dhawan Space Centre, "
             "Sriharikota. Its primary payload was DS-SAR, a Singaporean radar imaging satellite."),
    ("eiffel", "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris. It was designed by Gustave "
               "Eiffel's company and completed in 1889 for the World's Fair."),
    ("danube", "The Danube is Europe's second-longest river. It rises in the Black Forest in Germany and flows through ten "
               "countries, among them Austria, Hungary and Romania, into the Black Sea."),
    ("curie", "Marie Curie was the first woman to win a Nobel Prize and the only person to win Nobel Prizes in two "
              "sciences: physics in 1903 and chemistry in 1911."),
]


def hexify(node):
    """OTLP JSON writes trace and span ids as hex, not protobuf JSON's base64."""
    import base64
    if isinstance(node, dict):
        for k, v in list(node.items()):
            if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str) and v:
                node[k] = base64.b64decode(v).hex()
            else:
                hexify(v)
    elif isinstance(node, list):
        for v in node:
            hexify(v)


def receiver(path):
    lock = threading.Lock()

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            req = ExportTraceServiceRequest()
            req.ParseFromString(body)
            d = MessageToDict(req)
            hexify(d)
            with lock, open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.end_headers()

        def log_message(self, *a):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-url", default="http://127.0.0.1:8089/v1")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    ap.add_argument("--out", default="testdata/traces")
    ap.add_argument("--phoenix", default="", help="also send the spans to this Phoenix server")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "langchain-otlp.jsonl")
    if os.path.exists(path):
        os.remove(path)
    srv = receiver(path)

    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from openinference.instrumentation.langchain import LangChainInstrumentor

    provider = TracerProvider(resource=Resource.create({"service.name": "rag-demo"}))
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint="http://127.0.0.1:%d/v1/traces" % srv.server_port)))
    if a.phoenix:
        provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=a.phoenix.rstrip("/") + "/v1/traces")))
    trace.set_tracer_provider(provider)
    LangChainInstrumentor().instrument(tracer_provider=provider)

    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnablePassthrough
    from langchain_openai import ChatOpenAI

    class KeywordRetriever(BaseRetriever):
        """The two passages sharing the most words with the query."""
        k: int = 2

        def _get_relevant_documents(self, query, *, run_manager: CallbackManagerForRetrieverRun):
            q = set(w.strip("?.,").lower() for w in query.split())
            scored = sorted(CORPUS, key=lambda d: -len(q & set(w.strip("?.,").lower() for w in d[1].split())))
            return [Document(page_content=t, metadata={"id": i}) for i, t in scored[: self.k]]

    llm = ChatOpenAI(base_url=a.base_url, api_key="none", model=a.model, temperature=0, max_tokens=64)
    retriever = KeywordRetriever()
    docs = lambda ds: "\n\n".join(d.page_content for d in ds)  # noqa: E731
    prompt = ChatPromptTemplate.from_messages([
        ("system", "Answer the question in one sentence, using only the context."),
        ("human", "Context:\n{context}\n\nQuestion: {question}"),
    ])
    rag = {"context": retriever | docs, "question": RunnablePassthrough()} | prompt | llm | StrOutputParser()
    print("rag:", rag.invoke("When was the PSLV-C56 mission launched, and from where?"))

    rewrite = ChatPromptTemplate.from_messages([
        ("human", "Rewrite this question as a short search query, nothing else: {question}"),
    ]) | llm | StrOutputParser()
    nested = ({"context": rewrite | retriever | docs, "question": RunnablePassthrough()} | prompt | llm | StrOutputParser())
    print("nested:", nested.invoke("Which two Nobel Prizes did Marie Curie win?"))

    print("plain:", llm.invoke("Say hello in French, one word.").content)
    provider.force_flush()
    provider.shutdown()
    srv.shutdown()
    print("wrote", path)


if __name__ == "__main__":
    main()

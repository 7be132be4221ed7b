"""import-traces and kgeval.from_traces on spans recorded from a LangChain RAG
chain instrumented by openinference-instrumentation-langchain
(scripts/record_traces.py): OTLP JSON and a Phoenix span export."""
import pandas as pd
import pytest

import kgeval
from conftest import TRACES, jsonl, kgeval_cli

EXPECTED = [
    ("When was the PSLV-C56 mission launched, and from where?",
     ["The PSLV-C56 mission was launched", "The Eiffel Tower is a wrought-iron"],
     "The PSLV-C56 mission was launched on Sunday, 30 July 2023 at 06:30 IST from the Satish Dhawan Space Centre, Sriharikota."),
    # The nested chain: the model rewrote the question for the retriever; the
    # sample keeps the user's question and the second call's answer.
    ("Which two Nobel Prizes did Marie Curie win?",
     ["Marie Curie was the first woman", "The PSLV-C56 mission was launched"],
     "Marie Curie won two Nobel Prizes: physics in 1903 and chemistry in 1911."),
]


def check(samples):
    assert len(samples) == len(EXPECTED), samples
    for s, (q, ctx, a) in zip(samples, EXPECTED):
        assert s["question"] == q and s["answer"] == a
        assert len(s["contexts"]) == len(ctx) and all(c.startswith(p) for c, p in zip(s["contexts"], ctx)), s["contexts"]
        assert s["id"] == s["metadata"]["trace_id"]


@pytest.mark.parametrize("name", ["langchain-otlp.jsonl", "langchain-phoenix.jsonl"])
def test_from_traces_file(name):
    with pytest.warns(UserWarning, match="no context"):  # the plain LLM call
        samples = kgeval.from_traces(str(TRACES / name))
    check(samples)


def test_from_traces_phoenix_dataframe():
    df = pd.read_json(TRACES / "langchain-phoenix.jsonl", lines=True)
    with pytest.warns(UserWarning, match="no context"):
        samples = kgeval.from_traces(df, system="rag-v1")
    check(samples)
    assert {s["system"] for s in samples} == {"rag-v1"}


def test_import_traces_cli(tmp_path):
    out = tmp_path / "samples.jsonl"
    p = kgeval_cli("import-traces", str(TRACES / "langchain-otlp.jsonl"), "--out", str(out))
    assert "otlp-json, 22 spans in 3 traces: 2 samples, 1 rejected" in p.stderr, p.stderr
    check(jsonl(out.read_text()))
    # What it writes is a dataset the binary reads.
    assert "2 records, 2 loaded, 0 rejected" in kgeval_cli("dataset", "check", str(out)).stdout

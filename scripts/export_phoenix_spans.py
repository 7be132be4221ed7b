#!/usr/bin/env python3
"""Exports the spans a Phoenix server holds as Phoenix's spans dataframe,
written as JSONL (testdata/traces/langchain-phoenix.jsonl, issue 39): the
"Phoenix span export" that `kgeval import-traces` and kgeval.from_traces read.
Run it after scripts/record_traces.py --phoenix URL, in a venv with
arize-phoenix (scripts/requirements-phoenix.txt).

Usage: python scripts/export_phoenix_spans.py --phoenix http://127.0.0.1:6006 --out testdata/traces/langchain-phoenix.jsonl
"""
import argparse

from phoenix.client import Client


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--phoenix", default="http://127.0.0.1:6006")
    ap.add_argument("--project", default="default")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    df = Client(base_url=a.phoenix).spans.get_spans_dataframe(project_identifier=a.project)
    df = df.reset_index(drop="context.span_id" in df.columns)
    df = df.sort_values("start_time")
    df.to_json(a.out, orient="records", lines=True, date_format="iso")
    print("wrote %s: %d spans, %d traces, columns %s" % (a.out, len(df), df["context.trace_id"].nunique(), ", ".join(sorted(df.columns))))


if __name__ == "__main__":
    main()

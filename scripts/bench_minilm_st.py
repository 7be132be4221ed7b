#!/usr/bin/env python3
"""Measure sentence-transformers (PyTorch, CPU) throughput for all-MiniLM-L6-v2.

Encodes the label set used by the Go benchmark (minilm/testdata/bench_labels.txt)
in calls of 1, 32 and 256 labels (one model.encode call per chunk, batch_size =
chunk size, normalised embeddings, numpy output: the same work the Go
minilm.Model.Embed call does) and prints labels/s per batch size.

Usage (venv from scripts/requirements-st.txt, model from scripts/fetch-minilm.sh):
  ~/.cache/kgeval/venv-st/bin/python scripts/bench_minilm_st.py [--threads 2|1,2]
      [--batches 1,32,256] [--min-seconds 5] [--json out.json]

On a busy machine torch's OpenMP threads can stall each other badly with
2 threads (a waiting thread is descheduled); --threads 1,2 shows both.
"""
import argparse
import json
import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", default=os.environ.get("KGEVAL_BENCH_THREADS", "2"),
                   help="torch intra-op threads; a comma-separated list measures each")
    p.add_argument("--batches", default="1,32,256")
    p.add_argument("--min-seconds", type=float, default=5.0,
                   help="minimum measured time per batch size (cycling through the label set)")
    p.add_argument("--labels", default=os.path.join(ROOT, "minilm", "testdata", "bench_labels.txt"))
    p.add_argument("--json", default="", help="also write the results as JSON to this path")
    return p.parse_args()


def main() -> None:
    args = parse_args()
    thread_counts = [int(x) for x in str(args.threads).split(",") if x]
    # Thread settings must be in place before torch starts its pools.
    os.environ.setdefault("OMP_NUM_THREADS", str(max(thread_counts)))
    os.environ.setdefault("MKL_NUM_THREADS", str(max(thread_counts)))
    import torch
    from sentence_transformers import SentenceTransformer

    base = os.environ.get("KGEVAL_EMBEDDING_MODELS_DIR") or os.environ.get("KGEVAL_MODELS_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "kgeval", "models")
    model_dir = os.path.join(base, "all-MiniLM-L6-v2")
    if not os.path.exists(os.path.join(model_dir, "model.safetensors")):
        sys.exit(f"model files missing in {model_dir}: run scripts/fetch-minilm.sh (make models)")
    with open(args.labels, encoding="utf-8") as f:
        labels = [line.rstrip("\n") for line in f if line.strip()]
    model = SentenceTransformer(model_dir, device="cpu")
    model.eval()

    def encode(i: int, bs: int) -> None:
        start = (i * bs) % len(labels)
        if start + bs > len(labels):
            start = 0
        model.encode(labels[start:start + bs], batch_size=bs, normalize_embeddings=True,
                     convert_to_numpy=True, show_progress_bar=False)

    results = []
    with torch.inference_mode():
        for th in thread_counts:
            torch.set_num_threads(th)
            for bs in [int(x) for x in args.batches.split(",") if x]:
                for i in range(3):  # warm-up
                    encode(i, bs)
                calls, t0 = 0, time.perf_counter()
                while True:
                    encode(calls, bs)
                    calls += 1
                    el = time.perf_counter() - t0
                    if el >= args.min_seconds and calls >= 3:
                        break
                n = calls * bs
                results.append({"threads": th, "batch": bs, "labels": n, "seconds": el,
                                "labels_per_s": n / el})
                print(f"threads {th} batch {bs:4d}: {n / el:10.1f} labels/s ({n} labels in {el:.2f}s)",
                      file=sys.stderr, flush=True)

    print(f"\nsentence-transformers all-MiniLM-L6-v2, torch {torch.__version__}, "
          f"{len(labels)} labels ({args.labels})")
    print(f"{'threads':>7} {'batch':>6} {'labels/s':>12} {'ms/call':>10}")
    for r in results:
        print(f"{r['threads']:>7} {r['batch']:>6} {r['labels_per_s']:>12.1f} "
              f"{1000 * r['batch'] / r['labels_per_s']:>10.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"impl": "sentence-transformers", "torch": torch.__version__,
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()

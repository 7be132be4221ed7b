"""Where kgeval keeps its state on this machine: the user's cache folder,
the bundled Neo4j's state folder, and the environment the ``kgeval``
console script gives the binary. Both the binary's runner (_binary) and the
local Neo4j (_local) read them."""
from __future__ import annotations

import os
import sys
from typing import Dict


def cache_dir() -> str:
    """The user's cache folder for kgeval: $XDG_CACHE_HOME/kgeval or
    ~/.cache/kgeval (Linux), ~/Library/Caches/kgeval (macOS)."""
    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "kgeval")


def state_dir() -> str:
    """Where the bundled Neo4j keeps its jars, store, logs and password:
    $KGEVAL_STATE_DIR, else the folder an older wheel used when it holds a
    store (~/.local/share/kgeval), else cache_dir()."""
    d = os.environ.get("KGEVAL_STATE_DIR")
    if d:
        return d
    old = os.path.expanduser("~/.local/share/kgeval")
    if os.path.isdir(os.path.join(old, "neo4j", "data")):
        return old
    return cache_dir()


def console_env() -> Dict[str, str]:
    """What the ``kgeval`` console script adds to the binary's environment:
    the state folder the Python API uses, so that ``kgeval neo4j stop``
    stops the Neo4j that evaluate started."""
    return {} if os.environ.get("KGEVAL_STATE_DIR") else {"KGEVAL_STATE_DIR": state_dir()}

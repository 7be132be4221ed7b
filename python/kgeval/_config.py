"""config= for the binary: keys checked against the binary's own
(``kgeval config --keys``, the nearest named for an unknown one), merged with
what the call's arguments set, written to one --config file, and put above
the environment (a KGEVAL_* variable for a key that config= sets is not passed
on; a password given in both is reported)."""
from __future__ import annotations

import difflib
import json
import os
import warnings
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._errors import InvalidError

ConfigArg = Union[None, str, "os.PathLike[str]", Mapping[str, Any]]

_known: Optional[List[str]] = None


def known_keys() -> List[str]:
    """Every configuration key the binary reads (``kgeval config --keys``;
    a map's as ``key.*``)."""
    global _known
    if _known is None:
        from . import _binary
        _known = _binary.run(["config", "--keys"]).split()
    return _known


def flatten(d: Mapping[str, Any], prefix: str = "") -> Dict[str, Any]:
    """{"scoring": {"tau": 0.6}} -> {"scoring.tau": 0.6}; lists are leaves."""
    out: Dict[str, Any] = {}
    for k, v in d.items():
        key = prefix + str(k)
        if isinstance(v, Mapping) and v:
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def check_keys(d: Mapping[str, Any], where: str = "config") -> None:
    """Raises InvalidError for a key the binary does not know, naming the
    nearest known key (difflib)."""
    known = known_keys()
    exact = set(known)
    maps = [k[:-2] for k in known if k.endswith(".*")]
    for key in flatten(d):
        if key in exact or any(key.startswith(m + ".") or key == m for m in maps):
            continue
        near = difflib.get_close_matches(key, [k[:-2] if k.endswith(".*") else k for k in known], n=1, cutoff=0.6)
        hint = " (did you mean %r?)" % near[0] if near else " (`kgeval config --keys` lists them)"
        raise InvalidError("%s: unknown key %r%s" % (where, key, hint))


def read(config: ConfigArg) -> Tuple[Dict[str, Any], Optional[str]]:
    """config= as a dict, and the project folder of a config file that is a
    project's configs/kgeval.yaml (its relative paths are under it)."""
    if config is None:
        return {}, None
    if isinstance(config, Mapping):
        return json.loads(json.dumps(config)), None
    path = os.fspath(config)
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    import yaml
    with open(path, encoding="utf-8") as f:
        d = yaml.safe_load(f) or {}
    if not isinstance(d, dict):
        raise InvalidError("config file %s: want a mapping of sections, not a %s" % (path, type(d).__name__))
    root = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    project = root if os.path.isfile(os.path.join(root, "configs", "kgeval.yaml")) else None
    return json.loads(json.dumps(d, default=str)), project


def merge(base: Dict[str, Any], over: Mapping[str, Any]) -> Dict[str, Any]:
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(base.get(k), dict):
            merge(base[k], v)
        else:
            base[k] = v
    return base


def env_var(key: str) -> str:
    return "KGEVAL_" + key.upper().replace(".", "_")


def environment(d: Mapping[str, Any], project: Optional[str]) -> Dict[str, Optional[str]]:
    """The environment changes that put config= above the environment: each
    KGEVAL_* variable of a key config= sets is removed (reported when it is
    the Neo4j password and differs), KGEVAL_HOME names a config file's
    project."""
    env: Dict[str, Optional[str]] = {}
    flat = flatten(d)
    for key, v in flat.items():
        var = env_var(key)
        if var in os.environ:
            env[var] = None
            if key in ("neo4j.password", "llm.api_key") and os.environ[var] != str(v):
                warnings.warn("kgeval: %s is given in config= and in %s: config= wins (docs/PYTHON.md, Configuration)"
                              % (key, var), stacklevel=4)
    if flat.get("neo4j.password") and "KGEVAL_NEO4J_PASSWORD_FILE" in os.environ:
        env["KGEVAL_NEO4J_PASSWORD_FILE"] = None
    if project and not os.environ.get("KGEVAL_HOME"):
        env["KGEVAL_HOME"] = project
    return env


def write(d: Mapping[str, Any], tmp: str) -> List[str]:
    """--config FILE for d (JSON, which is YAML), or nothing for an empty d."""
    if not d:
        return []
    path = os.path.join(tmp, "config.yaml")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    return ["--config", path]

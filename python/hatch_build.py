"""The build hook of pyproject.toml (hatchling): puts the kgeval binary into
the wheel as kgeval/bin/kgeval, writes kgeval/_version.py, and tags the
wheel for the binary's platform, with the rules of scripts/build-wheel.py
(make wheel), which this imports.

The binary is $KGEVAL_BINARY_PATH, else ../bin/kgeval (make build); its
version $KGEVAL_BINARY_VERSION, else what `kgeval version` prints.
"""
import importlib.util
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _builder():
    spec = importlib.util.spec_from_file_location("build_wheel", os.path.join(HERE, "..", "scripts", "build-wheel.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def binary_path():
    p = os.environ.get("KGEVAL_BINARY_PATH") or os.path.join(HERE, "..", "bin", "kgeval")
    if not os.path.isfile(p):
        raise RuntimeError("kgeval build hook: no binary at %s: run make build, or set KGEVAL_BINARY_PATH" % p)
    return os.path.abspath(p)


def binary_version():
    v = os.environ.get("KGEVAL_BINARY_VERSION")
    if v:
        return v
    out = subprocess.run([binary_path(), "version"], stdout=subprocess.PIPE, text=True, check=True).stdout
    m = re.match(r"kgeval (\S+)", out)
    return m.group(1) if m else "dev"


def wheel_version():
    return _builder().pep440(binary_version())


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # imported for wheel_version() alone
    BuildHookInterface = object


class KgevalBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        if self.target_name != "wheel":
            return
        b = _builder()
        binary, bv = binary_path(), binary_version()
        tags = b.binary_tags(binary)
        build_data["pure_python"] = False
        build_data["tag"] = tags[0] if len(tags) == 1 else ".".join(t.split("-")[0] for t in tags[:1]) + "-none-" + ".".join(t.split("-", 2)[2] for t in tags)
        build_data["force_include"][binary] = "kgeval/bin/kgeval"
        self._tmp = tempfile.mkdtemp(prefix="kgeval-build-")
        ver = os.path.join(self._tmp, "_version.py")
        with open(ver, "w") as f:
            f.write('"""Written by the build hook (python/hatch_build.py)."""\n__version__ = %r\nBINARY_VERSION = %r\n' % (b.pep440(bv), bv))
        build_data["force_include"][ver] = "kgeval/_version.py"

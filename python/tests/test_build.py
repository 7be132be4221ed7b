"""The standard build: `pip wheel python/` (pyproject.toml, hatchling, the
build hook that adds the binary) gives the wheel make wheel gives: the same
files, the same binary, tags, requirements and entry points."""
import hashlib
import os
import subprocess
import sys
import zipfile

from conftest import REPO


def meta(z, name):
    info = next(n for n in z.namelist() if n.endswith(".dist-info/" + name))
    return z.read(info).decode()


def requires(text):
    from packaging.requirements import Requirement
    out = []
    for l in text.splitlines():
        if l.startswith("Requires-Dist:"):
            r = Requirement(l.split(":", 1)[1])
            out.append((r.name.lower(), sorted(str(s) for s in r.specifier), str(r.marker)))
    return sorted(out)


def test_pip_wheel_matches_make_wheel(tmp_path):
    made = os.environ.get("KGEVAL_WHEEL")
    assert made, "KGEVAL_WHEEL is set by scripts/python-test.sh"
    env = dict(os.environ, KGEVAL_BINARY_PATH=os.environ["KGEVAL_BUILT_BINARY"])
    p = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-build-isolation",
                        "--no-deps", "-w", str(tmp_path), str(REPO / "python")], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 0, p.stdout[-3000:]
    (built,) = list(tmp_path.glob("kgeval-*.whl"))
    assert built.name == os.path.basename(made), (built.name, made)
    with zipfile.ZipFile(built) as a, zipfile.ZipFile(made) as b:
        files = lambda z: sorted(n for n in z.namelist() if ".dist-info/" not in n)
        assert files(a) == files(b)
        assert hashlib.sha256(a.read("kgeval/bin/kgeval")).digest() == hashlib.sha256(b.read("kgeval/bin/kgeval")).digest()
        assert (a.getinfo("kgeval/bin/kgeval").external_attr >> 16) & 0o111
        assert a.read("kgeval/_version.py").split(b"\n")[1:] == b.read("kgeval/_version.py").split(b"\n")[1:]
        for n in files(a):
            if n.endswith(".py") and n != "kgeval/_version.py":
                assert a.read(n) == b.read(n), n
        tags = lambda z: sorted(l for l in meta(z, "WHEEL").splitlines() if l.startswith("Tag:"))
        assert tags(a) == tags(b)
        assert requires(meta(a, "METADATA")) == requires(meta(b, "METADATA"))
        eps = lambda z: sorted(l.replace(" ", "") for l in meta(z, "entry_points.txt").splitlines() if "=" in l)
        assert eps(a) == eps(b) == ["kgeval=kgeval._binary:main", "kgeval=kgeval.pytest_plugin"]

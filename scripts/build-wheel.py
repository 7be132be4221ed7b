#!/usr/bin/env python3
"""make wheel: a platform wheel that carries the static kgeval binary (the one
`make build` makes) and the pure-Python package in python/kgeval, written with
the standard library alone (the go-to-wheel pattern: the binary is package
data, a console script runs it).

Usage: scripts/build-wheel.py --binary bin/kgeval --version VERSION --src python --out dist

VERSION is the binary's own version (git describe, as the Makefile passes it
to -ldflags); the wheel's version is its PEP 440 form (v1.2.3 -> 1.2.3,
79e8faa-dirty -> 0.0.0+g79e8faa.dirty), and kgeval/_version.py records both,
so that the package and the binary it carries name one version.

The binary must be static (CGO_ENABLED=0): it then runs on any Linux of its
architecture, glibc or musl, and the wheel is tagged manylinux_2_17 and
musllinux_1_1 for it. A dynamically linked binary is refused, since it would
need the build machine's libc. A Mach-O binary (GOOS=darwin, cross-compiled
by make wheel) gives a macosx_12_0 wheel of its architecture.
"""
import argparse
import base64
import hashlib
import io
import os
import re
import stat
import sys
import zipfile

NAME = "kgeval"


def project_metadata(src):
    """Summary, Python versions, requirements, extras and entry points from
    SRC/pyproject.toml, the one place they are written (pip wheel python/
    builds from it too)."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        sys.exit("build-wheel: reading python/pyproject.toml needs Python 3.11 or later (tomllib)")
    with open(os.path.join(src, "pyproject.toml"), "rb") as f:
        proj = tomllib.load(f)["project"]
    entry = {"console_scripts": proj.get("scripts", {})}
    entry.update(proj.get("entry-points", {}))
    return proj["description"], proj["requires-python"], proj.get("dependencies", []), proj.get("optional-dependencies", {}), entry


ARCH = {"x86-64": "x86_64", "aarch64": "aarch64", "ARM aarch64": "aarch64"}


def pep440(version):
    v = version.strip()
    m = re.fullmatch(r"v?(\d+(?:\.\d+)*)", v)
    if m:
        return m.group(1)
    m = re.fullmatch(r"v?(\d+(?:\.\d+)*)-(\d+)-g([0-9a-f]+)(-dirty)?", v)
    if m:
        local = "g" + m.group(3) + (".dirty" if m.group(4) else "")
        return "%s.post%s+%s" % (m.group(1), m.group(2), local)
    m = re.fullmatch(r"([0-9a-f]{4,40})(-dirty)?", v)
    if m:
        return "0.0.0+g%s%s" % (m.group(1), ".dirty" if m.group(2) else "")
    local = re.sub(r"[^A-Za-z0-9]+", ".", v).strip(".") or "unknown"
    return "0.0.0+" + local


def elf_info(path):
    """The wheel architecture of a static ELF binary; exits when it is not one."""
    with open(path, "rb") as f:
        head = f.read(64)
        f.seek(0)
        data = f.read()
    if head[:4] != b"\x7fELF":
        sys.exit("build-wheel: %s is not an ELF binary" % path)
    machine = int.from_bytes(head[18:20], "little")
    arch = {62: "x86_64", 183: "aarch64"}.get(machine)
    if arch is None:
        sys.exit("build-wheel: %s: unsupported ELF machine %d" % (path, machine))
    if b"/lib64/ld-linux" in data[:4096] or b"/lib/ld-linux" in data[:4096] or b"ld-musl" in data[:4096]:
        sys.exit("build-wheel: %s is dynamically linked (it names a libc loader): build it with CGO_ENABLED=0 (make build)" % path)
    return arch


#: Mach-O CPU types (mach/machine.h) -> wheel architecture.
MACHO_CPU = {0x0100000C: "arm64", 0x01000007: "x86_64"}
#: The oldest macOS a Go 1.25+ binary runs on (Go 1.25 release notes: macOS 12 Monterey).
MACOS_MIN = "12_0"


def binary_tags(path):
    """The wheel tags of a static binary: an ELF one runs on any Linux of its
    architecture (manylinux and musllinux); a Mach-O one (cross-compiled
    with GOOS=darwin, CGO_ENABLED=0) on macOS 12 and later."""
    with open(path, "rb") as f:
        head = f.read(16)
    if head[:4] == b"\xcf\xfa\xed\xfe":  # MH_MAGIC_64, little-endian
        cpu = int.from_bytes(head[4:8], "little")
        arch = MACHO_CPU.get(cpu)
        if arch is None:
            sys.exit("build-wheel: %s: unsupported Mach-O CPU type %#x" % (path, cpu))
        return ["py3-none-macosx_%s_%s" % (MACOS_MIN, arch)]
    arch = elf_info(path)
    return ["py3-none-manylinux_2_17_%s" % arch, "py3-none-manylinux2014_%s" % arch, "py3-none-musllinux_1_1_%s" % arch]


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--src", required=True, help="folder holding the kgeval package")
    ap.add_argument("--out", required=True)
    ap.add_argument("--readme", default="docs/PYTHON.md")
    a = ap.parse_args()

    version = pep440(a.version)
    tags = binary_tags(a.binary)
    plat = ".".join(t.split("-", 2)[2] for t in tags)
    dist_info = "%s-%s.dist-info" % (NAME, version)
    files = []  # (name, bytes, executable)

    pkg = os.path.join(a.src, NAME)
    for root, dirs, names in os.walk(pkg):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for n in sorted(names):
            if n.endswith((".pyc", ".pyo")) or n == "kgeval" and os.path.basename(root) == "bin":
                continue
            p = os.path.join(root, n)
            rel = os.path.relpath(p, a.src).replace(os.sep, "/")
            with open(p, "rb") as f:
                files.append((rel, f.read(), False))
    files.append((NAME + "/_version.py",
                  ('"""Written by scripts/build-wheel.py."""\n__version__ = %r\nBINARY_VERSION = %r\n' % (version, a.version)).encode(), False))
    with open(a.binary, "rb") as f:
        files.append((NAME + "/bin/kgeval", f.read(), True))

    summary, requires_python, requires, extras, entry_points = project_metadata(a.src)
    readme = ""
    if os.path.exists(a.readme):
        with open(a.readme, encoding="utf-8") as f:
            readme = f.read()
    meta = ["Metadata-Version: 2.1", "Name: " + NAME, "Version: " + version, "Summary: " + summary,
            "License: see the kgeval repository", "Requires-Python: " + requires_python]
    meta += ["Requires-Dist: " + r for r in requires]
    for extra, reqs in extras.items():
        meta.append("Provides-Extra: " + extra)
        meta += ['Requires-Dist: %s ; extra == "%s"' % (r, extra) for r in reqs]
    meta.append("Description-Content-Type: text/markdown")
    metadata = ("\n".join(meta) + "\n\n" + readme).encode()
    wheel = ("Wheel-Version: 1.0\nGenerator: kgeval scripts/build-wheel.py\nRoot-Is-Purelib: false\n"
             + "".join("Tag: %s\n" % t for t in tags)).encode()
    entry = "".join("[%s]\n%s\n" % (group, "".join("%s = %s\n" % kv for kv in eps.items())) for group, eps in entry_points.items()).encode()
    files += [(dist_info + "/METADATA", metadata, False), (dist_info + "/WHEEL", wheel, False),
              (dist_info + "/entry_points.txt", entry, False), (dist_info + "/top_level.txt", b"kgeval\n", False)]

    os.makedirs(a.out, exist_ok=True)
    out = os.path.join(a.out, "%s-%s-py3-none-%s.whl" % (NAME, version, plat))
    for old in os.listdir(a.out):  # an older wheel of the same platform
        if old.startswith(NAME + "-") and old.endswith("-py3-none-%s.whl" % plat):
            os.remove(os.path.join(a.out, old))
    record = [record_line(n, d) for n, d, _ in files] + [dist_info + "/RECORD,,"]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, exe in files + [(dist_info + "/RECORD", ("\n".join(record) + "\n").encode(), False)]:
            zi = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = ((0o755 if exe else 0o644) | stat.S_IFREG) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    print("build-wheel: %s (%d files, %.1f MB; binary version %s)" % (out, len(files) + 1, os.path.getsize(out) / 1e6, a.version))


if __name__ == "__main__":
    main()

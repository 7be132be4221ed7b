#!/usr/bin/env python3
"""Writes deploy/neo4j/jars.lock: the Neo4j + GDS jars that Maven resolves
from deploy/neo4j/pom.xml, each with its Maven Central path, size and
sha256, so that `kgeval neo4j start` fetches exactly them with no Maven
(deploy/neo4j/install.go).

Usage: scripts/neo4j-lock.py [--home DIR] [--m2 DIR] [--check-central]

DIR is a Neo4j home that `deploy/neo4j/neo4j.sh install` filled with Maven
(lib/ and plugins/, default $KGEVAL_STATE_DIR/neo4j or .kgeval/neo4j), the
m2 folder the Maven repository it resolved into (default ~/.cache/kgeval/m2):
each jar is found there by name and sha256, which gives its path on Maven
Central. --check-central asks Maven Central (HEAD) that every path is there.
Run it after a change of pom.xml: the lock names the pom's sha256, and a Go
test fails while they disagree.
"""
import argparse
import hashlib
import os
import sys
import urllib.request

CENTRAL = "https://repo1.maven.org/maven2"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", default=os.path.join(os.environ.get("KGEVAL_STATE_DIR") or os.path.join(root, ".kgeval"), "neo4j"))
    ap.add_argument("--m2", default=os.environ.get("KGEVAL_M2_REPO") or os.path.expanduser("~/.cache/kgeval/m2"))
    ap.add_argument("--out", default=os.path.join(root, "deploy", "neo4j", "jars.lock"))
    ap.add_argument("--check-central", action="store_true")
    a = ap.parse_args()

    by_name = {}
    for d, _, names in os.walk(a.m2):
        for n in names:
            if n.endswith(".jar"):
                by_name.setdefault(n, []).append(os.path.join(d, n))
    lines = []
    total = 0
    for sub in ("lib", "plugins"):
        folder = os.path.join(a.home, sub)
        jars = sorted(n for n in os.listdir(folder) if n.endswith(".jar"))
        if not jars:
            sys.exit("neo4j-lock: no jar in %s: run deploy/neo4j/neo4j.sh install first" % folder)
        for n in jars:
            p = os.path.join(folder, n)
            digest, size = sha256(p), os.path.getsize(p)
            match = [m for m in by_name.get(n, []) if os.path.getsize(m) == size and sha256(m) == digest]
            if not match:
                sys.exit("neo4j-lock: %s/%s is not in %s with the same sha256" % (sub, n, a.m2))
            rel = os.path.relpath(match[0], a.m2).replace(os.sep, "/")
            lines.append("%s %d %s/%s %s" % (digest, size, sub, n, rel))
            total += size
    with open(os.path.join(root, "deploy", "neo4j", "pom.xml"), "rb") as f:
        pom = hashlib.sha256(f.read()).hexdigest()
    if a.check_central:
        for l in lines:
            url = CENTRAL + "/" + l.split()[3]
            req = urllib.request.Request(url, method="HEAD")
            with urllib.request.urlopen(req, timeout=30) as r:
                if int(r.headers.get("Content-Length", "-1")) != int(l.split()[1]):
                    sys.exit("neo4j-lock: %s: size %s on Maven Central, %s here" % (url, r.headers.get("Content-Length"), l.split()[1]))
    head = ["# The Neo4j + GDS jars of deploy/neo4j/pom.xml as Maven resolved them: sha256, size, where it goes",
            "# in the Neo4j home, its path on Maven Central (%s). Written by scripts/neo4j-lock.py;" % CENTRAL,
            "# `kgeval neo4j start` fetches these (deploy/neo4j/install.go), no Maven.",
            "# pom.xml sha256 %s" % pom,
            "# %d jars, %d bytes" % (len(lines), total)]
    with open(a.out, "w") as f:
        f.write("\n".join(head + lines) + "\n")
    print("neo4j-lock: %s: %d jars, %.1f MB" % (a.out, len(lines), total / 1e6))


if __name__ == "__main__":
    main()

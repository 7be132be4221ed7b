"""Ctrl-C in Python records the run as interrupted (the binary gets SIGINT,
not SIGKILL), and resume=True finishes it."""
import json
import signal
import subprocess
import sys
import time

import kgeval
from conftest import WIKIEVAL, run_name

SCRIPT = r'''
import json, sys
import kgeval
with open(sys.argv[1]) as f:
    recs = [json.loads(l) for l in f][:60]
try:
    kgeval.evaluate(recs, run=sys.argv[2], metrics="kg", cache_only=True, progress=False)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(130)
print("finished", flush=True)
'''


def status(run):
    for r in kgeval.runs.list():
        if r["name"] == run:
            return r["status"]
    return None


def test_ctrl_c_marks_the_run_interrupted(runs, tmp_path):
    run = run_name("ctrlc")
    runs.append(run)
    script = tmp_path / "slow.py"
    script.write_text(SCRIPT)
    with subprocess.Popen([sys.executable, str(script), str(WIKIEVAL), run], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as p:
        deadline = time.monotonic() + 120
        while status(run) != "running":
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline, "the run never started"
            time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "KeyboardInterrupt" in out, (p.returncode, out, err[-2000:])
    assert status(run) == "interrupted", status(run)
    with open(WIKIEVAL) as f:
        recs = [json.loads(l) for l in f][:60]
    res = kgeval.evaluate(recs, run=run, metrics="kg", cache_only=True, progress=False, resume=True)
    assert status(run) == "done" and len(res.to_pandas()) == 60 and res.summary["samples"] == 60

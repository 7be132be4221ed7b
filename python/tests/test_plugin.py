"""The pytest plugin on a passing and a failing sample, under -W error: the
failing test's message starts with kgeval's own (no plugin source), names its
unsupported claim with its evidence; inline samples share one run, deleted
at the end unless kept; the session summary; JUnit through --junitxml."""
import json
import re
import xml.etree.ElementTree as ET

import kgeval
from conftest import kgeval_cli, run_name

TEST_FILE = '''
import kgeval

@kgeval.parametrize(%r)
def test_rag(sample, kgeval_assert):
    kgeval_assert(sample, faithfulness=0.6)
'''

INLINE = '''
import json

with open(%r) as f:
    SAMPLES = [json.loads(l) for l in f]

def test_first(kgeval_assert):
    kgeval_assert(dict(SAMPLES[0], id="inline-a"), faithfulness=0.6)

def test_second(kgeval_assert):
    kgeval_assert(dict(SAMPLES[1], id="inline-b"), faithfulness=0.6)
'''


def write_cases(pytester, recs):
    data = pytester.path / "cases.jsonl"
    with open(data, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    return data


def run_names():
    return {r["name"] for r in kgeval.runs.list()}


def test_plugin_pass_and_fail(pytester, wikieval):
    data = write_cases(pytester, wikieval[:2])  # wikieval-00-grounded, wikieval-00-ungrounded
    pytester.makepyfile(test_rag=TEST_FILE % str(data))
    run = run_name("plugin")
    try:
        res = pytester.runpytest_subprocess("-W", "error", "--kgeval-run", run, "--kgeval-cache-only", "--kgeval-metrics", "kg",
                                            "--junitxml", str(pytester.path / "junit.xml"), "-p", "no:cacheprovider")
        out = res.stdout.str()
        res.assert_outcomes(passed=1, failed=1)
        assert "Warning" not in out, out
        # The red test says why: the claim, its verdict and its evidence,
        # and its traceback is the test's line, then kgeval's message.
        assert "test_rag[wikieval-00-ungrounded]" in out
        m = re.search(r"faithfulness score (\d\.\d\d) < 0\.60", out)
        assert m and float(m.group(1)) < 0.6, out
        assert "CONTRADICTED" in out and "30 August 2023" in out, out
        assert "evidence [passage 1]" in out and "30 July 2023" in out, out
        assert "kgeval explain --run %s --sample wikieval-00-ungrounded" % run in out
        failure = out[out.index("___ test_rag[wikieval-00-ungrounded] ___"):]
        assert "def check(" not in failure and "pytest_plugin.py" not in failure and "__tracebackhide__" not in failure, failure
        assert re.search(r">\s+kgeval_assert\(sample, faithfulness=0\.6\)\nE\s+AssertionError: kgeval: sample wikieval-00-ungrounded", failure), failure
        # The session summary.
        assert "2 samples checked in run %s: 1 passed, 1 failed" % run in out, out
        # JUnit: pytest's own --junitxml, with the scores as properties.
        cases = {c.get("name"): c for c in ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")}
        ok, bad = cases["test_rag[wikieval-00-grounded]"], cases["test_rag[wikieval-00-ungrounded]"]
        assert bad.find("failure") is not None and ok.find("failure") is None
        props = {p.get("name"): p.get("value") for p in ok.iter("property")}
        assert props["kgeval.run"] == run and float(props["kgeval.faithfulness.score"]) >= 0.6, props
        # A named run is kept.
        assert run in run_names()
    finally:
        kgeval_cli("runs", "delete", run, check=False)


def test_plugin_passing_under_w_error(pytester, wikieval):
    """A passing sample under -W error: exit 0, no ResourceWarning from the binary's pipes."""
    data = write_cases(pytester, wikieval[:1])
    pytester.makepyfile(test_rag=TEST_FILE % str(data))
    before = run_names()
    res = pytester.runpytest_subprocess("-W", "error", "--kgeval-cache-only", "--kgeval-metrics", "kg", "-p", "no:cacheprovider")
    out = res.stdout.str() + res.stderr.str()
    res.assert_outcomes(passed=1)
    assert res.ret == 0 and "ResourceWarning" not in out and "unclosed" not in out, out
    m = re.search(r"1 samples checked in run (\S+): 1 passed, 0 failed", out)
    assert m, out
    # The session's run is deleted at the end (no --kgeval-keep-runs).
    assert "run %s deleted (--kgeval-keep-runs keeps it)" % m.group(1) in out, out
    assert run_names() == before


def test_plugin_inline_samples_share_one_run(pytester, wikieval):
    data = write_cases(pytester, wikieval[:2])
    pytester.makepyfile(test_inline=INLINE % str(data))
    res = pytester.runpytest_subprocess("-W", "error", "--kgeval-cache-only", "--kgeval-metrics", "kg", "--kgeval-keep-runs",
                                        "-p", "no:cacheprovider")
    out = res.stdout.str()
    res.assert_outcomes(passed=1, failed=1)
    m = re.search(r"2 samples checked in run (\S+): 1 passed, 1 failed", out)
    assert m, out
    run = m.group(1)
    try:
        assert "(run %s)" % run in out and "deleted" not in out, out
        # One run holds both inline samples.
        assert sorted(r["id"] for r in kgeval.result(run).rows()) == ["inline-a", "inline-b"]
    finally:
        kgeval_cli("runs", "delete", run, check=False)

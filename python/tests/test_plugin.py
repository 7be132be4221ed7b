"""The pytest plugin on a passing and a failing sample: the failing test's
message names its unsupported claim with its evidence; the session summary;
JUnit through pytest's own --junitxml."""
import json
import re
import xml.etree.ElementTree as ET

from conftest import kgeval_cli, run_name

TEST_FILE = '''
import kgeval

@kgeval.parametrize(%r)
def test_rag(sample, kgeval_assert):
    kgeval_assert(sample, faithfulness=0.6)
'''


def test_plugin_pass_and_fail(pytester, wikieval):
    data = pytester.path / "cases.jsonl"
    with open(data, "w", encoding="utf-8") as f:
        for r in wikieval[:2]:  # wikieval-00-grounded, wikieval-00-ungrounded
            f.write(json.dumps(r) + "\n")
    pytester.makepyfile(test_rag=TEST_FILE % str(data))
    run = run_name("plugin")
    try:
        res = pytester.runpytest_subprocess("--kgeval-run", run, "--kgeval-cache-only", "--kgeval-metrics", "kg",
                                            "--junitxml", str(pytester.path / "junit.xml"), "-p", "no:cacheprovider")
        out = res.stdout.str()
        res.assert_outcomes(passed=1, failed=1)
        # The red test says why: the claim, its verdict and its evidence.
        assert "test_rag[wikieval-00-ungrounded]" in out
        m = re.search(r"faithfulness score (\d\.\d\d) < 0\.60", out)
        assert m and float(m.group(1)) < 0.6, out
        assert "CONTRADICTED" in out and "30 August 2023" in out, out
        assert "evidence [passage 1]" in out and "30 July 2023" in out, out
        assert "kgeval explain --run %s --sample wikieval-00-ungrounded" % run in out
        # The session summary.
        assert "2 samples checked in run %s: 1 passed, 1 failed" % run in out, out
        # JUnit: pytest's own --junitxml, with the scores as properties.
        cases = {c.get("name"): c for c in ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")}
        ok, bad = cases["test_rag[wikieval-00-grounded]"], cases["test_rag[wikieval-00-ungrounded]"]
        assert bad.find("failure") is not None and ok.find("failure") is None
        props = {p.get("name"): p.get("value") for p in ok.iter("property")}
        assert props["kgeval.run"] == run and float(props["kgeval.faithfulness.score"]) >= 0.6, props
    finally:
        kgeval_cli("runs", "delete", run, check=False)

"""The wheel: installed, the console script, the bundled binary, one version."""
import hashlib
import os
import shutil
import subprocess
import sys

import kgeval


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_import_from_the_wheel():
    assert "site-packages" in kgeval.__file__, kgeval.__file__
    assert os.access(kgeval.binary(), os.X_OK)


def test_binary_is_the_one_make_build_makes():
    built = os.environ.get("KGEVAL_BUILT_BINARY")
    assert built, "KGEVAL_BUILT_BINARY (bin/kgeval) is set by scripts/python-test.sh"
    assert sha256(kgeval.binary()) == sha256(built)


def test_one_version():
    out = subprocess.run([shutil.which("kgeval", path=os.path.dirname(sys.executable)), "version"],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    assert out.startswith("kgeval %s " % kgeval.BINARY_VERSION), out
    assert kgeval.version() == out.strip()
    v = kgeval.BINARY_VERSION.replace("-dirty", "")
    assert v.lstrip("v").split("-")[0] in kgeval.__version__ or ("g" + v) in kgeval.__version__, (kgeval.__version__, kgeval.BINARY_VERSION)


def test_doctor_from_the_console_script():
    exe = shutil.which("kgeval", path=os.path.dirname(sys.executable))
    p = subprocess.run([exe, "doctor"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "ok    neo4j" in p.stdout and "ok    gds" in p.stdout, p.stdout


def test_neo4j_command_says_java_is_needed(tmp_path):
    """kgeval neo4j start, where JAVA_HOME holds no Java, says that Neo4j needs Java 17 or 21."""
    env = dict(os.environ, JAVA_HOME=str(tmp_path / "no-java"), KGEVAL_STATE_DIR=str(tmp_path / "state"))
    p = subprocess.run([kgeval.binary(), "neo4j", "start"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.returncode == 3, p.stderr
    assert "Neo4j 5.26 needs Java 17 or 21" in p.stderr and "KGEVAL_NEO4J_URI" in p.stderr, p.stderr

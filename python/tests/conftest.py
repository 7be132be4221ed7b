"""The Python suite of make test (scripts/python-test.sh): the wheel installed
in a fresh venv, against the real Neo4j + GDS of the Go tests (KGEVAL_NEO4J_URI,
KGEVAL_NEO4J_PASSWORD) and the bundled WikiEval records replayed from the cache
snapshot with no model call (--cache-only)."""
import json
import os
import pathlib
import re
import socket
import subprocess
import threading
import time

import pytest

import kgeval

pytest_plugins = ["pytester"]

# pytester's inner sessions run with HOME in a temporary directory: name the
# encoder's files where they are (scripts/fetch-minilm.sh put them).
os.environ.setdefault("KGEVAL_EMBEDDING_MODELS_DIR", os.path.expanduser("~/.cache/kgeval/models"))

REPO = pathlib.Path(os.environ.get("KGEVAL_REPO") or pathlib.Path(__file__).resolve().parents[2])
SNAPSHOT = REPO / "testdata" / "cache" / "wikieval50.jsonl.gz"
WIKIEVAL = REPO / "testdata" / "wikieval50.jsonl"
TRACES = REPO / "testdata" / "traces"


def kgeval_cli(*args, check=True):
    """Runs the installed binary as a user would (the console script's binary)."""
    p = subprocess.run([kgeval.binary(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        raise AssertionError("kgeval %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return p


def jsonl(text):
    return [json.loads(l) for l in text.splitlines() if l.strip()]


@pytest.fixture(scope="session", autouse=True)
def snapshot():
    """The WikiEval-50 cache snapshot in the model cache (kgeval cache import)."""
    for v in ("KGEVAL_NEO4J_URI", "KGEVAL_NEO4J_PASSWORD"):
        if not os.environ.get(v):
            pytest.fail("%s is not set: run through make test (scripts/python-test.sh)" % v)
    kgeval_cli("cache", "import", str(SNAPSHOT))


@pytest.fixture(scope="session")
def wikieval():
    """The first 6 WikiEval-50 records: 2 questions, each with a grounded, an
    ungrounded and a poor answer."""
    with open(WIKIEVAL, encoding="utf-8") as f:
        return [json.loads(l) for l in f][:6]


@pytest.fixture
def runs():
    """Run names to delete after the test."""
    names = []
    yield names
    for n in names:
        kgeval_cli("runs", "delete", n, check=False)


def run_name(prefix):
    return kgeval.new_run_name("pytest-" + prefix)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    """Starts `kgeval serve` (with an API token) and returns (url, token);
    server(env) starts it with env added (a Neo4j URI of its own)."""
    procs = []

    def start(env=None):
        out = kgeval_cli("serve", "new-token", "pytest").stdout
        token = re.search(r"token:\s+(\S+)", out).group(1)
        sha = re.search(r"sha256: (\w+)", out).group(1)
        port = free_port()
        cfg = tmp_path / ("serve-%d.yaml" % port)
        cfg.write_text("web:\n  state_dir: %s\n  secure_cookies: false\n  tokens: [{name: pytest, sha256: %s}]\n" % (tmp_path / "web", sha))
        logpath = tmp_path / ("serve-%d.log" % port)
        with open(logpath, "w") as log:
            p = subprocess.Popen([kgeval.binary(), "serve", "--config", str(cfg), "--addr", "127.0.0.1:%d" % port],
                                 stdout=log, stderr=log, env=dict(os.environ, **(env or {})))
        procs.append(p)
        url = "http://127.0.0.1:%d" % port
        deadline = time.monotonic() + 60
        while True:
            try:
                kgeval.Client(url, token)._request("GET", "/healthz")
                return url, token
            except kgeval.KgevalError:
                if p.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("kgeval serve did not start: " + logpath.read_text()[-2000:])
                time.sleep(0.5)

    yield start
    for p in procs:
        p.terminate()
        p.wait(30)


class Proxy:
    """A TCP relay to 127.0.0.1:target on a port of its own, that can be cut
    (fault injection: a Neo4j that stops answering)."""

    def __init__(self, target):
        self.target = target
        self.lsock = socket.socket()
        self.lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(64)
        self.port = self.lsock.getsockname()[1]
        self.conns = []
        self.cut_ = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.cut_:
            try:
                c, _ = self.lsock.accept()
            except OSError:
                return
            if self.cut_:
                c.close()
                return
            u = socket.create_connection(("127.0.0.1", self.target))
            self.conns += [c, u]
            for a, b in ((c, u), (u, c)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self):
        """Closes the listener and every relayed connection."""
        self.cut_ = True
        self.lsock.close()
        for s in self.conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

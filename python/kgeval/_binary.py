"""The bundled kgeval binary: where it is, and running it (JSONL in, JSON out)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from typing import IO, Optional, Sequence

#: Exit codes of the binary (cmd/kgeval exitCode).
EXIT_FAILED, EXIT_USAGE, EXIT_UNAVAILABLE = 1, 2, 3


class KgevalError(RuntimeError):
    """The binary (or a kgeval server) refused or failed: ``message`` is its
    own message, ``code`` its exit status (1 failed, 2 bad input, 3 a service
    is unavailable) or, from a server, its error code (invalid, unauthorized,
    not_found, ...: kgeval's codes, error.go)."""

    def __init__(self, message: str, code=None, command: Optional[Sequence[str]] = None, stderr: str = ""):
        super().__init__(message)
        self.message, self.code, self.command, self.stderr = message, code, list(command or []), stderr


def binary() -> str:
    """Path of the kgeval binary: $KGEVAL_BINARY, else the one this package
    carries (kgeval/bin/kgeval in the wheel)."""
    env = os.environ.get("KGEVAL_BINARY")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "kgeval")
    if os.path.isfile(here):
        return here
    found = shutil.which("kgeval-go")
    if found:
        return found
    raise KgevalError("the kgeval binary is not in this package (kgeval/bin/kgeval): install the wheel "
                      "(make wheel; pip install dist/kgeval-*.whl) or set KGEVAL_BINARY")


def _pump(src: IO[bytes], sink: list, echo: Optional[IO[str]]) -> None:
    """Reads the binary's standard error as it comes: echoes it (progress
    bars included) and keeps it for the error message."""
    while True:
        chunk = src.read1(65536) if hasattr(src, "read1") else src.read(65536)
        if not chunk:
            return
        sink.append(chunk)
        if echo is not None:
            try:
                echo.write(chunk.decode("utf-8", "replace"))
                echo.flush()
            except Exception:  # a closed or odd stream must not kill the run
                pass


def run(args: Sequence[str], *, progress: bool = False, env: Optional[dict] = None, stdin: Optional[bytes] = None) -> str:
    """Runs ``kgeval ARGS`` and returns its standard output. Standard error
    (progress, notes) is shown on sys.stderr when progress is true. A non-zero
    exit raises KgevalError with the binary's own message."""
    cmd = [binary(), *args]
    full_env = dict(os.environ)
    if env:
        full_env.update({k: str(v) for k, v in env.items() if v is not None})
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env)
    err: list = []
    t = threading.Thread(target=_pump, args=(proc.stderr, err, sys.stderr if progress else None), daemon=True)
    t.start()
    try:
        if stdin is not None:
            proc.stdin.write(stdin)
            proc.stdin.close()
        out = proc.stdout.read()  # not communicate(): the thread alone reads stderr
        proc.wait()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    t.join()
    stderr = b"".join(err).decode("utf-8", "replace")
    if proc.returncode != 0:
        raise KgevalError(_message(stderr, proc.returncode), proc.returncode, cmd, stderr)
    return out.decode("utf-8")


def _message(stderr: str, code: int) -> str:
    """The binary's message: its last "kgeval: ..." line (main prints the
    error so), else the last lines of its standard error."""
    lines = [l.strip() for l in stderr.replace("\r", "\n").splitlines() if l.strip()]
    for l in reversed(lines):
        if l.startswith("kgeval: "):
            return l[len("kgeval: "):]
    return " / ".join(lines[-3:]) or "kgeval exited %d" % code


def main() -> None:
    """The ``kgeval`` console script: runs the bundled binary in place of this process."""
    b = binary()
    os.execv(b, [b, *sys.argv[1:]])

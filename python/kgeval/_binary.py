"""The bundled kgeval binary: where it is, and running it (JSONL in, JSON out)."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from typing import IO, Any, Dict, List, Mapping, Optional, Sequence, Union

from ._errors import BY_STATUS, KgevalError, error

#: Exit statuses of the binary that keep their meaning (docs/OPERATIONS.md
#: "Exit status"; one per error code since).
EXIT_FAILED, EXIT_USAGE, EXIT_UNAVAILABLE = 1, 2, 3

#: Variables every run of the binary gets on top of os.environ: the error
#: as JSON on stderr, and what kgeval.local set up (the bundled Neo4j's URI
#: and state folder once it started it).
EXTRA_ENV: Dict[str, str] = {"KGEVAL_ERROR_FORMAT": "json"}

#: Seconds an interrupted binary gets to record its run as interrupted
#: before it is killed.
INTERRUPT_GRACE = 30.0


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


def environ(env: Optional[Mapping[str, Optional[str]]] = None) -> Dict[str, str]:
    """The environment of one run of the binary: os.environ, EXTRA_ENV, then
    env (a None value removes the variable)."""
    full = dict(os.environ)
    full.update(EXTRA_ENV)
    for k, v in (env or {}).items():
        if v is None:
            full.pop(k, None)
        else:
            full[k] = str(v)
    return full


def _is_error_line(line: bytes) -> bool:
    return line.lstrip().startswith(b'{"code"')


#: A progress line of the binary when its stderr is not a terminal
#: (render.Progress): "extract  12/250 (3.1/s, ETA 1m2s)".
_PROGRESS = re.compile(rb"^(\S+)\s+(\d+)/(\d+) \(")


class Bars:
    """tqdm bars, one per stage of the binary, fed by its progress lines
    (tqdm.auto: widgets in a notebook, text bars elsewhere)."""

    def __init__(self) -> None:
        from tqdm.auto import tqdm
        self._tqdm = tqdm
        self.bars: Dict[str, Any] = {}

    def update(self, stage: str, done: int, total: int) -> None:
        b = self.bars.get(stage)
        if b is None:
            b = self.bars[stage] = self._tqdm(total=total, desc=stage, unit="it", leave=True)
        if b.total != total:
            b.total = total
            b.refresh()
        b.update(done - b.n)

    def close(self) -> None:
        for b in self.bars.values():
            b.close()


def progress_mode(progress: Union[bool, str]) -> Optional[str]:
    """How to show the binary's progress: "tqdm" (asked for, or True in a
    notebook when tqdm is installed), "text" (its own lines on stderr), or
    None."""
    if not progress:
        return None
    if progress == "tqdm" or (progress is True and "ipykernel" in sys.modules):
        try:
            import tqdm  # noqa: F401
            return "tqdm"
        except ImportError:
            if progress == "tqdm":
                raise
    return "text"


def _pump(src: IO[bytes], sink: List[bytes], echo: Optional[IO[str]], bars: Optional[Bars] = None) -> None:
    """Reads the binary's standard error as it comes: echoes it (progress
    included, the JSON error line left out: it becomes the exception), or
    feeds its progress lines to bars, and keeps it for the error message."""
    partial = b""
    while True:
        chunk = src.read1(65536) if hasattr(src, "read1") else src.read(65536)
        if not chunk:
            return
        sink.append(chunk)
        if echo is None and bars is None:
            continue
        lines = (partial + chunk).splitlines(keepends=True)
        partial = lines.pop() if lines and not lines[-1].endswith((b"\n", b"\r")) else b""
        shown = []
        for l in lines:
            if _is_error_line(l):
                continue
            m = _PROGRESS.match(l) if bars is not None else None
            if m and bars is not None:
                bars.update(m.group(1).decode(), int(m.group(2)), int(m.group(3)))
            else:
                shown.append(l)
        if shown and echo is not None:
            try:
                echo.write(b"".join(shown).decode("utf-8", "replace"))
                echo.flush()
            except Exception:  # a closed or odd stream must not kill the run
                pass


def run(args: Sequence[str], *, progress: Union[bool, str] = False, env: Optional[Mapping[str, Optional[str]]] = None,
        stdin: Optional[bytes] = None, stderr_lines: Optional[List[str]] = None) -> str:
    """Runs ``kgeval ARGS`` and returns its standard output. Standard error
    (progress, notes) is shown on sys.stderr when progress is true, and its
    lines are appended to stderr_lines when given; progress="tqdm" (or True
    in a notebook, with tqdm installed) draws its progress as tqdm bars. A non-zero exit raises the
    KgevalError subclass of the binary's error code with its own message.

    A KeyboardInterrupt (Ctrl-C) is passed on to the binary as SIGINT, which
    records an evaluation as interrupted (``resume=True`` finishes it); the
    binary is killed only if it has not stopped INTERRUPT_GRACE seconds later.
    Every pipe is closed before this returns or raises."""
    cmd = [binary(), *args]
    err: List[bytes] = []
    mode = progress_mode(progress)
    bars = Bars() if mode == "tqdm" else None
    with subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ(env)) as proc:
        t = threading.Thread(target=_pump, args=(proc.stderr, err, sys.stderr if mode else None, bars), daemon=True)
        t.start()
        try:
            if stdin is not None:
                assert proc.stdin is not None
                proc.stdin.write(stdin)
                proc.stdin.close()
            assert proc.stdout is not None
            out = proc.stdout.read()  # not communicate(): the thread alone reads stderr
            proc.wait()
        except KeyboardInterrupt:
            _interrupt(proc)
            t.join(5)
            raise
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        t.join()
    if bars is not None:
        bars.close()
    text = b"".join(err).decode("utf-8", "replace")
    if stderr_lines is not None:
        stderr_lines.extend(l for l in text.splitlines() if l.strip() and not _is_error_line(l.encode()))
    if proc.returncode != 0:
        raise binary_error(text, proc.returncode, cmd)
    return out.decode("utf-8")


def _interrupt(proc: "subprocess.Popen[bytes]") -> None:
    """Asks the binary to stop as Ctrl-C does (it records the run as
    interrupted), then waits for it; kills it after INTERRUPT_GRACE."""
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGINT)
        except OSError:
            pass
    try:
        proc.wait(INTERRUPT_GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    except KeyboardInterrupt:  # a second Ctrl-C: stop now
        proc.kill()
        proc.wait()


def binary_error(stderr: str, status: int, cmd: Sequence[str]) -> KgevalError:
    """The exception of a failed run of the binary: its JSON error line
    (KGEVAL_ERROR_FORMAT=json) when it printed one, else its last
    "kgeval: ..." line with the code of its exit status."""
    lines = [l.strip() for l in stderr.replace("\r", "\n").splitlines() if l.strip()]
    for l in reversed(lines):
        if l.startswith('{"code"'):
            try:
                e = json.loads(l)
            except ValueError:
                break
            return error(e.get("code"), e.get("message") or "kgeval exited %d" % status, command=cmd, stderr=stderr,
                         status=status, kind=e.get("kind") or "")
    msg = _message(lines, status)
    return error(BY_STATUS.get(status, "internal"), msg, command=cmd, stderr=stderr, status=status)


def _message(lines: List[str], status: int) -> str:
    for l in reversed(lines):
        if l.startswith("kgeval: "):
            return l[len("kgeval: "):]
    return " / ".join(lines[-3:]) or "kgeval exited %d" % status


def main() -> None:
    """The ``kgeval`` console script: runs the bundled binary in place of
    this process, with the state folder the Python API uses (kgeval.local);
    ``kgeval model start|stop|status`` is the package's own (kgeval.model)."""
    from ._state import console_env
    if sys.argv[1:2] == ["model"]:
        from . import model
        sys.exit(model.main(sys.argv[2:]))
    b = binary()
    env = dict(os.environ)
    env.update(console_env())
    os.execve(b, [b, *sys.argv[1:]], env)

"""kgeval's errors: one exception class per error code of the binary and the
server (error.go's nine codes, docs/OPERATIONS.md "Exit status"), all of them
KgevalError."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Type


class KgevalError(RuntimeError):
    """The binary, a kgeval server or the package itself refused or failed.

    ``message`` is the user-safe message, ``code`` kgeval's error code
    (``"invalid"``, ``"not_found"``, ``"unavailable"``, ...: the same string
    from the binary and from a server), ``kind`` its finer case when there is
    one (``"unreachable"``, ``"no_such_run"``), ``status`` the binary's exit
    status or the server's HTTP status, ``command`` and ``stderr`` what ran.
    Catch a subclass (``kgeval.UnavailableError``) for one code.
    """

    code: str = "internal"

    def __init__(self, message: str, code: Optional[str] = None, command: Optional[Sequence[str]] = None,
                 stderr: str = "", *, status: Optional[int] = None, kind: str = "") -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.command: List[str] = list(command or [])
        self.stderr = stderr
        self.status = status
        self.kind = kind


class InternalError(KgevalError):
    """An internal error (exit status 1, HTTP 500)."""
    code = "internal"


class GateFailedError(KgevalError):
    """A gate's checks failed (``kgeval gate``, exit status 1)."""
    code = "gate_failed"


class InvalidError(KgevalError, ValueError):
    """Bad input: an argument, a config key or value, a column, a dataset
    (exit status 2, HTTP 400)."""
    code = "invalid"


class UnavailableError(KgevalError):
    """A service does not answer: Neo4j, the model endpoint, a kgeval server
    (exit status 3, HTTP 503)."""
    code = "unavailable"


class NotFoundError(KgevalError, LookupError):
    """No such run, sample or file (exit status 4, HTTP 404)."""
    code = "not_found"


class ConflictError(KgevalError):
    """The run exists already, or was made from other data (exit status 5, HTTP 409)."""
    code = "conflict"


class UnauthorizedError(KgevalError):
    """Credentials refused: the Neo4j password, an API token (exit status 6, HTTP 401)."""
    code = "unauthorized"


class ForbiddenError(KgevalError):
    """Not allowed for this account (exit status 7, HTTP 403)."""
    code = "forbidden"


class TooLargeError(KgevalError):
    """Over a size limit (exit status 8, HTTP 413)."""
    code = "too_large"


class TooManyRequestsError(KgevalError):
    """Over a rate limit (exit status 9, HTTP 429)."""
    code = "too_many_requests"


#: The exception class of each code.
BY_CODE: Dict[str, Type[KgevalError]] = {c.code: c for c in (
    InternalError, GateFailedError, InvalidError, UnavailableError, NotFoundError, ConflictError,
    UnauthorizedError, ForbiddenError, TooLargeError, TooManyRequestsError)}

#: The code of each exit status of the binary (cmd/kgeval exitStatus), for a
#: binary that printed no JSON error.
BY_STATUS = {1: "internal", 2: "invalid", 3: "unavailable", 4: "not_found", 5: "conflict", 6: "unauthorized",
             7: "forbidden", 8: "too_large", 9: "too_many_requests"}


def error(code: Optional[str], message: str, **kw: Any) -> KgevalError:
    """The exception of code (KgevalError itself for a code it does not know)."""
    cls = BY_CODE.get(code or "", KgevalError)
    return cls(message, code if cls is KgevalError else None, **kw)

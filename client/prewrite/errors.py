"""One typed error hierarchy, each class with a stable string code that crosses the wire.

The daemon raises these; the RPC layer turns them into an ``ErrorReply`` and the client turns the
reply back into the same class, so ``except StaleBase`` works on both sides of the socket.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec


class ErrorDetail(msgspec.Struct, frozen=True, omit_defaults=True):
    """One item an error is about, e.g. one file whose base hash did not match."""

    message: str
    path: str | None = None


class PrewriteError(Exception):
    """Base of every error prewrite reports. ``code`` is stable and machine-readable."""

    code: ClassVar[str] = "internal_error"

    def __init__(self, message: str, details: list[ErrorDetail] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: list[ErrorDetail] = list(details or [])

    def __str__(self) -> str:
        if not self.details:
            return self.message
        lines = [self.message]
        lines += [f"  {d.path}: {d.message}" if d.path else f"  {d.message}" for d in self.details]
        return "\n".join(lines)


class InternalError(PrewriteError):
    """The daemon failed unexpectedly; its log holds the traceback."""

    code = "internal_error"


class BadRequest(PrewriteError):
    """The request was malformed or self-contradictory."""

    code = "bad_request"


class VersionMismatch(PrewriteError):
    """Client and daemon speak different protocol versions."""

    code = "version_mismatch"


class FrameTooLarge(PrewriteError):
    """A frame exceeded the size limit."""

    code = "frame_too_large"


class InputTooLarge(PrewriteError):
    """A request is over one of the input limits (``prewrite.admission``: text bytes per patch
    and per file, files per patch, sites of one ``find``); the message names the limit and the
    size. Checked before the work it would cost."""

    code = "input_too_large"


class InvalidWorkspace(PrewriteError):
    """The workspace root does not exist or is not a directory."""

    code = "invalid_workspace"


class PathOutsideWorkspace(PrewriteError):
    """A patch path resolves outside the workspace root (``..``, absolute, symlink escape)."""

    code = "path_outside_workspace"


class ForbiddenPath(PrewriteError):
    """A patch path is one prewrite refuses to touch (e.g. inside ``.git/``)."""

    code = "forbidden_path"


class UnverifiableExtension(PrewriteError):
    """A patch path has an extension the ladder cannot verify; refused (fail closed)."""

    code = "unverifiable_extension"


class FindMismatch(PrewriteError):
    """An anchored edit's ``find`` matches nothing; ``details`` has the closest real lines."""

    code = "find_mismatch"


class FindAmbiguous(PrewriteError):
    """An anchored edit's ``find`` matches several places; ``details`` has each site."""

    code = "find_ambiguous"


class ProtectedSnippet(PrewriteError):
    """A patch removes text that ``[tool.prewrite] protect`` requires to stay in a file (or
    deletes the file holding it); ``details`` name each file and snippet."""

    code = "protected_snippet"


class UnreadableFile(PrewriteError):
    """A file prewrite must read (a configuration, a manifest, the file a patch edits) is not a
    regular file (a FIFO, a device, a directory), is over the size limit, or cannot be read;
    ``details`` name it and why. Such a file is refused unread, never waited on (``files.py``)."""

    code = "unreadable_file"


class StaleBase(PrewriteError):
    """A ``base_sha256`` does not match the file on disk; ``details`` lists every mismatch."""

    code = "stale_base"


class StaleEnvironment(PrewriteError):
    """The environment (config, packages, files) kept moving while the verdict was computed."""

    code = "stale_environment"


class WriteFailed(PrewriteError):
    """The patch could not be written (disk full, read-only, ...); nothing of it was written."""

    code = "write_failed"


class BackendFailed(PrewriteError):
    """The type checker could not be started, crashed, or answered nonsense."""

    code = "backend_failed"


class CheckTimeout(PrewriteError):
    """The checker did not produce a verdict in time. Never a green."""

    code = "timeout"


class Busy(PrewriteError):
    """The workspace already has as many checks waiting as it queues; retry later."""

    code = "busy"


class StateDirUnwritable(PrewriteError):
    """The daemon's state directory (shadows, journals, record) cannot be written; names it."""

    code = "state_dir_unwritable"


class UntrustedWorkspace(PrewriteError):
    """The request would run the workspace's own code (``finish`` commands), and the user has
    not trusted it: ``prewrite trust ROOT``."""

    code = "untrusted_workspace"


class DaemonUnavailable(PrewriteError):
    """No daemon answers on the socket and none could be started (client side)."""

    code = "daemon_unavailable"


class ConnectionLost(PrewriteError):
    """The daemon closed the connection before answering (client side)."""

    code = "connection_lost"


class DaemonUnresponsive(PrewriteError):
    """The daemon accepted the connection but did not answer within the client's deadline
    (stopped, hung or overloaded); the connection is closed (client side)."""

    code = "daemon_unresponsive"


ERROR_CLASSES: dict[str, type[PrewriteError]] = {
    cls.code: cls
    for cls in (
        InternalError,
        BadRequest,
        VersionMismatch,
        FrameTooLarge,
        InputTooLarge,
        InvalidWorkspace,
        PathOutsideWorkspace,
        ForbiddenPath,
        UnverifiableExtension,
        FindMismatch,
        FindAmbiguous,
        ProtectedSnippet,
        UnreadableFile,
        StaleBase,
        StaleEnvironment,
        WriteFailed,
        UntrustedWorkspace,
        BackendFailed,
        CheckTimeout,
        Busy,
        StateDirUnwritable,
        DaemonUnavailable,
        ConnectionLost,
        DaemonUnresponsive,
    )
}


def error_from_code(code: str, message: str, details: list[ErrorDetail]) -> PrewriteError:
    """Rebuild the typed error for a wire code; unknown codes become ``InternalError``."""
    cls = ERROR_CLASSES.get(code, InternalError)
    err = cls(message, details)
    if cls is InternalError and code != InternalError.code:
        err.message = f"[{code}] {message}"
    return err

"""The wire schema, defined once: msgspec Structs shared by the client and the daemon.

Requests and replies are tagged unions (tag field ``op``). New fields are only ever added with
defaults, so an older peer can still decode a newer message of the same protocol version.
Positions in ``Diagnostic`` are 1-based (line and column), as in compiler-style output.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from prewrite.errors import ErrorDetail

PROTOCOL_VERSION = 1

Severity = Literal["error", "warning", "information"]


class FileChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One file of a patch: new full ``content``, or ``delete``.

    ``base_sha256`` is the hex SHA-256 of the file's bytes on disk as the author saw them, or
    ``None`` for a file that must not exist yet.
    """

    path: str
    base_sha256: str | None = None
    content: str | None = None
    delete: bool = False


class Patch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A patch file as given to ``prewrite check --patch``."""

    changes: list[FileChange]


class Diagnostic(msgspec.Struct, frozen=True):
    """One diagnostic, agent-facing: ``path`` relative to the workspace root, 1-based positions."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: Severity
    rule: str
    message: str
    source: str


class Message(msgspec.Struct, frozen=True, tag_field="op"):
    """Base of every request and reply: tagged by the ``op`` field."""


# --- requests ------------------------------------------------------------------------------


class Hello(Message, frozen=True, tag="hello"):
    """First message on every connection: agree on the protocol version."""

    protocol_version: int
    client_version: str


class CheckRequest(Message, frozen=True, tag="check"):
    """Type-check ``changes`` as one unit against the workspace at ``root`` (absolute path)."""

    root: str
    changes: list[FileChange]
    python: str | None = None
    timeout_s: float = 120.0


class StatusRequest(Message, frozen=True, tag="status"):
    """Ask for the daemon's state and its workspaces."""


class StopRequest(Message, frozen=True, tag="stop"):
    """Ask the daemon to stop; answered after the status file is removed."""


Request = Hello | CheckRequest | StatusRequest | StopRequest


# --- replies -------------------------------------------------------------------------------


class HelloReply(Message, frozen=True, tag="hello_reply"):
    protocol_version: int
    daemon_version: str
    pid: int


class CheckReply(Message, frozen=True, tag="check_reply"):
    """The verdict: ``ok`` is false when the patch introduced at least one error.

    ``diagnostics`` lists only what the patch introduced (errors and warnings);
    ``checked_files`` are the files whose diagnostics were compared. The freshness proof:
    ``generation`` counts the checker's views of the workspace and ``environment`` is the
    fingerprint of configuration, installed packages, interpreter and checker version; both were
    the same when the check was admitted and when its verdict was sent.
    """

    ok: bool
    diagnostics: list[Diagnostic]
    checked_files: list[str]
    timings_ms: dict[str, float]
    generation: int = 0
    environment: str = ""


class WorkspaceStatus(msgspec.Struct, frozen=True):
    root: str
    python: str
    backend_state: str
    generation: int
    checks: int
    server_pid: int | None = None
    environment: str = ""
    restarts: int = 0
    last_restart: str | None = None
    last_restart_reason: str | None = None


class StatusReply(Message, frozen=True, tag="status_reply"):
    pid: int
    version: str
    socket: str
    uptime_s: float
    workspaces: list[WorkspaceStatus]


class StopReply(Message, frozen=True, tag="stop_reply"):
    pass


class ErrorReply(Message, frozen=True, tag="error"):
    code: str
    message: str
    details: list[ErrorDetail] = []


Reply = HelloReply | CheckReply | StatusReply | StopReply | ErrorReply

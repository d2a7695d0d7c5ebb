"""The requests a client sends, and ``Request``, their tagged union (tag field ``op``)."""

from __future__ import annotations

from prewrite.protocol.message import Message
from prewrite.protocol.patch import FileChange


class Hello(Message, frozen=True, tag="hello"):
    """First message on every connection: agree on the protocol version."""

    protocol_version: int
    client_version: str


class CheckRequest(Message, frozen=True, tag="check"):
    """Type-check ``changes`` as one unit against the workspace at ``root`` (absolute path).

    ``timeout_s`` bounds everything the daemon does for the request: waiting for the workspace,
    starting the checker, every retry. ``return_contents`` false asks for the candidate files by
    reference only (path and sha256); large ones are sent that way in any case. ``rungs`` runs
    only those rungs of the ladder (of ``parse``, ``format``, ``lint``, ``typecheck``,
    ``review``, and ``tests`` for apply); policy and anchor always run. None: every rung the
    workspace enables. ``intent`` is what the caller says the patch does, in its own words; the
    workspace's reviewer (if it names one) judges the patch against it, as untrusted data.
    """

    root: str
    changes: list[FileChange]
    python: str | None = None
    timeout_s: float = 120.0
    return_contents: bool = True
    rungs: list[str] | None = None
    intent: str | None = None


class StatusRequest(Message, frozen=True, tag="status"):
    """Ask for the daemon's state and its workspaces."""


class StatsRequest(Message, frozen=True, tag="stats"):
    """Per-rung catch counts and costs from the verdict record (all workspaces if no root)."""

    root: str | None = None


class ApplyRequest(Message, frozen=True, tag="apply"):
    """Run the ladder; only if every rung passes, write the patch all-or-nothing, then run the
    disk rungs (the affected tests; with ``finish``, the "once at the end" rungs too).
    ``intent`` as for ``CheckRequest``."""

    root: str
    changes: list[FileChange]
    python: str | None = None
    timeout_s: float = 120.0
    finish: bool = False
    return_contents: bool = True
    rungs: list[str] | None = None
    intent: str | None = None


class FinishRequest(Message, frozen=True, tag="finish"):
    """Run the workspace's "once at the end" disk rungs now."""

    root: str
    python: str | None = None


class StopRequest(Message, frozen=True, tag="stop"):
    """Ask the daemon to stop; answered after the status file is removed."""


class EditorAttach(Message, frozen=True, tag="editor_attach"):
    """Turn this connection into an editor's language server session (``prewrite lsp``).

    Once ``EditorAttached`` is answered, the connection carries LSP messages (``Content-Length``
    framed JSON-RPC) both ways until either side closes it; no further frames of this protocol.
    """


Request = (
    Hello
    | CheckRequest
    | ApplyRequest
    | FinishRequest
    | StatusRequest
    | StatsRequest
    | StopRequest
    | EditorAttach
)

"""What ``LspProcess`` speaks in: the server's quirks, URIs, and diagnostics converted to ours.

LSP types stay inside the backend: ``to_raw`` turns a server's diagnostic into prewrite's
``RawDiagnostic``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from prewrite_daemon.backends.base import RawDiagnostic

_SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}
EVENT_KIND = {
    "created": lsp.FileChangeType.Created,
    "changed": lsp.FileChangeType.Changed,
    "deleted": lsp.FileChangeType.Deleted,
}

SettingsFn = Callable[[str | None], Any]
PullMode = Literal["dynamic", "static", "push"]


@dataclass(frozen=True)
class ServerQuirks:
    """What differs between the language servers ``LspProcess`` drives.

    ``pull`` is how diagnostics reach the client, and so when the server counts as started:

    - ``"dynamic"``: pulled; the server registers ``textDocument/diagnostic`` with
      ``client/registerCapability`` after ``initialized`` (pyright), and is started once it has.
    - ``"static"``: pulled; the initialize result's ``diagnosticProvider`` announces it.
    - ``"push"``: no pull; ``diagnostics()`` waits for a ``textDocument/publishDiagnostics`` of
      the document's current version that arrived after the last notification sent.
    """

    language_id: Callable[[str], str]  # the didOpen ``languageId`` of a path
    pull: PullMode
    ignored_notifications: frozenset[str] = frozenset()  # the server's own, dropped silently
    # Files of these suffixes are opened while a file event for them is sent (closed after):
    # pyright drops an event for a file it neither tracks nor holds (an excluded module, one
    # its tracked list has not caught up with), keeping a stale import resolution.
    open_around_events: tuple[str, ...] = ()


@dataclass(frozen=True)
class Published:
    """The latest diagnostics a push server published for one document."""

    version: int
    epoch: int  # how many notifications had been sent to the server when these arrived
    items: list[RawDiagnostic]


def path_to_uri(path: str) -> str:
    return Path(path).as_uri()


def uri_to_path(uri: str) -> str:
    return unquote(urlparse(uri).path)


def to_raw(d: lsp.Diagnostic) -> RawDiagnostic:
    """An LSP diagnostic as the backend interface reports it (0-based positions)."""
    code = d.code
    return RawDiagnostic(
        line=d.range.start.line,
        column=d.range.start.character,
        end_line=d.range.end.line,
        end_column=d.range.end.character,
        severity=_SEVERITY.get(int(d.severity or 1), "error"),
        rule="" if code is None else str(code),
        message=d.message,
        source=d.source or "",
    )

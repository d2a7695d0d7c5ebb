"""The document sync of ``LspProcess``: what a language server is told about our documents.

Whole-document sync: ``didOpen`` at version 1, ``didChange`` with the whole new text and the
next version, ``didClose``; files changed on disk go as ``didChangeWatchedFiles``. The version of
each open document is kept here, because a pushed diagnostic answers only for the current one
(``lsp_diagnostics``). Every notification goes through the owner's ``notify``, which refuses a
server that is not running and counts what was sent.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING, TypeAlias

from lsprotocol import types as lsp

from prewrite_daemon.backends.lsp_types import EVENT_KIND, path_to_uri

MAX_HELD_BYTES = 4 * 1024 * 1024  # what is read of a file held open for its event

if TYPE_CHECKING:
    from collections.abc import Callable

    from pygls.lsp.client import LanguageClient

    from prewrite_daemon.backends.base import FileEvent

    Notify: TypeAlias = Callable[[Callable[[], None]], None]


class DocumentSync:
    """The documents open in one server, by version; owned by its ``LspProcess``."""

    def __init__(
        self,
        client: LanguageClient,
        language_id: Callable[[str], str],
        notify: Notify,
        open_around_events: tuple[str, ...] = (),
    ) -> None:
        """``language_id``: the quirks' ``didOpen`` id of a path; ``notify``: the owner's
        (``LspProcess._notify``); ``open_around_events``: the quirks' suffixes."""
        self._client = client
        self._language_id = language_id
        self._notify = notify
        self._open_around = open_around_events
        self._versions: dict[str, int] = {}

    def version(self, path: str) -> int | None:
        """The version ``path`` is open at in the server; None when it is not open."""
        return self._versions.get(path)

    def open(self, path: str, text: str) -> None:
        self._versions[path] = 1
        item = lsp.TextDocumentItem(
            uri=path_to_uri(path), language_id=self._language_id(path), version=1, text=text
        )
        self._notify(
            lambda: self._client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
        )

    def change(self, path: str, text: str) -> None:
        version = self._versions[path] = self._versions[path] + 1
        params = lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(
                uri=path_to_uri(path), version=version
            ),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
        self._notify(lambda: self._client.text_document_did_change(params))

    def close(self, path: str) -> None:
        if self._versions.pop(path, None) is None:
            return
        doc = lsp.TextDocumentIdentifier(uri=path_to_uri(path))
        self._notify(
            lambda: self._client.text_document_did_close(lsp.DidCloseTextDocumentParams(doc))
        )

    def is_open(self, path: str) -> bool:
        return path in self._versions

    def files_changed(self, events: list[FileEvent]) -> None:
        """Tell the server; a file of the quirks' suffixes that is not open is opened (with its
        text on disk, empty if gone) while its event is sent, so the server holds it and cannot
        drop the event: pyright ignores one for a file it neither tracks nor holds (a module
        its configuration excludes), and its import resolution would stay stale (a deleted
        module still found: a wrong green)."""
        if not events:
            return
        held = {
            e.path: None
            for e in events
            if e.path.endswith(self._open_around) and not self.is_open(e.path)
        }  # ``endswith(())`` is False: a server without the quirk holds nothing
        for path in held:
            self.open(path, _disk_text(path))
        changes = [lsp.FileEvent(uri=path_to_uri(e.path), type=EVENT_KIND[e.kind]) for e in events]
        params = lsp.DidChangeWatchedFilesParams(changes=changes)
        try:
            self._notify(lambda: self._client.workspace_did_change_watched_files(params))
        finally:
            for path in held:
                self.close(path)


def _disk_text(path: str) -> str:
    """The text the server would read for ``path``, bounded (a regular file, its first
    ``MAX_HELD_BYTES``, never a blocking open); empty when it is gone or not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, MAX_HELD_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)

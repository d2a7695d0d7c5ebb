"""The document sync of ``LspProcess``: what a language server is told about our documents.

Whole-document sync: ``didOpen`` at version 1, ``didChange`` with the whole new text and the
next version, ``didClose``; files changed on disk go as ``didChangeWatchedFiles``. The version of
each open document is kept here, because a pushed diagnostic answers only for the current one
(``lsp_diagnostics``). Every notification goes through the owner's ``notify``, which refuses a
server that is not running and counts what was sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from lsprotocol import types as lsp

from prewrite_daemon.backends.lsp_types import EVENT_KIND, path_to_uri

if TYPE_CHECKING:
    from collections.abc import Callable

    from pygls.lsp.client import LanguageClient

    from prewrite_daemon.backends.base import FileEvent

    Notify: TypeAlias = Callable[[Callable[[], None]], None]


class DocumentSync:
    """The documents open in one server, by version; owned by its ``LspProcess``."""

    def __init__(
        self, client: LanguageClient, language_id: Callable[[str], str], notify: Notify
    ) -> None:
        """``language_id``: the quirks' ``didOpen`` id of a path; ``notify``: the owner's
        (``LspProcess._notify``)."""
        self._client = client
        self._language_id = language_id
        self._notify = notify
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
        if not events:
            return
        changes = [lsp.FileEvent(uri=path_to_uri(e.path), type=EVENT_KIND[e.kind]) for e in events]
        params = lsp.DidChangeWatchedFilesParams(changes=changes)
        self._notify(lambda: self._client.workspace_did_change_watched_files(params))

"""``ruff server``, warm: one language server formats and lints texts as ``ruff format`` and
``ruff check`` by stdin would, without a process start per file and rung.

It is the same ruff executable the CLI path runs, driven through ``LspProcess`` (pygls framing,
deadlines, staged stop). Formatting is ``didOpen`` (the file's real path, the candidate text),
``textDocument/formatting``, ``didClose``; lint is the same with a pulled
``textDocument/diagnostic``. One document is open once at a time: calls on the same path wait
for each other, calls on different paths run together.

No editor settings are sent, so every file resolves its configuration from the filesystem as the
CLI does (an editor ``lint.select`` would be combined *under* a project configuration that does
not set ``select`` itself, and change what it selects). Where the CLI adds ``--select`` (no ruff
configuration), ``ruff_warm`` filters the server's findings instead. Positions are UTF-32 (code
points), the unit of the CLI's columns.

The server reads the configurations once, when it starts; ``ruff_trust`` decides whether what it
read still holds for a file. Anything unexpected here is ``BackendFailed``: the caller then asks
the CLI, whose answer is the reference.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import attrs
from lsprotocol import types as lsp

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.lsp_process import LspProcess
from prewrite_daemon.backends.lsp_types import ServerQuirks, path_to_uri

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Sequence
    from pathlib import Path

    from cattrs import Converter

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # ruff's line breaks (not str.splitlines's many)


def _python(_path: str) -> str:
    return "python"


RUFF_QUIRKS = ServerQuirks(language_id=_python, pull="static")


@dataclass(frozen=True)
class Finding:
    """One diagnostic of ``ruff server``, 1-based positions in code points like the CLI's."""

    line: int
    column: int
    end_line: int
    end_column: int
    rule: str | None  # None: a syntax error
    message: str


def _no_settings(_section: str | None) -> None:
    return None


def add_notebook_filter_hook(converter: Converter) -> None:
    """Teach ``converter`` lsprotocol's optional notebook filter union.

    ruff's initialize reply carries ``notebookDocumentSync`` selectors whose ``notebook`` field
    is ``str | NotebookDocumentFilter | None``; lsprotocol hooks the union without ``None`` only,
    so pygls would fail the reply (invalid params) and the initialize would never complete.
    """
    optional = attrs.fields(lsp.NotebookDocumentFilterWithCells).notebook.type
    plain = attrs.fields(lsp.NotebookDocumentFilterWithNotebook).notebook.type

    def structure(value: Any, _type: object) -> object:
        return None if value is None else converter.structure(value, plain)

    converter.register_structure_hook(optional, structure)


class RuffServer(LspProcess):
    """``ruff server`` over stdio for one workspace and ruff executable."""

    def __init__(self, exe: str, root: Path, select: list[str] | None = None) -> None:
        super().__init__([exe, "server"], root, _no_settings, None, RUFF_QUIRKS)
        settings: dict[str, object] = {"configurationPreference": "filesystemFirst"}
        if select is not None:  # only for files without a configuration (see ruff_warm)
            settings["lint"] = {"select": select}
        self._initialization = {"settings": settings}
        add_notebook_filter_hook(self._client.protocol._converter)  # pyright: ignore[reportPrivateUsage]
        self._documents: dict[str, asyncio.Lock] = {}

    async def start(self, timeout_s: float = 60.0) -> None:
        await super().start(timeout_s)
        caps = self.capabilities
        if caps is None or caps.position_encoding != lsp.PositionEncodingKind.Utf32:
            await self.stop()
            raise BackendFailed("ruff server does not speak UTF-32 positions")
        if not caps.document_formatting_provider:
            await self.stop()
            raise BackendFailed("ruff server does not format")

    def _initialize_params(self) -> lsp.InitializeParams:
        params = super()._initialize_params()
        params.initialization_options = self._initialization
        params.capabilities.general = lsp.GeneralClientCapabilities(
            position_encodings=[lsp.PositionEncodingKind.Utf32]
        )
        return params

    async def format(self, path: str, text: str, timeout_s: float) -> str:
        """``text`` formatted as ruff formats the file at ``path`` (unchanged when excluded)."""
        params = lsp.DocumentFormattingParams(
            text_document=lsp.TextDocumentIdentifier(path_to_uri(path)),
            options=lsp.FormattingOptions(tab_size=4, insert_spaces=True),
        )
        async with self._document(path, text):
            edits = await self._call(self._client.text_document_formatting_async(params), timeout_s)
        return apply_edits(text, edits or [])

    async def lint(self, path: str, text: str, timeout_s: float) -> list[Finding]:
        """What ruff finds in ``text`` as the file at ``path`` (nothing when excluded)."""
        async with self._document(path, text):
            found = await self.diagnostics(path, timeout_s)
        return [
            Finding(d.line + 1, d.column + 1, d.end_line + 1, d.end_column + 1, d.rule or None,
                    d.message)
            for d in found
        ]  # fmt: skip

    @contextlib.asynccontextmanager
    async def _document(self, path: str, text: str) -> AsyncGenerator[None]:
        lock = self._documents.setdefault(path, asyncio.Lock())
        async with lock:
            self.open(path, text)
            try:
                yield
            finally:
                if not self.exited:
                    self.close(path)


def apply_edits(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """``text`` with LSP edits (UTF-32 positions) applied, last first."""
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def offset(pos: lsp.Position) -> int:
        if pos.line >= len(starts):
            return len(text)
        return min(starts[pos.line] + pos.character, len(text))

    spans = sorted(
        ((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text

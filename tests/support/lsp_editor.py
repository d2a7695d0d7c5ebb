"""An editor for tests: a pygls ``LanguageClient`` speaking to ``prewrite lsp`` over stdio."""

from __future__ import annotations

import asyncio
import shutil
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Callable

WAIT_S = 60.0


class Editor:
    """One editor: a pygls client speaking to ``prewrite lsp``, recording what is published."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("test-editor", "0")
        self.published: dict[str, list[list[types.Diagnostic]]] = {}
        self._arrived = asyncio.Condition()
        self.versions: dict[str, int] = {}

        async def published(params: types.PublishDiagnosticsParams) -> None:
            async with self._arrived:
                self.published.setdefault(params.uri, []).append(list(params.diagnostics))
                self._arrived.notify_all()

        self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(published)  # pyright: ignore[reportUnknownMemberType]

    def uri(self, rel: str) -> str:
        return (self.root / rel).as_uri()

    async def start(self, env: dict[str, str] | None = None) -> None:
        prewrite = shutil.which("prewrite", path=str(Path(sys.executable).parent))
        assert prewrite is not None
        await self.client.start_io(prewrite, "lsp", env=env)  # pyright: ignore[reportUnknownMemberType]
        uri = self.root.as_uri()
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                root_uri=uri,
                workspace_folders=[types.WorkspaceFolder(uri, "repo")],
            )
        )
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def open(self, rel: str, text: str | None = None) -> None:
        body = (self.root / rel).read_text() if text is None else text
        self.versions[rel] = 1
        item = types.TextDocumentItem(self.uri(rel), "python", 1, body)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))

    def edit(self, rel: str, text: str) -> None:
        self.versions[rel] += 1
        doc = types.VersionedTextDocumentIdentifier(version=self.versions[rel], uri=self.uri(rel))
        change = types.TextDocumentContentChangeWholeDocument(text)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(doc, [change]))

    async def diagnostics_until(
        self, rel: str, wanted: Callable[[list[types.Diagnostic]], bool]
    ) -> list[types.Diagnostic]:
        """The first publication for ``rel`` that ``wanted`` accepts (waiting for it)."""
        uri = self.uri(rel)

        def found() -> list[types.Diagnostic] | None:
            return next((d for d in self.published.get(uri, []) if wanted(d)), None)

        async with self._arrived:
            await asyncio.wait_for(self._arrived.wait_for(lambda: found() is not None), WAIT_S)
        result = found()
        assert result is not None
        return result

    async def diagnostics(self, rel: str, count: int) -> list[types.Diagnostic]:
        """The ``count``-th publication for ``rel`` (waiting for it)."""
        uri = self.uri(rel)
        async with self._arrived:
            await asyncio.wait_for(
                self._arrived.wait_for(lambda: len(self.published.get(uri, [])) >= count), WAIT_S
            )
        return self.published[uri][count - 1]


@asynccontextmanager
async def editor(root: Path) -> AsyncGenerator[Editor]:
    ed = Editor(root)
    await ed.start()
    try:
        yield ed
    finally:
        await ed.stop()


def codes(diagnostics: list[types.Diagnostic]) -> list[tuple[int, Any]]:
    return sorted((d.range.start.line, d.code) for d in diagnostics)

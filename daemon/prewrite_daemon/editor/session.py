"""One editor attached through ``prewrite lsp``: a language server served by the warm checkers.

Each editor connection gets its own pygls server, so its unsaved buffers are its own (pygls
keeps them, applying incremental edits). A request about a document goes to the warm workspace
of the document's language and root, under that workspace's lock: the editor's buffers are laid
over the checker (``layer.py``), the request is relayed with every path mapped into the shadow
(``uris.py``), and the answer is mapped back. Diagnostics are pulled for the editor, under its own
layer only, and published to it (editors that take only pushed diagnostics get them too); they
are refreshed when a buffer changes and when the workspace moves (a sync, a write, a checker
restart). Nothing computed under an agent's overlay reaches an editor: agent checks clear the
layer, and nothing the checker pushes is relayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidParams
from pygls.io_ import run_async
from pygls.lsp.server import LanguageServer

from prewrite import __version__
from prewrite.errors import FrameTooLarge, PrewriteError
from prewrite_daemon.backends.lsp_process import LspProcess
from prewrite_daemon.backends.lsp_types import uri_to_path
from prewrite_daemon.editor.lsp_reader import BoundedReader
from prewrite_daemon.editor.protocol import RELAYED, EditorProtocol, to_lsp_diagnostic
from prewrite_daemon.editor.uris import path_map, relative_path
from prewrite_daemon.languages.registry import LANGUAGES

if TYPE_CHECKING:
    from prewrite_daemon.backends.base import Backend
    from prewrite_daemon.editor.spare import Lane, SparePool
    from prewrite_daemon.session import Registry
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

DEBOUNCE_S = 0.15  # diagnostics wait this long after the last edit of a document
REQUEST_TIMEOUT_S = 60.0


class EditorSession:
    def __init__(self, registry: Registry, spares: SparePool, number: int) -> None:
        self.registry = registry
        self.spares = spares
        self.number = number
        self.root: Path | None = None
        self.python: str | None = None
        self.ls = LanguageServer(
            "prewrite", __version__, protocol_cls=EditorProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )  # fmt: skip
        self.done = threading.Event()  # the editor said exit, or hung up
        self._pending: dict[str, asyncio.Task[None]] = {}  # uri -> its debounced refresh
        self._watched: set[int] = set()  # workspaces whose moves refresh this editor
        self._held = contextlib.ExitStack()  # the entries this editor uses: never evicted
        self._last: Workspace | None = None  # where completionItem/resolve goes
        self._register()

    # --- lifecycle ------------------------------------------------------------------------------

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Speak LSP on the connection until the editor exits or hangs up."""
        self.ls.protocol.set_writer(writer)  # pyright: ignore[reportArgumentType]
        assert isinstance(self.ls.protocol, EditorProtocol)
        self.ls.protocol.on_exit = self.done.set
        self.ls.protocol.relay = self._relayer
        try:
            await run_async(
                stop_event=self.done, reader=BoundedReader(reader), protocol=self.ls.protocol,
                logger=log,
                error_handler=lambda exc, _source: log.warning("editor %s: %s", self.number, exc),
            )  # fmt: skip
        except (FrameTooLarge, ValueError, asyncio.IncompleteReadError, ConnectionError) as exc:
            # framing that cannot be resynchronised (a header over the stream's limit, a body
            # over ours, a hang-up mid-message): this editor's session ends, no one else's
            log.warning("editor %s: the connection ends: %s", self.number, exc)
        finally:
            await self.close()
            writer.close()

    async def close(self) -> None:
        """The editor is gone: its refreshes stop, its buffers leave every checker."""
        for task in self._pending.values():
            task.cancel()
        await asyncio.gather(*self._pending.values(), return_exceptions=True)
        for entry in self.registry.all_entries():
            ws = entry.workspace
            if ws.editor_layer.owner is self:
                async with ws.lock.first():
                    if ws.editor_layer.owner is self:
                        ws.editor_layer.clear(ws.backend)
            spare = self.spares.spare_of(ws)
            if spare is not None and spare.layer.owner is self:
                async with spare.lock.first():
                    spare.layer.clear(spare.backend)
            ws.listeners.discard(self._moved)
        self._held.close()

    # --- features -------------------------------------------------------------------------------

    def _register(self) -> None:
        ls = self.ls

        @ls.feature(types.INITIALIZE)
        async def initialize(params: types.InitializeParams) -> None:
            self._read_initialize(params)
            await self._warm()

        # pygls tags each handler function, so each gets a plain function of its own.
        for event in (
            types.TEXT_DOCUMENT_DID_OPEN,
            types.TEXT_DOCUMENT_DID_CHANGE,
            types.TEXT_DOCUMENT_DID_SAVE,
        ):
            ls.feature(event)(self._on_edit())

        @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
        def did_close(params: types.DidCloseTextDocumentParams) -> None:
            self._on_close(params)

        for method, options in RELAYED.items():
            ls.feature(method, options)(self._relayer(method))

        @ls.feature(types.COMPLETION_ITEM_RESOLVE)
        async def resolve(item: types.CompletionItem) -> Any:
            return await self._resolve_completion(item)

    def _read_initialize(self, params: types.InitializeParams) -> None:
        """The editor's root (its first workspace folder) and interpreter (initializationOptions
        ``{"python": ...}``)."""
        folders = params.workspace_folders or []
        uri = folders[0].uri if folders else params.root_uri
        if uri is None and params.root_path:
            uri = Path(params.root_path).as_uri()
        self.root = Path(uri_to_path(uri)).resolve() if uri else None
        options = params.initialization_options
        if isinstance(options, dict):
            python: object = cast("dict[str, object]", options).get("python")
            self.python = python if isinstance(python, str) else None

    async def _warm(self) -> None:
        """Start (or reuse) the root's checker now, so the first request is warm, and answer
        initialize with what that checker offers. A failure here is the first request's to
        report; initialize itself succeeds."""
        root = self.root
        if root is None:
            return
        present = [lang for lang in LANGUAGES if lang.applies_to(root)]
        language = present[-1]  # TypeScript where the root has a tsconfig.json, else Python
        try:
            ws = self.registry.editor_workspace(root, self.python, language)
            async with ws.lock.first():
                backend = await ws.ensure_backend(ws.environment())
        except PrewriteError as exc:
            log.warning("editor %s: no warm checker for %s: %s", self.number, root, exc)
            return
        if isinstance(backend, LspProcess) and isinstance(self.ls.protocol, EditorProtocol):
            self.ls.protocol.checker_capabilities = backend.capabilities

    def _on_edit(self) -> Any:
        def edited(params: Any) -> None:
            self._schedule(params.text_document.uri)

        return edited

    def _on_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    def _relayer(self, method: str) -> Any:
        async def relay(params: Any) -> Any:
            ws, _rel = self._workspace_of(params.text_document.uri)
            return await self._relay(ws, method, params)

        return relay

    async def _resolve_completion(self, item: types.CompletionItem) -> Any:
        if self._last is None:
            return item
        return await self._relay(self._last, types.COMPLETION_ITEM_RESOLVE, item)

    # --- the checker ----------------------------------------------------------------------------

    async def _relay(self, ws: Workspace, method: str, params: Any) -> Any:
        raw = self.ls.protocol._converter.unstructure(params)  # pyright: ignore[reportPrivateUsage]
        async with self.spares.lane(ws) as lane:
            backend = await self._layered(ws, lane)
            paths = path_map(ws, lane)
            if not isinstance(backend, LspProcess):
                raise JsonRpcInvalidParams(f"{method} is not served for {ws.env.checker}")
            self._last = ws
            try:
                answer = await backend.request(method, paths.to_shadow(raw), REQUEST_TIMEOUT_S)
            except PrewriteError as exc:
                raise JsonRpcInternalError(f"the checker failed: {exc.message}") from exc
        return paths.to_real(answer)

    async def _layered(self, ws: Workspace, lane: Lane) -> Backend:
        """The lane's checker with this editor's buffers laid over the disk (its lock held)."""
        if lane.spare is not None:
            backend = lane.spare.backend
            lane.spare.layer.apply(backend, self, self._buffers(ws))
        else:
            try:
                backend = await ws.ensure_backend(ws.environment())
                ws.sync(backend)
            except PrewriteError as exc:
                raise JsonRpcInternalError(f"[{exc.code}] {exc.message}") from exc
            ws.editor_layer.apply(backend, self, self._buffers(ws))
        if id(ws) not in self._watched:
            self._watched.add(id(ws))
            ws.listeners.add(self._moved)
            entry = self.registry.entry_of(ws)
            if entry is not None:
                self._held.enter_context(entry.in_use())  # the LRU leaves it warm
        return backend

    def _buffers(self, ws: Workspace) -> dict[str, str]:
        found: dict[str, str] = {}
        for uri, doc in self.ls.workspace.text_documents.items():
            rel = relative_path(ws.root, uri_to_path(uri))
            if rel is not None and ws.language.is_source(rel):
                found[rel] = doc.source
        return found

    def _workspace_of(self, uri: str) -> tuple[Workspace, str]:
        root = self.root
        rel = relative_path(root, uri_to_path(uri)) if root else None
        if root is None or rel is None:
            raise JsonRpcInvalidParams(f"{uri} is outside the workspace {root}")
        languages = [lang for lang in LANGUAGES if lang.applies_to(root) and lang.is_source(rel)]
        if not languages:
            raise JsonRpcInvalidParams(f"no checker serves {rel}")
        try:
            return self.registry.editor_workspace(root, self.python, languages[0]), rel
        except PrewriteError as exc:
            raise JsonRpcInternalError(f"[{exc.code}] {exc.message}") from exc

    # --- diagnostics ----------------------------------------------------------------------------

    def _schedule(self, uri: str) -> None:
        old = self._pending.get(uri)
        if old is not None:
            old.cancel()
        self._pending[uri] = asyncio.ensure_future(self._publish(uri))

    def _moved(self) -> None:
        """A workspace this editor uses moved (sync, write, restart): refresh its documents."""
        for uri in list(self.ls.workspace.text_documents):
            self._schedule(uri)

    async def _publish(self, uri: str) -> None:
        await asyncio.sleep(DEBOUNCE_S)
        try:
            ws, rel = self._workspace_of(uri)
        except (JsonRpcInvalidParams, JsonRpcInternalError) as exc:
            log.info("editor %s: no diagnostics for %s: %s", self.number, uri, exc)
            return
        doc = self.ls.workspace.get_text_document(uri)
        version = doc.version
        try:
            async with self.spares.lane(ws) as lane:
                backend = await self._layered(ws, lane)
                path = str(ws.root / rel) if lane.spare else ws.shadow.shadow_path(rel)
                raws = await backend.diagnostics(path, REQUEST_TIMEOUT_S)
        except (PrewriteError, JsonRpcInternalError) as exc:
            log.warning("editor %s: diagnostics of %s failed: %s", self.number, rel, exc)
            return
        paths = path_map(ws, lane)
        items = [to_lsp_diagnostic(ws.language.normalize(r), paths) for r in raws]
        self.ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri, items, version)
        )

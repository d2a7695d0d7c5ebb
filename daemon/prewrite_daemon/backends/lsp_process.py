"""One language server child process driven through pygls: spawn, initialize, bind, staged stop.

pygls does the JSON-RPC framing; this module adds what a supervisor needs: a state, a deadline on
every call, pending calls failed the moment the child exits, stderr drained into the log, and
foreign exceptions translated into prewrite's ``BackendFailed`` / ``CheckTimeout``. What differs
between servers (language ids, how diagnostics are delivered, private notifications) is a
``ServerQuirks`` value the backend's factory passes in.

``LspProcess`` owns the lifecycle and the calls; it composes the rest, one concern a module: the
document sync (``lsp_documents``), the diagnostics, pulled or pushed and awaited
(``lsp_diagnostics``), and the handlers registered with pygls (``lsp_handlers``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import uuid
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.io_ import run_async
from pygls.lsp.client import LanguageClient

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.base import BackendState
from prewrite_daemon.backends.child import Child
from prewrite_daemon.backends.lsp_diagnostics import Diagnostics
from prewrite_daemon.backends.lsp_documents import DocumentSync
from prewrite_daemon.backends.lsp_handlers import register_handlers
from prewrite_daemon.backends.lsp_types import path_to_uri

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from prewrite_daemon.backends.base import FileEvent, RawDiagnostic
    from prewrite_daemon.backends.lsp_types import ServerQuirks, SettingsFn

log = logging.getLogger(__name__)
T = TypeVar("T")


class LspProcess:
    """A language server over stdio, its diagnostics delivered as ``quirks`` says.

    ``state`` is the lifecycle's one truth and ``exited`` is derived from it. The ``Child``'s
    ``gone`` is not a second one: it is the wake-up for pending calls, set when the child exits
    or its output can no longer be read, while ``state`` says whether that was expected (a stop)
    or a failure.

    The document sync (``DocumentSync``) and the diagnostics (``Diagnostics``) are helpers it
    owns: each holds its own state and sends only through the owner's ``_notify`` or ``_send``
    (the state check, the deadline).
    """

    def __init__(
        self,
        argv: list[str],
        root: Path,
        settings: SettingsFn,
        env: dict[str, str] | None,
        quirks: ServerQuirks,
        *,
        unbound: bool = False,
    ) -> None:
        """``unbound``: started with no workspace, ``root`` only its working directory, until
        ``bind`` gives it one (a checker started ahead of need, ``backends.ready``)."""
        self.argv = argv
        self.root = root
        self.unbound = unbound
        self.quirks = quirks
        self.capabilities: lsp.ServerCapabilities | None = None  # the server's, once started
        self._settings = settings
        self._env = env
        self.state = BackendState.EXITED
        self._child = Child("the language server", self._on_lost)
        self._client = LanguageClient("prewrite", "0")
        self._stop_reading = threading.Event()
        self._sent = 0  # notifications sent: a push older than the last one may be stale
        self._document_sync = DocumentSync(
            self._client, quirks.language_id, self._notify, quirks.open_around_events
        )
        self._diagnostics = Diagnostics(quirks.pull, self._child, self._send)
        register_handlers(
            self._client,
            quirks.ignored_notifications,
            configuration=self._on_configuration,
            register=self._diagnostics.on_register,
            publish=self._on_publish,
        )

    @property
    def pid(self) -> int | None:
        return self._child.pid

    @property
    def exited(self) -> bool:
        self._child.notice_exit()  # an exit its watcher has not reported yet counts already
        return self.state.is_down

    # --- lifecycle ------------------------------------------------------------------------------

    async def start(self, timeout_s: float = 60.0) -> None:
        if self.state is BackendState.RUNNING:
            return  # started ahead of need and bound since (``bind``)
        self.state = BackendState.STARTING
        try:
            stdin = await self._child.spawn(self.argv, self.root, self._env, self._read_loop)
            self._client.protocol.set_writer(stdin)
            init = self._client.initialize_async(self._initialize_params())
            result = await self._call(init, timeout_s)
            self.capabilities = result.capabilities
            self._client.initialized(lsp.InitializedParams())
            await self._diagnostics.wait_offered(result, timeout_s)
        except BaseException as exc:
            await self.stop()
            self.state = BackendState.ERRORED
            if isinstance(exc, CheckTimeout):
                raise BackendFailed(f"the language server did not start: {exc}") from exc
            raise
        self.state = BackendState.RUNNING
        log.info("language server pid %s running on %s", self.pid, self.root)

    async def stop(self, grace_s: float = 2.0) -> None:
        """Staged stop: LSP shutdown/exit, then SIGTERM, then SIGKILL to the process group.

        A child that never got to running (a start cut short by a deadline or a hang-up) has no
        session to shut down and would not exit on its own: it gets SIGTERM at once, so a
        cancelled start ends within its deadline, not ``grace_s`` later.
        """
        was_running = self.state is BackendState.RUNNING
        self.state = BackendState.EXITED  # an exit from here on is expected, not a crash

        async def shutdown() -> None:
            await self._call(self._client.shutdown_async(None), grace_s)
            self._client.exit(None)

        await self._child.stop(shutdown if was_running else None, grace_s)
        self._stop_reading.set()
        self.state = BackendState.EXITED

    # --- documents (``lsp_documents``), requests, diagnostics (``lsp_diagnostics``) -------------

    def open(self, path: str, text: str) -> None:
        self._document_sync.open(path, text)

    def change(self, path: str, text: str) -> None:
        self._document_sync.change(path, text)

    def close(self, path: str) -> None:
        self._diagnostics.forget(path)  # kept only while open: nothing to forget otherwise
        self._document_sync.close(path)

    def is_open(self, path: str) -> bool:
        return self._document_sync.is_open(path)

    def files_changed(self, events: list[FileEvent]) -> None:
        self._document_sync.files_changed(events)

    async def request(self, method: str, params: Any, timeout_s: float) -> Any:
        """Any LSP request, JSON in and JSON out (an editor's, relayed; paths already mapped)."""
        if self.exited:
            raise self._not_running()
        protocol = self._client.protocol
        converter = protocol._converter  # pyright: ignore[reportPrivateUsage]
        known = lsp.METHOD_TO_TYPES.get(method)
        typed = converter.structure(params, known[2]) if known and known[2] else params
        result = await self._send(method, typed, timeout_s)
        return converter.unstructure(result)

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        """The diagnostics of one open document, as of every notification sent so far."""
        if self.exited:
            raise self._not_running()
        version = self._document_sync.version(path)
        return await self._diagnostics.of(path, version, self._sent, timeout_s)

    # --- internals ------------------------------------------------------------------------------

    def _notify(self, send: Callable[[], None]) -> None:
        if self.state is not BackendState.RUNNING:
            raise self._not_running()
        if not self._child.alive:  # exited, and the watcher has not run yet
            raise BackendFailed("the language server is not running")
        send()
        self._sent += 1

    def _not_running(self) -> BackendFailed:
        return BackendFailed(
            f"the language server is not running ({self.state.value}: {self._child.lost_reason})"
        )

    async def _send(self, method: str, params: Any, timeout_s: float) -> Any:
        """A request whose wait may end early (a deadline, a cancelled check): the server is
        told with ``$/cancelRequest`` and its late reply is dropped, so it stops working on it
        and pygls never resolves a future nobody awaits."""
        protocol = self._client.protocol
        msg_id = str(uuid.uuid4())
        try:
            return await self._call(protocol.send_request_async(method, params, msg_id), timeout_s)
        except (asyncio.CancelledError, CheckTimeout):
            pending = protocol._request_futures.pop(msg_id, None)  # pyright: ignore[reportPrivateUsage]
            if pending is not None and self._child.alive:
                pending.cancel()
                protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id=msg_id))
            raise

    async def _call(self, awaitable: Awaitable[T], timeout_s: float) -> T:
        """Await a request's reply; server errors become ``BackendFailed``."""
        try:
            return await self._child.wait(awaitable, timeout_s, "reply")
        except JsonRpcException as exc:
            raise BackendFailed(f"language server error {exc.code}: {exc.message}") from exc

    async def _read_loop(self, stdout: asyncio.StreamReader) -> None:
        try:
            await run_async(
                stop_event=self._stop_reading,
                reader=stdout,
                protocol=self._client.protocol,
                logger=log,
                error_handler=lambda exc, _src: log.warning("bad message from server: %s", exc),
            )
        except (ValueError, OSError, asyncio.LimitOverrunError) as exc:
            log.error("cannot read the language server's output: %s", exc)
            self._child.lose("its output can no longer be read")
            return
        self._child.lose("it exited or closed its output")

    def _on_lost(self, _reason: str) -> bool:
        """Unless a stop is under way (state EXITED), losing the child is a failure: ERRORED."""
        if self.state is BackendState.EXITED:
            return False
        self.state = BackendState.ERRORED
        return True

    def _initialize_params(self) -> lsp.InitializeParams:
        # Pull (announced as the quirks expect) or push with versions, never both: a server able
        # to do either then does the one we wait for.
        pull = self.quirks.pull
        caps = lsp.ClientCapabilities(
            workspace=lsp.WorkspaceClientCapabilities(
                configuration=True,
                did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(
                    dynamic_registration=True, relative_pattern_support=True
                ),
                workspace_folders=True,
            ),
            text_document=lsp.TextDocumentClientCapabilities(
                diagnostic=None
                if pull == "push"
                else lsp.DiagnosticClientCapabilities(dynamic_registration=pull == "dynamic"),
                publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(version_support=True)
                if pull == "push"
                else None,
                synchronization=lsp.TextDocumentSyncClientCapabilities(dynamic_registration=True),
            ),
        )
        if self.unbound:  # started ahead of need: the tree comes later (``bind``)
            return lsp.InitializeParams(capabilities=caps, process_id=os.getpid(), root_uri=None)
        uri = path_to_uri(str(self.root))
        return lsp.InitializeParams(
            capabilities=caps,
            process_id=os.getpid(),
            root_uri=uri,
            workspace_folders=[lsp.WorkspaceFolder(uri=uri, name=self.root.name)],
        )

    def bind(self, root: Path, settings: SettingsFn) -> None:
        """Give a server started ``unbound`` its tree, as a workspace folder added: its
        settings are asked for it then, and every document under it belongs to it."""
        folders = self.capabilities.workspace if self.capabilities else None
        support = folders.workspace_folders if folders else None
        if not self.unbound or support is None or not support.change_notifications:
            raise BackendFailed("the language server cannot take a workspace folder")
        self.root, self._settings, self.unbound = root, settings, False
        log.info("language server pid %s bound to %s", self.pid, root)
        added = [lsp.WorkspaceFolder(uri=path_to_uri(str(root)), name=root.name)]
        event = lsp.WorkspaceFoldersChangeEvent(added=added, removed=[])
        params = lsp.DidChangeWorkspaceFoldersParams(event=event)
        self._notify(lambda: self._client.workspace_did_change_workspace_folders(params))

    # --- handlers (``lsp_handlers``) that need the owner's state --------------------------------

    def _on_configuration(self, params: lsp.ConfigurationParams) -> list[Any]:
        return [self._settings(item.section) for item in params.items]

    def _on_publish(self, params: lsp.PublishDiagnosticsParams) -> None:
        self._diagnostics.on_publish(params, self._document_sync.is_open, self._sent)

"""One language server child process driven through pygls: spawn, initialize, documents,
diagnostics (pulled, or pushed and awaited), staged stop.

pygls does the JSON-RPC framing; this module adds what a supervisor needs: a state, a deadline on
every call, pending calls failed the moment the child exits, stderr drained into the log, and
foreign exceptions translated into prewrite's ``BackendFailed`` / ``CheckTimeout``. What differs
between servers (language ids, how diagnostics are delivered, private notifications) is a
``ServerQuirks`` value the backend's factory passes in.
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
from prewrite_daemon.backends.base import BackendState, FileEvent, RawDiagnostic
from prewrite_daemon.backends.child import Child
from prewrite_daemon.backends.lsp_types import (
    EVENT_KIND,
    Published,
    ServerQuirks,
    SettingsFn,
    path_to_uri,
    to_raw,
    uri_to_path,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

log = logging.getLogger(__name__)
T = TypeVar("T")

SERVER_CANCELLED = -32802


class LspProcess:
    """A language server over stdio, its diagnostics delivered as ``quirks`` says.

    ``state`` is the lifecycle's one truth and ``exited`` is derived from it. The ``Child``'s
    ``gone`` is not a second one: it is the wake-up for pending calls, set when the child exits
    or its output can no longer be read, while ``state`` says whether that was expected (a stop)
    or a failure.
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
        self._pull_registered = asyncio.Event()
        self._versions: dict[str, int] = {}
        self._sent = 0  # notifications sent: a push older than the last one may be stale
        self._published: dict[str, Published] = {}
        self._publish_arrived = asyncio.Event()  # replaced by a fresh one at every publish
        self._register_handlers()

    @property
    def pid(self) -> int | None:
        return self._child.pid

    @property
    def exited(self) -> bool:
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
            await self._wait_diagnostics_offered(result, timeout_s)
        except BaseException as exc:
            await self.stop()
            self.state = BackendState.ERRORED
            if isinstance(exc, CheckTimeout):
                raise BackendFailed(f"the language server did not start: {exc}") from exc
            raise
        self.state = BackendState.RUNNING
        log.info("language server pid %s running on %s", self.pid, self.root)

    async def _wait_diagnostics_offered(
        self, result: lsp.InitializeResult, timeout_s: float
    ) -> None:
        """Started means: diagnostics can reach us the way the quirks say they will."""
        match self.quirks.pull:
            case "dynamic":
                await self._child.wait(self._pull_registered.wait(), timeout_s, "pull diagnostics")
            case "static":
                if result.capabilities.diagnostic_provider is None:
                    raise BackendFailed("the language server offers no pull diagnostics")
            case "push":
                pass

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

    # --- documents ------------------------------------------------------------------------------

    def open(self, path: str, text: str) -> None:
        self._versions[path] = 1
        item = lsp.TextDocumentItem(
            uri=path_to_uri(path), language_id=self.quirks.language_id(path), version=1, text=text
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
        self._published.pop(path, None)
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
        if self.quirks.pull == "push":
            return await self._published_diagnostics(path, timeout_s)
        return await self._pull_diagnostics(path, timeout_s)

    async def _pull_diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        """Pull the diagnostics of one open document; retried while the server cancels."""
        params = lsp.DocumentDiagnosticParams(
            text_document=lsp.TextDocumentIdentifier(path_to_uri(path))
        )
        for _attempt in range(20):
            try:
                report = await self._send(lsp.TEXT_DOCUMENT_DIAGNOSTIC, params, timeout_s)
            except BackendFailed as exc:
                if (
                    isinstance(exc.__cause__, JsonRpcException)
                    and exc.__cause__.code == SERVER_CANCELLED
                ):
                    continue
                raise
            if not isinstance(report, lsp.RelatedFullDocumentDiagnosticReport):
                raise BackendFailed(f"unexpected diagnostic report {type(report).__name__}")
            return [to_raw(d) for d in report.items]
        raise BackendFailed(f"the server kept cancelling the diagnostics of {path}")

    async def _published_diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        """Wait for a publish of ``path``'s current version that arrived after the last send.

        The version alone is not enough: a document not edited since it was last published (an
        importer of the edited module) keeps its version, and its earlier publish predates the
        edit. So a publish counts only if it arrived after every notification sent so far; a
        server that does not republish its open documents after each one times out, never
        answers stale. A publish without a version is never trusted.
        """
        version = self._versions.get(path)
        if version is None:
            raise BackendFailed(f"{path} is not open: a push server reports open documents only")
        epoch = self._sent
        what = f"diagnostics published for version {version} of {path}"
        return await self._child.wait(self._wait_published(path, version, epoch), timeout_s, what)

    async def _wait_published(self, path: str, version: int, epoch: int) -> list[RawDiagnostic]:
        while True:
            published = self._published.get(path)
            if published and published.version >= version and published.epoch >= epoch:
                return published.items
            await self._publish_arrived.wait()

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

    def _register_handlers(self) -> None:
        """Handlers for what servers send; anything else pygls logs and ignores."""

        def ignore(_params: object) -> None:
            return None

        handlers: dict[str, Callable[[Any], object]] = {
            **{method: ignore for method in self.quirks.ignored_notifications},
            lsp.WORKSPACE_CONFIGURATION: self._on_configuration,
            lsp.CLIENT_REGISTER_CAPABILITY: self._on_register,
            lsp.CLIENT_UNREGISTER_CAPABILITY: ignore,
            lsp.WINDOW_WORK_DONE_PROGRESS_CREATE: ignore,
            lsp.WORKSPACE_DIAGNOSTIC_REFRESH: ignore,
            lsp.WINDOW_LOG_MESSAGE: self._on_log,
            lsp.WINDOW_SHOW_MESSAGE: self._on_log,
            lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: self._on_publish,
            lsp.PROGRESS: ignore,
        }
        for method, handler in handlers.items():
            # pygls tags the handler function itself, so each gets a plain function of its own.
            self._client.feature(method)(_plain(handler))

    def _on_configuration(self, params: lsp.ConfigurationParams) -> list[Any]:
        return [self._settings(item.section) for item in params.items]

    def _on_register(self, params: lsp.RegistrationParams) -> None:
        for reg in params.registrations:
            log.debug("server registered %s", reg.method)
            if reg.method == lsp.TEXT_DOCUMENT_DIAGNOSTIC:
                self._pull_registered.set()

    def _on_publish(self, params: lsp.PublishDiagnosticsParams) -> None:
        """Pull modes ignore pushes; push mode keeps the latest per open document."""
        if self.quirks.pull != "push":
            return
        path = uri_to_path(params.uri)
        if params.version is None or path not in self._versions:
            log.debug("ignoring diagnostics published for %s, version %s", path, params.version)
            return
        items = [to_raw(d) for d in params.diagnostics]
        self._published[path] = Published(params.version, self._sent, items)
        arrived, self._publish_arrived = self._publish_arrived, asyncio.Event()
        arrived.set()

    def _on_log(self, params: lsp.LogMessageParams | lsp.ShowMessageParams) -> None:
        log.debug("[server] %s", params.message)


def _plain(handler: Callable[[Any], object]) -> Callable[[Any], object]:
    def call(params: Any) -> object:
        return handler(params)

    return call

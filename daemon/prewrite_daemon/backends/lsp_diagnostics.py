"""How a language server's diagnostics reach ``LspProcess``: pulled, or pushed and awaited.

``ServerQuirks.pull`` says which. A pulled diagnostic is a request per document, retried while
the server cancels it. Pushed ones arrive unasked: the latest publish of each open document is
kept here, and a call waits for one that cannot be stale. The registration that makes a dynamic
pull available arrives unasked too. Its handler and the publish handler live here, next to the
state they feed, so the rules that decide which diagnostics answer a call are in one module.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, TypeAlias

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.lsp_types import Published, path_to_uri, to_raw, uri_to_path

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.backends.child import Child
    from prewrite_daemon.backends.lsp_types import PullMode

    Send: TypeAlias = Callable[[str, Any, float], Awaitable[Any]]

log = logging.getLogger(__name__)

SERVER_CANCELLED = -32802


class Diagnostics:
    """One server's diagnostics, delivered as ``pull`` says; owned by its ``LspProcess``.

    Holds what the server sent unasked: whether it registered the pull, and in push mode the
    latest publish of each open document with its ``epoch``. The owner passes in what only it
    knows: a document's open version and the number of notifications sent so far.
    """

    def __init__(self, pull: PullMode, child: Child, send: Send) -> None:
        """``send``: the owner's request with a deadline (``LspProcess._send``)."""
        self._pull: PullMode = pull
        self._child = child
        self._send = send
        self._pull_registered = asyncio.Event()
        self._published: dict[str, Published] = {}
        self._publish_arrived = asyncio.Event()  # replaced by a fresh one at every publish

    async def wait_offered(self, result: lsp.InitializeResult, timeout_s: float) -> None:
        """Started means: diagnostics can reach us the way the quirks say they will."""
        match self._pull:
            case "dynamic":
                await self._child.wait(self._pull_registered.wait(), timeout_s, "pull diagnostics")
            case "static":
                if result.capabilities.diagnostic_provider is None:
                    raise BackendFailed("the language server offers no pull diagnostics")
            case "push":
                pass

    async def of(
        self, path: str, version: int | None, epoch: int, timeout_s: float
    ) -> list[RawDiagnostic]:
        """The diagnostics of ``path`` (open at ``version``, None: not open), as of ``epoch``
        notifications sent."""
        if self._pull == "push":
            return await self._published_diagnostics(path, version, epoch, timeout_s)
        return await self._pull_diagnostics(path, timeout_s)

    def forget(self, path: str) -> None:
        """``path`` was closed: a publish of it from before must not answer after a reopen."""
        self._published.pop(path, None)

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

    async def _published_diagnostics(
        self, path: str, version: int | None, epoch: int, timeout_s: float
    ) -> list[RawDiagnostic]:
        """Wait for a publish of ``path``'s current version that arrived after the last send.

        The version alone is not enough: a document not edited since it was last published (an
        importer of the edited module) keeps its version, and its earlier publish predates the
        edit. So a publish counts only if it arrived after every notification sent so far; a
        server that does not republish its open documents after each one times out, never
        answers stale. A publish without a version is never trusted.
        """
        if version is None:
            raise BackendFailed(f"{path} is not open: a push server reports open documents only")
        what = f"diagnostics published for version {version} of {path}"
        return await self._child.wait(self._wait_published(path, version, epoch), timeout_s, what)

    async def _wait_published(self, path: str, version: int, epoch: int) -> list[RawDiagnostic]:
        while True:
            published = self._published.get(path)
            if published and published.version >= version and published.epoch >= epoch:
                return published.items
            await self._publish_arrived.wait()

    # --- handlers: what the server sends unasked (registered by ``lsp_handlers``) ---------------

    def on_register(self, params: lsp.RegistrationParams) -> None:
        for reg in params.registrations:
            log.debug("server registered %s", reg.method)
            if reg.method == lsp.TEXT_DOCUMENT_DIAGNOSTIC:
                self._pull_registered.set()

    def on_publish(
        self, params: lsp.PublishDiagnosticsParams, is_open: Callable[[str], bool], epoch: int
    ) -> None:
        """Pull modes ignore pushes; push mode keeps the latest per open document, marked with
        ``epoch``, the notifications sent when it arrived."""
        if self._pull != "push":
            return
        path = uri_to_path(params.uri)
        if params.version is None or not is_open(path):
            log.debug("ignoring diagnostics published for %s, version %s", path, params.version)
            return
        items = [to_raw(d) for d in params.diagnostics]
        self._published[path] = Published(params.version, epoch, items)
        arrived, self._publish_arrived = self._publish_arrived, asyncio.Event()
        arrived.set()

"""An editor for the Editors section: a pygls ``LanguageClient`` on one language server
(``prewrite lsp`` or pyright itself), told the daemon's pyright settings, and the call site in
``httpx/_client.py`` where it makes its requests (``Probe``)."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

TARGET_FILE = "httpx/_client.py"
CALL = "self._send_handling_auth("
REQUEST_TIMEOUT_S = 120.0
READY_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Probe:
    """Where the requests are made: a call site's line, and the column of its member name."""

    path: str
    line: int  # 0-based
    member: int  # column of ``_send_handling_auth`` (after ``self.``)


def find_probe(root: Path) -> Probe:
    for line, text in enumerate((root / TARGET_FILE).read_text().splitlines()):
        col = text.find(CALL)
        if col >= 0:
            return Probe(TARGET_FILE, line, col + len("self."))
    raise RuntimeError(f"no {CALL!r} in {TARGET_FILE}")


def _pyright_settings(python: str, section: str | None) -> Any:
    """What the daemon's pyright is told (``backends.pyright.make_pyright``)."""
    analysis = {"diagnosticMode": "openFilesOnly", "autoSearchPaths": True}
    if section == "python":
        return {"analysis": analysis, "pythonPath": python}
    if section == "python.analysis":
        return analysis
    return {} if section in ("pyright", "basedpyright") else None


class Editor:
    """A pygls client on one language server (``prewrite lsp`` or pyright itself)."""

    def __init__(self, name: str, root: Path, python: str) -> None:
        self.name, self.root = name, root
        self.client = LanguageClient(f"bench-{name}", "0")

        def configuration(params: types.ConfigurationParams) -> list[Any]:
            return [_pyright_settings(python, item.section) for item in params.items]

        def ignore(_params: object) -> None:
            return None

        feature = self.client.feature  # pyright: ignore[reportUnknownMemberType]
        feature(types.WORKSPACE_CONFIGURATION)(configuration)
        for method in (
            types.CLIENT_REGISTER_CAPABILITY,
            types.WINDOW_WORK_DONE_PROGRESS_CREATE,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
            types.WINDOW_LOG_MESSAGE,
        ):
            feature(method)(_plain(ignore))

    async def start(self, argv: list[str], env: dict[str, str], options: Any) -> None:
        cmd, *args = argv
        await self.client.start_io(cmd, *args, env=env, cwd=str(self.root))  # pyright: ignore[reportUnknownMemberType]
        uri = self.root.as_uri()
        caps = types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(configuration=True, workspace_folders=True)
        )
        params = types.InitializeParams(
            capabilities=caps, process_id=os.getpid(), root_uri=uri, initialization_options=options,
            workspace_folders=[types.WorkspaceFolder(uri, self.root.name)],
        )  # fmt: skip
        await asyncio.wait_for(self.client.initialize_async(params), READY_TIMEOUT_S)
        self.client.initialized(types.InitializedParams())

    def open(self, rel: str) -> None:
        item = types.TextDocumentItem(
            (self.root / rel).as_uri(), "python", 1, (self.root / rel).read_text()
        )
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))

    async def request(self, method: str, probe: Probe) -> tuple[float, Any]:
        """One timed request (ms) and its answer."""
        doc = types.TextDocumentIdentifier((self.root / probe.path).as_uri())
        col = probe.member if method == "completion" else probe.member + 1
        at = types.Position(probe.line, col)
        c = self.client
        calls: dict[str, Callable[[], Awaitable[Any]]] = {
            "hover": lambda: c.text_document_hover_async(types.HoverParams(doc, at)),
            "definition": lambda: c.text_document_definition_async(types.DefinitionParams(doc, at)),
            "completion": lambda: c.text_document_completion_async(types.CompletionParams(doc, at)),
        }
        t = time.perf_counter()
        answer = await asyncio.wait_for(calls[method](), REQUEST_TIMEOUT_S)
        return (time.perf_counter() - t) * 1000, answer

    async def wait_ready(self, probe: Probe) -> float:
        """Hover until the server has analysed the document (a non-empty answer); ms taken."""
        t = time.perf_counter()
        while (await self.request("hover", probe))[1] is None:
            if time.perf_counter() - t > READY_TIMEOUT_S:
                raise TimeoutError(f"{self.name}: no hover within {READY_TIMEOUT_S:.0f}s")
            await asyncio.sleep(0.2)
        return (time.perf_counter() - t) * 1000

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 10)
            self.client.exit(None)
            await asyncio.wait_for(self.client.stop(), 10)
        except (TimeoutError, OSError, RuntimeError) as exc:
            print(f"    warning: {self.name} did not stop cleanly: {exc!r}", flush=True)


def _plain(handler: Callable[[Any], object]) -> Callable[[Any], object]:
    def call(params: Any) -> object:
        return handler(params)

    return call

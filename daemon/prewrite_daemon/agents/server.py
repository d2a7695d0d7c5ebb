"""``prewrite mcp``: the Model Context Protocol server (stdio) that lets an agent host call
prewrite as tools: ``check``, ``apply`` and ``status``.

A thin layer over the blocking client ``prewrite.Client``: each tool call opens a connection
to the per-user daemon (starting it when ``autostart``), sends one request in a worker thread,
and turns the reply into a tool result (``agents.answers``). A connection per call, because
the client closes its connection after any failed call; the handshake costs well under a
millisecond next to a check. The MCP SDK lives here, on the daemon side: ``import prewrite``
never loads it.

Which workspace a call checks: its ``root`` argument, else the server's default root (``run_mcp``'s
``root``, i.e. ``prewrite mcp --root``), else the server's working directory — hosts such as
Claude Code start MCP servers in the project directory. A root that would be the filesystem
root is refused (``invalid_workspace``).

Run for tests or by hand: ``python -m prewrite_daemon.agents.server [--root DIR] [--no-autostart]``.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations  # run time: the SDK reads annotations
from pydantic import Field

from prewrite import __version__
from prewrite.client import Client
from prewrite.errors import InternalError, PrewriteError
from prewrite_daemon.agents import answers, guide
from prewrite_daemon.agents.inputs import ChangeInput, RungName, resolve_root, to_file_changes

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from prewrite.protocol import FileChange

log = logging.getLogger("prewrite.mcp")

# The tools' annotations are evaluated by the SDK at registration: they become the input schema.
Root = Annotated[str | None, Field(description=guide.ROOT)]
Changes = Annotated[list[ChangeInput], Field(description=guide.CHANGES, min_length=1)]
Rungs = Annotated[list[RungName] | None, Field(description=guide.RUNGS)]
Python = Annotated[str | None, Field(description=guide.PYTHON)]
Timeout = Annotated[float, Field(description=guide.TIMEOUT, gt=0, le=3600)]
Contents = Annotated[bool, Field(description=guide.CONTENTS)]
Finish = Annotated[bool, Field(description=guide.FINISH)]
Intent = Annotated[str | None, Field(description=guide.INTENT)]


class PrewriteTools:
    """The tools' bodies: settle the workspace and the patch, ask the daemon, render."""

    def __init__(self, default_root: Path | None, autostart: bool) -> None:
        self.default_root = default_root
        self.autostart = autostart

    async def check(
        self,
        changes: Changes,
        root: Root = None,
        rungs: Rungs = None,
        python: Python = None,
        timeout_s: Timeout = 120.0,
        return_contents: Contents = True,
        intent: Intent = None,
    ) -> CallToolResult:
        def call(client: Client, workspace: Path, patch: list[FileChange]) -> CallToolResult:
            reply = client.check(
                workspace, patch, python=python, timeout_s=timeout_s,
                return_contents=return_contents, rungs=rungs, intent=intent,
            )  # fmt: skip
            return answers.check_result(reply, _sent(changes))

        return await self._run(root, changes, call)

    async def apply(
        self,
        changes: Changes,
        root: Root = None,
        rungs: Rungs = None,
        python: Python = None,
        timeout_s: Timeout = 120.0,
        finish: Finish = False,
        return_contents: Contents = True,
        intent: Intent = None,
    ) -> CallToolResult:
        def call(client: Client, workspace: Path, patch: list[FileChange]) -> CallToolResult:
            reply = client.apply(
                workspace, patch, python=python, timeout_s=timeout_s, finish=finish,
                return_contents=return_contents, rungs=rungs, intent=intent,
            )  # fmt: skip
            return answers.apply_result(reply, _sent(changes))

        return await self._run(root, changes, call)

    async def status(self) -> CallToolResult:
        return await _guarded(lambda: answers.status_result(self._client().status()))

    async def _run(
        self,
        root: str | None,
        changes: Sequence[ChangeInput],
        call: Callable[[Client, Path, list[FileChange]], CallToolResult],
    ) -> CallToolResult:
        def work() -> CallToolResult:
            workspace = resolve_root(root, self.default_root)
            patch = to_file_changes(workspace, list(changes))
            with self._client() as client:
                return call(client, workspace, patch)

        return await _guarded(work)

    def _client(self) -> Client:
        return Client(autostart=self.autostart)


async def _guarded(work: Callable[[], CallToolResult]) -> CallToolResult:
    """Run blocking ``work`` in a thread; every failure becomes a tool error with its code."""
    try:
        return await anyio.to_thread.run_sync(work)
    except PrewriteError as exc:
        return answers.error_result(exc)
    except Exception:
        log.exception("prewrite mcp: unexpected failure")  # the traceback stays in the log
        return answers.error_result(InternalError("the MCP server failed unexpectedly"))


def _sent(changes: Sequence[ChangeInput]) -> dict[str, str]:
    return {c.path: c.content for c in changes if c.content is not None}


def build_server(root: str | None = None, autostart: bool = True) -> MCPServer:
    """The MCP server with prewrite's tools; ``root`` is the default workspace root."""
    tools = PrewriteTools(None if root is None else Path(root).resolve(), autostart)
    server: MCPServer = MCPServer(
        "prewrite", instructions=guide.INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    server.add_tool(
        tools.check, name="check", title="Check a patch before writing it",
        description=guide.CHECK, annotations=ToolAnnotations(read_only_hint=True),
    )  # fmt: skip
    server.add_tool(
        tools.apply, name="apply", title="Check a patch, then write it all-or-nothing",
        description=guide.APPLY,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
    )  # fmt: skip
    server.add_tool(
        tools.status, name="status", title="prewrite daemon status",
        description=guide.STATUS, annotations=ToolAnnotations(read_only_hint=True),
    )  # fmt: skip
    return server


def run_mcp(root: str | None, autostart: bool) -> int:
    """Serve MCP over stdin/stdout until the client disconnects; the exit status."""
    server = build_server(root, autostart)
    try:
        anyio.run(server.run_stdio_async)
    except KeyboardInterrupt:
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="prewrite mcp", description=__doc__)
    parser.add_argument("--root", help="default workspace root for calls that name none")
    parser.add_argument(
        "--no-autostart", action="store_true", help="never start a daemon; report it missing"
    )
    args = parser.parse_args(argv)
    return run_mcp(args.root, autostart=not args.no_autostart)


if __name__ == "__main__":
    raise SystemExit(main())

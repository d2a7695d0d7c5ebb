"""``prewrite mcp`` driven by the MCP SDK's own client over stdio, against the real daemon.

Each test spawns ``prewrite mcp`` (the installed CLI; it runs ``prewrite_daemon.agents.server``)
with the SDK's stdio client; all of them share one daemon in a private runtime dir, started and
stopped here, and the server never starts one of its own (``--no-autostart``).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import psutil
import pytest
from mcp.client import Client as McpClient
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult, TextContent

from prewrite.client import Client
from prewrite.errors import ERROR_CLASSES
from prewrite.runtime import RuntimePaths
from prewrite_daemon.agents.guide import CHECK, ERROR_HINTS
from tests.e2e.repo_fixture import FILES, write_repo

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Iterator

pytestmark = pytest.mark.e2e

GREET = '    return "hi " + user.name\n'


@pytest.fixture(scope="module")
def daemon_paths() -> Iterator[RuntimePaths]:
    """One daemon for the module, in its own short runtime dir; stopped (or killed) after."""
    with tempfile.TemporaryDirectory(prefix="pw-mcp-", dir="/tmp") as d:
        paths = RuntimePaths(Path(d))
        with Client(paths=paths) as c:
            pid = c.daemon_pid
        try:
            yield paths
        finally:
            try:
                with Client(paths=paths, autostart=False) as c:
                    c.stop()
            finally:
                try:
                    psutil.Process(pid).wait(30)
                except psutil.NoSuchProcess:
                    pass
                except psutil.TimeoutExpired:
                    psutil.Process(pid).kill()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Checked, never written: shared by the module's check tests."""
    return write_repo(tmp_path_factory.mktemp("mcp") / "repo").resolve()


@asynccontextmanager
async def mcp_session(paths: RuntimePaths, root: Path) -> AsyncGenerator[McpClient]:
    env = {
        "PREWRITE_RUNTIME_DIR": str(paths.runtime_dir),
        "PREWRITE_TRUST_FILE": os.environ["PREWRITE_TRUST_FILE"],
    }
    server = StdioServerParameters(
        command=str(Path(sys.executable).with_name("prewrite")),  # the installed CLI
        args=["mcp", "--root", str(root), "--no-autostart"],
        env=env,
        cwd=str(root),
    )
    async with McpClient(server, read_timeout_seconds=180) as client:
        yield client


async def call(client: McpClient, tool: str, **arguments: Any) -> CallToolResult:
    return await client.call_tool(tool, arguments)


def text_of(result: CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, TextContent))


def structured(result: CallToolResult) -> dict[str, Any]:
    data: object = result.structured_content
    assert isinstance(data, dict), result
    return cast("dict[str, Any]", data)


def edit(path: str, find: str, replace: str) -> dict[str, Any]:
    return {"path": path, "edits": [{"find": find, "replace": replace}]}


async def test_the_client_lists_the_three_tools_with_their_schemas(
    daemon_paths: RuntimePaths, repo: Path
) -> None:
    async with mcp_session(daemon_paths, repo) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert sorted(tools) == ["apply", "check", "status"]
    schema = tools["check"].input_schema
    assert schema["required"] == ["changes"]
    assert set(schema["properties"]) >= {"changes", "root", "rungs", "python"}
    assert "find" in schema["$defs"]["EditInput"]["properties"]
    assert tools["check"].annotations is not None
    assert tools["check"].annotations.read_only_hint is True
    assert "exactly once" in (tools["check"].description or "")


def test_every_error_code_is_explained_to_the_model() -> None:
    assert set(ERROR_HINTS) == set(ERROR_CLASSES)
    assert all(f"- {code}: " in CHECK for code in ERROR_CLASSES)


async def test_a_red_patch_is_not_ok_and_names_the_introduced_error(
    daemon_paths: RuntimePaths, repo: Path
) -> None:
    async with mcp_session(daemon_paths, repo) as client:
        # base_sha256 omitted: an anchored edit is taken against the bytes on disk now
        patch = [edit("pkg/service.py", GREET, "    return user.age\n")]
        result = await call(client, "check", changes=patch, python=sys.executable)
    assert result.is_error is False, text_of(result)
    reply = structured(result)
    assert reply["ok"] is False
    assert reply["failed_rung"] == "typecheck"
    [diag] = reply["diagnostics"]
    assert (diag["path"], diag["line"], diag["rule"]) == ("pkg/service.py", 5, "reportReturnType")
    text = text_of(result)
    assert text.startswith("verdict: FAILED at typecheck: 1 new error(s)")
    assert f"pkg/service.py:5:{diag['column']}: error: " in text
    assert "[reportReturnType]" in text
    assert (repo / "pkg/service.py").read_text() == FILES["pkg/service.py"]  # never written


async def test_a_green_multi_file_patch_is_ok(daemon_paths: RuntimePaths, repo: Path) -> None:
    new_module = "from pkg.service import greet\n\n__all__ = ['greet']\n"
    patch = [
        edit("pkg/service.py", GREET, '    return "hello " + user.name\n'),
        {"path": "pkg/extra.py", "base_sha256": None, "content": new_module},
    ]
    async with mcp_session(daemon_paths, repo) as client:
        result = await call(client, "check", changes=patch, root=str(repo), rungs=["typecheck"])
    reply = structured(result)
    assert (result.is_error, reply["ok"], reply["failed_rung"]) == (False, True, None), reply
    assert reply["diagnostics"] == []
    outcomes = {r["rung"]: r["outcome"] for r in reply["rungs"]}
    assert outcomes["typecheck"] == "pass"
    assert outcomes["parse"] == "skipped"  # only the typecheck rung was asked for
    files = {f["path"]: f for f in reply["files"]}
    assert files["pkg/extra.py"]["content"] == new_module
    assert text_of(result).startswith("verdict: ok: 0 new error(s)")
    assert not (repo / "pkg/extra.py").exists()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (edit("pkg/util.py", "return x * 3", "return x"), "find_mismatch"),
        ({"path": "../escape.py", "content": "x = 1\n"}, "path_outside_workspace"),
        ({"path": "pkg/util.py", "content": "x = 1\n"}, "bad_request"),  # rewrite needs a base
        ({"path": "pkg/util.py", "base_sha256": "0" * 64, "delete": True}, "stale_base"),
    ],
    ids=["find-absent", "outside-root", "rewrite-without-base", "wrong-base"],
)
async def test_bad_input_is_a_tool_error_with_its_code(
    daemon_paths: RuntimePaths, repo: Path, change: dict[str, Any], code: str
) -> None:
    async with mcp_session(daemon_paths, repo) as client:
        result = await call(client, "check", changes=[change])
    assert result.is_error is True
    error = structured(result)["error"]
    assert error["code"] == code, error
    assert error["hint"] == ERROR_HINTS[code]
    text = text_of(result)
    assert text.startswith(f"error {code}: ")
    assert "what to do: " in text
    assert "Traceback" not in text
    assert not (repo.parent / "escape.py").exists()


async def test_a_rewrite_without_base_is_refused_without_the_disk_hash(
    daemon_paths: RuntimePaths, repo: Path
) -> None:
    """Issue 20, item 15: the refusal named the file's hash, so a model could overwrite a file
    it never read by copying it back. Only the hash of the bytes read gets the rewrite through."""
    content = "def helper(x: int) -> int:\n    return x * 3\n"
    disk = hashlib.sha256((repo / "pkg/util.py").read_bytes()).hexdigest()
    async with mcp_session(daemon_paths, repo) as client:
        refused = await call(client, "check", changes=[{"path": "pkg/util.py", "content": content}])
        error = structured(refused)["error"]
        assert error["code"] == "bad_request"
        assert disk not in text_of(refused)
        assert all(disk not in str(value) for value in error.values())
        change = {"path": "pkg/util.py", "base_sha256": disk, "content": content}
        result = await call(client, "check", changes=[change])
    assert structured(result)["ok"] is True, text_of(result)


async def test_a_call_that_breaks_the_schema_is_a_tool_error(
    daemon_paths: RuntimePaths, repo: Path
) -> None:
    async with mcp_session(daemon_paths, repo) as client:
        result = await call(client, "check", changes=[{"path": "a.py", "find": "x"}])
    assert result.is_error is True
    assert "changes.0.find" in text_of(result)  # the SDK names the field; no traceback
    assert "Traceback" not in text_of(result)


async def test_apply_writes_a_green_patch_and_refuses_a_red_one(
    daemon_paths: RuntimePaths, tmp_path: Path
) -> None:
    repo = write_repo(tmp_path / "repo")
    red = [edit("pkg/util.py", "return x * 2", 'return "two"')]
    green = [edit("pkg/util.py", "return x * 2", "return x * 3")]
    async with mcp_session(daemon_paths, repo) as client:
        refused = await call(client, "apply", changes=red, python=sys.executable)
        assert structured(refused)["written"] == []
        assert (repo / "pkg/util.py").read_text() == FILES["pkg/util.py"]
        result = await call(client, "apply", changes=green, python=sys.executable)
    reply = structured(result)
    assert (result.is_error, reply["ok"]) == (False, True), text_of(result)
    on_disk = (repo / "pkg/util.py").read_bytes()
    assert on_disk.decode() == "def helper(x: int) -> int:\n    return x * 3\n"
    [written] = reply["written"]
    assert written == {"path": "pkg/util.py", "sha256": hashlib.sha256(on_disk).hexdigest()}
    assert f"wrote pkg/util.py (sha256 {written['sha256']})" in text_of(result)
    assert text_of(result).splitlines()[-1] == "apply: ok"


async def test_status_answers_with_the_daemon_and_its_workspaces(
    daemon_paths: RuntimePaths, repo: Path
) -> None:
    with Client(paths=daemon_paths, autostart=False) as c:
        pid = c.daemon_pid
    async with mcp_session(daemon_paths, repo) as client:
        await call(client, "check", changes=[edit("pkg/util.py", "x * 2", "x * 4")])
        result = await call(client, "status")
    reply = structured(result)
    assert reply["pid"] == pid
    assert str(repo) in [w["root"] for w in reply["workspaces"]]
    assert text_of(result).startswith(f"prewrite daemon {reply['version']}, pid {pid}")

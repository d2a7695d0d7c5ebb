"""Editors attached through ``prewrite lsp``: the real pyright, a real LSP client, isolation.

Each test starts ``prewrite lsp`` as an editor would (a pygls ``LanguageClient`` over stdio)
against the session's daemon, on a small repository, and checks what the editor gets — and what
it must never get: a shadow path, another editor's unsaved text, anything an agent's candidate
patch made the checker compute.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from prewrite import Client, change_file, new_file
from prewrite.errors import PrewriteError
from prewrite.runtime import RuntimePaths
from tests.support.lsp_editor import WAIT_S, Editor, codes, editor

pytestmark = pytest.mark.e2e

CALC = "def add(a: int, b: int) -> int:\n    return a + b\n"
USE = "from pkg.calc import add\n\nx: int = add(1, 2)\ny: str = 3\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = (tmp_path / "repo").resolve()
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "calc.py").write_text(CALC)
    (root / "pkg" / "use.py").write_text(USE)
    return root


async def test_diagnostics_hover_and_definition_with_real_paths(
    daemon: RuntimePaths, repo: Path
) -> None:
    async with editor(repo) as ed:
        ed.open("pkg/use.py")
        assert codes(await ed.diagnostics("pkg/use.py", 1)) == [(3, "reportAssignmentType")]
        at = types.TextDocumentPositionParams(
            types.TextDocumentIdentifier(ed.uri("pkg/use.py")), types.Position(2, 10)
        )
        hover = await ed.client.text_document_hover_async(types.HoverParams(**vars_of(at)))
        assert hover is not None
        assert "def add" in str(hover.contents)
        found = await ed.client.text_document_definition_async(
            types.DefinitionParams(**vars_of(at))
        )
        assert isinstance(found, list)
        assert [loc.uri for loc in found] == [ed.uri("pkg/calc.py")]  # type: ignore[union-attr]
        ed.edit("pkg/use.py", "from pkg.calc import add\n\nx: int = add(1, 'no')\n")
        assert codes(await ed.diagnostics("pkg/use.py", 2)) == [(2, "reportArgumentType")]


def vars_of(params: types.TextDocumentPositionParams) -> dict[str, Any]:
    return {"text_document": params.text_document, "position": params.position}


async def test_an_agents_candidate_never_reaches_the_editor(
    daemon: RuntimePaths, repo: Path
) -> None:
    """An agent checks a red patch of the file the editor has open: the editor's diagnostics
    and hover still describe the editor's own text."""
    async with editor(repo) as ed:
        ed.open("pkg/calc.py")
        assert codes(await ed.diagnostics("pkg/calc.py", 1)) == []
        red = CALC.replace("return a + b", "return 'str'")
        with Client(paths=daemon, autostart=False) as agent:
            reply = await asyncio.to_thread(
                agent.check, repo, [change_file(repo, "pkg/calc.py", red)], timeout_s=WAIT_S
            )
        assert not reply.ok
        ed.edit("pkg/calc.py", CALC + "\n")  # a harmless edit: a fresh pull, after the check
        assert codes(await ed.diagnostics("pkg/calc.py", 2)) == []
        assert len(ed.published[ed.uri("pkg/calc.py")]) == 2  # nothing else was published


async def test_an_editors_unsaved_buffer_never_reaches_an_agent(
    daemon: RuntimePaths, repo: Path
) -> None:
    """The editor breaks calc.add in an unsaved buffer; an agent's patch to use.py is judged
    against the disk, as it is with no editor attached."""
    patch = [change_file(repo, "pkg/use.py", USE.replace("y: str = 3\n", "z: int = add(2, 3)\n"))]
    with Client(paths=daemon, autostart=False) as agent:
        alone = await asyncio.to_thread(agent.check, repo, patch, timeout_s=WAIT_S)
    async with editor(repo) as ed:
        ed.open("pkg/calc.py", CALC.replace("a: int, b: int", "a: str, b: str"))
        ed.open("pkg/use.py")
        use = await ed.diagnostics("pkg/use.py", 1)
        assert (2, "reportArgumentType") in codes(use)  # the editor sees its own buffer
        with Client(paths=daemon, autostart=False) as agent:
            beside = await asyncio.to_thread(agent.check, repo, patch, timeout_s=WAIT_S)
    assert beside.ok == alone.ok
    assert beside.diagnostics == alone.diagnostics


async def test_two_editors_each_see_their_own_unsaved_text(
    daemon: RuntimePaths, repo: Path
) -> None:
    async with editor(repo) as one, editor(repo) as two:
        one.open("pkg/use.py", "x: int = 'one'\n")
        two.open("pkg/use.py", "x: str = 2\n\nz: int = 'two'\n")
        first = await one.diagnostics("pkg/use.py", 1)
        second = await two.diagnostics("pkg/use.py", 1)
        assert codes(first) == [(0, "reportAssignmentType")]
        assert codes(second) == [(0, "reportAssignmentType"), (2, "reportAssignmentType")]
        one.edit("pkg/use.py", "x: int = 1\n")
        assert codes(await one.diagnostics("pkg/use.py", 2)) == []
        at = types.HoverParams(
            types.TextDocumentIdentifier(two.uri("pkg/use.py")), types.Position(2, 0)
        )
        hover = await two.client.text_document_hover_async(at)
        assert hover is not None
        assert "z" in str(hover.contents)  # line 2 exists only in the second editor's text


NVIM_SCRIPT = Path(__file__).parent / "editors" / "nvim_check.lua"


def test_neovim_shows_the_diagnostics_and_answers_hover_and_definition(
    daemon: RuntimePaths, repo: Path, tmp_path: Path
) -> None:
    """A real editor: headless Neovim with its built-in LSP client attached to prewrite lsp."""
    nvim = shutil.which("nvim")
    if nvim is None:
        if os.environ.get("CI"):
            pytest.fail("nvim is missing in CI (.ci/run installs Debian's neovim)")
        pytest.skip("nvim is not installed (Debian: apt-get install neovim)")
    prewrite = shutil.which("prewrite", path=str(Path(sys.executable).parent))
    out = tmp_path / "nvim.json"
    settings = {
        "prewrite_cmd": prewrite,
        "prewrite_root": str(repo),
        "prewrite_file": "pkg/use.py",
        "prewrite_out": str(out),
    }
    lets = [f"let g:{k} = {json.dumps(v)}" for k, v in settings.items()]
    argv = [nvim, "--headless", "-u", "NONE", "-i", "NONE"]
    for command in [*lets, f"luafile {NVIM_SCRIPT}"]:
        argv += ["-c", command]
    subprocess.run(argv, cwd=repo, timeout=180, check=False, capture_output=True)
    seen = json.loads(out.read_text())
    assert seen["error"] is None, seen["error"]
    assert [(d["lnum"], d["code"]) for d in seen["diagnostics"]] == [(3, "reportAssignmentType")]
    assert "def add" in json.dumps(seen["hover"])
    assert (repo / "pkg" / "calc.py").as_uri() in json.dumps(seen["definition"])


def _at(ed: Editor, rel: str, line: int, character: int) -> dict[str, Any]:
    return {
        "text_document": types.TextDocumentIdentifier(ed.uri(rel)),
        "position": types.Position(line, character),
    }


async def test_rename_references_completion_and_symbols_name_real_paths(
    daemon: RuntimePaths, repo: Path
) -> None:
    async with editor(repo) as ed:
        ed.open("pkg/use.py")
        ed.open("pkg/calc.py")
        await ed.diagnostics("pkg/use.py", 1)
        refs = await ed.client.text_document_references_async(
            types.ReferenceParams(
                **_at(ed, "pkg/calc.py", 0, 5), context=types.ReferenceContext(True)
            )
        )
        assert refs is not None
        assert {r.uri for r in refs} == {ed.uri("pkg/calc.py"), ed.uri("pkg/use.py")}
        edit = await ed.client.text_document_rename_async(
            types.RenameParams(**_at(ed, "pkg/calc.py", 0, 5), new_name="plus")
        )
        assert edit is not None
        touched = json.dumps(ed.client.protocol._converter.unstructure(edit))  # pyright: ignore[reportPrivateUsage]
        assert ed.uri("pkg/use.py") in touched
        assert ed.uri("pkg/calc.py") in touched
        assert str(daemon.runtime_dir) not in touched  # never a shadow path
        assert not (repo / "pkg" / "calc.py").read_text().count("plus")  # nothing written
        ed.edit("pkg/use.py", "from pkg.calc import add\n\nx: int = add(1, 2)\nx.\n")
        items = await ed.client.text_document_completion_async(
            types.CompletionParams(**_at(ed, "pkg/use.py", 3, 2))
        )
        labels = [
            i.label
            for i in (items.items if isinstance(items, types.CompletionList) else items or [])
        ]
        assert "bit_length" in labels
        symbols = await ed.client.text_document_document_symbol_async(
            types.DocumentSymbolParams(types.TextDocumentIdentifier(ed.uri("pkg/calc.py")))
        )
        assert symbols is not None
        assert "add" in json.dumps(ed.client.protocol._converter.unstructure(symbols))  # pyright: ignore[reportPrivateUsage]


async def test_a_checker_restart_refreshes_the_editor(daemon: RuntimePaths, repo: Path) -> None:
    """An environment change restarts the checker; the editor's diagnostics are pulled again
    (its buffers re-laid on the new checker), never left from before the restart."""
    async with editor(repo) as ed:
        ed.open("pkg/use.py", "x: int = 'unsaved'\n")
        assert codes(await ed.diagnostics("pkg/use.py", 1)) == [(0, "reportAssignmentType")]
        (repo / "pyrightconfig.json").write_text('{"reportAssignmentType": "none"}')
        with Client(paths=daemon, autostart=False) as agent:  # admits the change: a restart
            patch = [new_file("pkg/other.py", "z = 1\n")]
            await asyncio.to_thread(agent.check, repo, patch, timeout_s=WAIT_S)
        after = await ed.diagnostics("pkg/use.py", 2)
        assert codes(after) == []  # the new settings, and still the editor's own text


async def test_a_daemon_restart_is_survived_with_the_editors_buffers(
    repo: Path, tmp_path: Path
) -> None:
    """The daemon stops under an attached editor: ``prewrite lsp`` starts a new one and replays
    the editor's session (its unsaved text), so diagnostics and hover keep coming."""
    runtime = Path(tempfile.mkdtemp(prefix="pw-ed-", dir="/tmp"))  # short: a socket path
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(runtime))
    paths = RuntimePaths(runtime)
    ed = Editor(repo)
    try:
        await ed.start(env)
        ed.open("pkg/use.py", "x: int = 'unsaved'\n")
        assert codes(await ed.diagnostics("pkg/use.py", 1)) == [(0, "reportAssignmentType")]
        with Client(paths=paths, autostart=False) as first:
            old_pid = first.daemon_pid
            first.stop()
        ed.edit("pkg/use.py", "x: int = 'unsaved'\ny: str = 2\n")
        after = await ed.diagnostics_until("pkg/use.py", lambda d: len(d) == 2)
        assert codes(after) == [(0, "reportAssignmentType"), (1, "reportAssignmentType")]
        with Client(paths=paths, autostart=False) as second:
            assert second.daemon_pid != old_pid
        hover = await ed.client.text_document_hover_async(
            types.HoverParams(**_at(ed, "pkg/use.py", 1, 0))
        )
        assert hover is not None
        assert "y" in str(hover.contents)
        await ed.stop()
    finally:
        with contextlib.suppress(PrewriteError), Client(paths=paths, autostart=False) as c:
            c.stop()
        shutil.rmtree(runtime, ignore_errors=True)


async def test_a_request_not_listed_is_relayed_or_declined_never_dropped(
    daemon: RuntimePaths, repo: Path
) -> None:
    """Call hierarchy is not in our list: relayed to pyright (which has it), paths mapped; a
    request pyright lacks comes back as an error naming the checker, not as silence."""
    async with editor(repo) as ed:
        ed.open("pkg/calc.py")
        items = await ed.client.text_document_prepare_call_hierarchy_async(
            types.CallHierarchyPrepareParams(**_at(ed, "pkg/calc.py", 0, 5))
        )
        assert items is not None
        assert [i.uri for i in items] == [ed.uri("pkg/calc.py")]
        with pytest.raises(JsonRpcException, match="checker"):
            await asyncio.wait_for(
                ed.client.text_document_document_link_async(
                    types.DocumentLinkParams(types.TextDocumentIdentifier(ed.uri("pkg/calc.py")))
                ),
                WAIT_S,
            )

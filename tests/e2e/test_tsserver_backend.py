"""TsServerProcess against the real tsserver of TypeScript 5.9.3, on tiny temporary projects.

What the core relies on: an answer reflects every document and disk change sent before it (an
overlay, its removal, a file deleted or created on disk), positions match ``tsc`` (UTF-16
columns, whatever line breaks), and a dead child fails calls at once instead of answering.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.base import BackendState, FileEvent, RawDiagnostic
from prewrite_daemon.backends.tsserver import TsServerProcess
from prewrite_daemon.backends.tsserver_wire import tsserver_argv

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

pytestmark = [pytest.mark.e2e]

TS5 = Path(__file__).resolve().parents[1] / "toolchains" / "node_modules" / "typescript5"
if not (TS5 / "lib" / "tsserver.js").is_file():
    pytest.skip(
        f"TypeScript 5 is not installed at {TS5} (run `npm ci --prefix tests/toolchains`)",
        allow_module_level=True,
    )

TIMEOUT_S = 60.0  # a bound, not a wait: a healthy answer takes well under a second
TSCONFIG = {
    "compilerOptions": {"strict": True, "noEmit": True, "target": "es2022", "module": "nodenext"},
    "include": ["src"],
}
A = "export function f(x: number): number {\n  return x;\n}\n"
B = 'import { f } from "./a.js";\nexport const y: number = f(1);\n'
A_TAKES_STRING = "export function f(x: string): number {\n  return x.length;\n}\n"
TSC_LINE = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+),(?P<col>\d+)\): \w+ TS(?P<code>\d+): (?P<msg>.*)$"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    (root / "src" / "a.ts").write_text(A)
    (root / "src" / "b.ts").write_text(B)
    return root


@pytest.fixture
async def server(project: Path) -> AsyncIterator[TsServerProcess]:
    ts = TsServerProcess(tsserver_argv(TS5), project, None)
    await ts.start(timeout_s=TIMEOUT_S)
    assert ts.state is BackendState.RUNNING
    yield ts
    await ts.stop(grace_s=2.0)
    assert ts.pid is None or is_gone(ts.pid)


def is_gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_DEAD
    except psutil.NoSuchProcess:
        return True


def src(project: Path, name: str) -> str:
    return str(project / "src" / name)


def open_all(server: TsServerProcess, project: Path) -> None:
    for name in ("a.ts", "b.ts"):
        server.open(src(project, name), (project / "src" / name).read_text())


def codes(diagnostics: list[RawDiagnostic]) -> list[str]:
    return [d.rule for d in diagnostics]


def cold_tsc(project: Path) -> list[tuple[str, int, int, str, str]]:
    """(file, 1-based line, 1-based column, code, first message line) as ``tsc`` prints them."""
    result = subprocess.run(
        ["node", str(TS5 / "bin" / "tsc"), "--noEmit", "-p", ".", "--pretty", "false"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    found = [m for line in result.stdout.splitlines() if (m := TSC_LINE.match(line))]
    return [(m["file"], int(m["line"]), int(m["col"]), m["code"], m["msg"]) for m in found]


def as_tsc(file: str, diagnostics: list[RawDiagnostic]) -> list[tuple[str, int, int, str, str]]:
    return [(file, d.line + 1, d.column + 1, d.rule, d.message.split("\n")[0]) for d in diagnostics]


async def test_a_clean_project_has_no_diagnostics(server: TsServerProcess, project: Path) -> None:
    open_all(server, project)
    assert await server.diagnostics(src(project, "b.ts"), TIMEOUT_S) == []
    assert await server.diagnostics(src(project, "a.ts"), TIMEOUT_S) == []


async def test_an_overlay_breaks_the_importer_and_closing_it_reverts(
    server: TsServerProcess, project: Path
) -> None:
    open_all(server, project)
    a, b = src(project, "a.ts"), src(project, "b.ts")
    server.change(a, A_TAKES_STRING)
    assert await server.diagnostics(b, TIMEOUT_S) == [
        RawDiagnostic(
            1, 27, 1, 28, "error", "2345",
            "Argument of type 'number' is not assignable to parameter of type 'string'.", "ts",
        )
    ]  # fmt: skip
    server.change(a, A)
    assert await server.diagnostics(b, TIMEOUT_S) == []
    server.close(a)
    server.open(a, A_TAKES_STRING)
    assert codes(await server.diagnostics(b, TIMEOUT_S)) == ["2345"]
    server.close(a)  # back to the disk's a.ts
    assert not server.is_open(a)
    assert await server.diagnostics(b, TIMEOUT_S) == []


async def test_a_new_unsaved_module_resolves(server: TsServerProcess, project: Path) -> None:
    open_all(server, project)
    b, c = src(project, "b.ts"), src(project, "c.ts")
    server.change(b, 'import { g } from "./c.js";\nexport const y: number = g();\n')
    assert codes(await server.diagnostics(b, TIMEOUT_S)) == ["2307"]
    server.open(c, "export function g(): string {\n  return 'x';\n}\n")
    assert codes(await server.diagnostics(b, TIMEOUT_S)) == ["2322"]  # really g of c.ts
    server.change(c, "export function g(): number {\n  return 1;\n}\n")
    assert await server.diagnostics(b, TIMEOUT_S) == []
    server.close(c)
    assert codes(await server.diagnostics(b, TIMEOUT_S)) == ["2307"]


async def test_a_new_module_opened_with_its_importer_resolves(
    server: TsServerProcess, project: Path
) -> None:
    """No answer in between: tsserver's watchers for the failed import are not yet read."""
    b, c = src(project, "b.ts"), src(project, "c.ts")
    server.open(b, 'import { g } from "./c.js";\nexport const y: number = g();\n')
    server.open(c, "export function g(): string {\n  return 'x';\n}\n")
    assert codes(await server.diagnostics(b, TIMEOUT_S)) == ["2322"]


async def test_a_module_deleted_then_created_on_disk(
    server: TsServerProcess, project: Path, tmp_path: Path
) -> None:
    server.open(src(project, "b.ts"), B)  # a.ts stays closed: tsserver reads it from disk
    b, a = src(project, "b.ts"), project / "src" / "a.ts"
    assert await server.diagnostics(b, TIMEOUT_S) == []
    a.rename(tmp_path / "a.ts.saved")
    server.files_changed([FileEvent(str(a), "deleted")])
    diagnostics = await server.diagnostics(b, TIMEOUT_S)
    assert codes(diagnostics) == ["2307"]
    assert diagnostics[0].message.startswith("Cannot find module './a.js'")
    a.write_text(A_TAKES_STRING)
    server.files_changed([FileEvent(str(a), "created")])
    assert codes(await server.diagnostics(b, TIMEOUT_S)) == ["2345"]  # the new a.ts, read
    a.write_text(A)
    server.files_changed([FileEvent(str(a), "changed")])
    assert await server.diagnostics(b, TIMEOUT_S) == []


async def test_a_module_created_in_a_new_directory(server: TsServerProcess, project: Path) -> None:
    b = src(project, "b.ts")
    server.open(b, 'import { g } from "./lib/c.js";\nexport const y: number = g();\n')
    assert codes(await server.diagnostics(b, TIMEOUT_S)) == ["2307"]
    (project / "src" / "lib").mkdir()
    (project / "src" / "lib" / "c.ts").write_text("export function g(): number {\n  return 1;\n}\n")
    server.files_changed([FileEvent(src(project, "lib/c.ts"), "created")])
    assert await server.diagnostics(b, TIMEOUT_S) == []


async def test_a_syntax_error_is_reported_alone_as_tsc_does(
    server: TsServerProcess, project: Path
) -> None:
    """tsc stops before the semantic check when there is a syntax error; so does the backend."""
    text = 'export const n: number = "semantic error";\nlet = ;\n'
    (project / "src" / "b.ts").write_text(text)
    server.open(src(project, "b.ts"), text)
    diagnostics = await server.diagnostics(src(project, "b.ts"), TIMEOUT_S)
    assert codes(diagnostics) == ["1109"]
    assert as_tsc("src/b.ts", diagnostics) == cold_tsc(project)


async def test_positions_after_non_ascii_text_and_odd_line_breaks(
    server: TsServerProcess, project: Path
) -> None:
    """Whole-document edits end where tsserver thinks the old text ends (UTF-16 offsets, CR,
    CRLF, U+2028 as line breaks): a wrong end would leave text behind and move the errors."""
    b = src(project, "b.ts")
    versions = [
        'const s = "\U0001f600\U0001f600";\nexport const n: number = "x";\n',
        'const s = "\u00e9\U0001f600"; // \u2028 odd break\r\n'
        'const t = 1;\rexport const n: number = "y";',
        "// \U0001f4a9\U0001f4a9\U0001f4a9\r\n"
        'const s: string = "\U0001f600";export const n: number = s;\n',
    ]
    server.open(b, B)
    for text in versions:
        server.change(b, text)
    diagnostics = await server.diagnostics(b, TIMEOUT_S)
    assert codes(diagnostics) == ["2322"]
    (project / "src" / "b.ts").write_text(versions[-1], newline="")
    assert as_tsc("src/b.ts", diagnostics) == cold_tsc(project)
    assert (diagnostics[0].line, diagnostics[0].column) == (1, 36)  # 😀 is two UTF-16 units


async def test_stop_leaves_no_process(project: Path) -> None:
    ts = TsServerProcess(tsserver_argv(TS5), project, None)
    await ts.start(timeout_s=TIMEOUT_S)
    pid = ts.pid
    assert pid is not None
    assert not is_gone(pid)
    await ts.stop()
    assert ts.state is BackendState.EXITED
    assert is_gone(pid)
    with pytest.raises(BackendFailed):
        await ts.diagnostics(src(project, "b.ts"), TIMEOUT_S)


async def test_a_killed_child_fails_the_pending_call_at_once(
    server: TsServerProcess, project: Path
) -> None:
    open_all(server, project)
    pid = server.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)  # the request below is certainly still pending when it dies
    pending = asyncio.create_task(server.diagnostics(src(project, "b.ts"), TIMEOUT_S))
    await asyncio.sleep(0)  # one turn of the loop: the request is written, not a timed wait
    assert not pending.done()
    began = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(BackendFailed):
        await pending
    assert time.monotonic() - began < TIMEOUT_S / 4
    assert server.state is BackendState.ERRORED
    assert server.exited
    with pytest.raises(BackendFailed):
        await server.diagnostics(src(project, "b.ts"), TIMEOUT_S)
    with pytest.raises(BackendFailed):
        server.change(src(project, "a.ts"), A)


async def test_a_file_not_open_is_refused(server: TsServerProcess, project: Path) -> None:
    with pytest.raises(BackendFailed, match="not open"):
        await server.diagnostics(src(project, "b.ts"), TIMEOUT_S)

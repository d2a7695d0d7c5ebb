"""pyright as a backend: its LSP quirks, the settings it gets, the cold CLI run (its command lines
are ``backends.pyright_command``). basedpyright (a ``Flavour``) is driven the same way.

Settings mirror the ``pyright`` CLI's defaults so a warm verdict equals a cold run's: the
workspace's own ``pyrightconfig.json`` / ``[tool.pyright]`` decides the rules, the interpreter
decides the installed packages, and ``openFilesOnly`` keeps the server from analysing the whole
tree in the background (the daemon opens exactly the files it pulls). Nothing else is set: the
server's own defaults are its CLI's (basedpyright's ``typeCheckingMode`` is "recommended" in
both), and the configuration file decides the rest.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.backends.lsp_process import LspProcess
from prewrite_daemon.backends.lsp_types import ServerQuirks, SettingsFn
from prewrite_daemon.backends.process import run_captured
from prewrite_daemon.backends.pyright_command import (
    PYRIGHT,
    Flavour,
    cli_argv,
    langserver_argv,
    server_env,
)

_START = {"line": 0, "character": 0}


def _python_language_id(path: str) -> str:
    return "python"


# pyright registers pull diagnostics dynamically after ``initialized`` (it pushes only to clients
# without pull), and reports analysis progress with notifications of its own.
PYRIGHT_QUIRKS = ServerQuirks(
    language_id=_python_language_id,
    pull="dynamic",
    ignored_notifications=frozenset(
        {"pyright/beginProgress", "pyright/reportProgress", "pyright/endProgress"}
    ),
    open_around_events=(".py", ".pyi"),
)


def _settings(python: str | None) -> SettingsFn:
    def settings(section: str | None) -> Any:
        analysis = {"diagnosticMode": "openFilesOnly", "autoSearchPaths": True}
        if section == "python":
            return {"analysis": analysis} | ({"pythonPath": python} if python else {})
        if section == "python.analysis":
            return analysis
        if section == "basedpyright":  # basedpyright reads ``basedpyright.analysis`` first
            return {"analysis": analysis}
        if section == "pyright":
            return {}
        return None

    return settings


def make_pyright(
    root: Path,
    python: str | None,
    ready: LspProcess | None = None,
    dist: Path | None = None,
    flavour: Flavour = PYRIGHT,
) -> LspProcess:
    """A pyright language server over the tree at ``root`` using ``python``'s packages.

    ``python`` None: pyright is given no interpreter to run; the tree's configuration names the
    venv to read instead (an untrusted workspace). ``ready``: a server ``make_ready_pyright``
    started, given the tree now (its settings are asked for the tree's folder, as a fresh
    server's are for its root).
    """
    if ready is not None:
        ready.bind(root, _settings(python))
        return ready
    argv = langserver_argv(dist, flavour)  # ``dist``: the workspace's own (never a ready one)
    return LspProcess(argv, root, _settings(python), server_env(), PYRIGHT_QUIRKS)


# What a ready pyright checks while it waits (``backends.ready``): the standard library's most
# used stubs and the constructs every project has, so the parser, binder and checker have run
# (and been compiled by node) before a workspace's first check. Never written to disk; its
# results are dropped; the workspace's own program is built afresh all the same.
WARM_UP_SOURCE = """\
import abc, collections, dataclasses, enum, functools, itertools, json, os, pathlib, re, typing
from collections.abc import Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self) -> float: ...


@dataclasses.dataclass(frozen=True)
class Point(Generic[T]):
    x: T
    y: T

    def moved(self, dx: T) -> "Point[T]":
        return dataclasses.replace(self, x=dx)


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Named(Protocol):
    name: str


def first(items: Sequence[T], default: T) -> T:
    return items[0] if items else default


def words(text: str) -> dict[str, int]:
    counts: collections.Counter[str] = collections.Counter(re.findall(r"\\w+", text))
    return dict(counts.most_common(3))


def walk(root: pathlib.Path) -> Iterator[pathlib.Path]:
    yield from (p for p in root.rglob("*.py") if p.is_file())


def load(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


PAIRS = list(itertools.product([1, 2], ["a", "b"]))
HOME: typing.Final = os.environ.get("HOME", "") + str(first([Color.RED], Color.GREEN).value)
"""


def make_ready_pyright(cwd: Path) -> LspProcess:
    """A pyright language server to start ahead of need, with no tree until ``make_pyright``
    binds it: node and pyright's code are loaded before the first check asks. Until then its
    default workspace is told the daemon's own interpreter (nothing of any repository)."""
    settings = _settings(sys.executable)
    return LspProcess(langserver_argv(), cwd, settings, server_env(), PYRIGHT_QUIRKS, unbound=True)


def cold_argv(
    python: str | None, dist: Path | None = None, flavour: Flavour = PYRIGHT
) -> list[str]:
    """The cold CLI's command line, run in the tree (``prewrite doctor`` shows it beside CI's);
    ``dist``: the workspace's own pyright (None: prewrite's)."""
    pythonpath = ["--pythonpath", python] if python else []
    return [*cli_argv(dist, flavour), "--outputjson", *pythonpath]


async def cold_pyright(
    tree: Path,
    python: str | None,
    timeout_s: float,
    dist: Path | None = None,
    flavour: Flavour = PYRIGHT,
) -> dict[str, list[RawDiagnostic]]:
    """``pyright --outputjson`` on the project in ``tree``: diagnostics per tree-relative path.

    ``python`` None: no interpreter is run; the tree's configuration names the venv. Files
    outside the tree (libraries) are not the workspace's and are dropped.
    """
    argv = cold_argv(python, dist, flavour)
    what = f"the cold {flavour.name} run"
    code, out, err = await run_captured(argv, tree, None, timeout_s, what)
    try:
        report: dict[str, Any] = json.loads(out)
    except ValueError as exc:
        tail = (err or out)[-500:]
        raise BackendFailed(f"{flavour.name} exited {code} without a report: {tail}") from exc
    results: dict[str, list[RawDiagnostic]] = {}
    for item in report.get("generalDiagnostics", []):
        try:
            rel = Path(item["file"]).relative_to(tree).as_posix()
        except (KeyError, ValueError):
            continue
        # an import cycle comes without a range: the language server puts it at the start
        where = item.get("range") or {"start": _START, "end": _START}
        start, end = where["start"], where["end"]
        results.setdefault(rel, []).append(
            RawDiagnostic(
                line=start["line"],
                column=start["character"],
                end_line=end["line"],
                end_column=end["character"],
                severity=item.get("severity", "error"),
                rule=item.get("rule", ""),
                message=item.get("message", ""),
                source=flavour.source,  # as its language server names itself
            )
        )
    return results

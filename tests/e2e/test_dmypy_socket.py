"""``DmypyBackend`` asks a real dmypy on its socket (``backends.dmypy_wire``) and answers as it
did through mypy's client process: the same diagnostics for the same patches, same-size edits
included; a version whose framing is not spoken is asked through the client process."""

from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.backends.dmypy import DmypyBackend
from prewrite_daemon.backends.mypy_command import find_mypy
from prewrite_daemon.shadow.tree import ShadowTree

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = [pytest.mark.e2e]

LIB = "def name() -> str:\n    return 'x'\n"
USE = "from pkg.lib import name\n\nx: str = name()\n"
PATCHES: list[dict[str, str | None]] = [
    {},
    {"pkg/lib.py": LIB.replace("-> str", "-> int").replace("'x'", "1")},  # same size: red
    {},
    {"pkg/use.py": USE.replace("x: str", "x: int")},  # same size again: red
    {"pkg/use.py": USE + "y: int = 'no'\n"},
]


async def _answers(tmp_path: Path, version: str | None) -> tuple[bool, list[list[str]]]:
    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIB)
    (root / "pkg" / "use.py").write_text(USE)
    shadow = ShadowTree(root, tmp_path / "shadow", lambda name: name.endswith(".py"))
    shadow.create()
    shadow.sync()
    tool = find_mypy([], None)
    if version is not None:
        tool = dataclasses.replace(tool, version=version)
    state = tmp_path / "state"
    backend = DmypyBackend(shadow.shadow_root, tool, sys.executable, state, lambda: ["pkg"])
    await backend.start()
    try:
        found: list[list[str]] = []
        for patch in PATCHES:
            report = await backend.check_tree(shadow, patch, 120.0)
            found.append(sorted(f"{rel}:{d.line}:{d.rule}" for rel, ds in report.items()
                                for d in ds))  # fmt: skip
        return backend._connection is not None, found  # pyright: ignore[reportPrivateUsage]
    finally:
        await backend.stop()


async def test_the_socket_answers_as_the_client_process_did(tmp_path: Path) -> None:
    on_socket, socket_found = await _answers(tmp_path / "socket", None)
    by_client, client_found = await _answers(tmp_path / "client", "1.6.0")
    assert on_socket
    assert not by_client  # its framing is not spoken: the client process is run
    assert socket_found == client_found
    assert socket_found == [
        [],
        ["pkg/use.py:2:assignment"],
        [],
        ["pkg/use.py:2:assignment"],
        ["pkg/use.py:3:assignment"],
    ]

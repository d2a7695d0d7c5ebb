"""Which type checkers judge a Python workspace: the ones its repository configures, as CI does.

The seed's rule: every rung runs the tool CI runs. A repository says which type checker it runs
by configuring it — ``[tool.mypy]``, ``mypy.ini``, ``.mypy.ini`` or ``setup.cfg [mypy]`` for
mypy; ``[tool.pyright]`` or ``pyrightconfig.json`` for pyright; ``[tool.basedpyright]`` for
basedpyright; ``[tool.ty]`` or ``ty.toml`` for ty; ``[tool.pyrefly]``, ``pyrefly.toml`` or
``.pyrefly.toml`` for pyrefly — and each one configured judges (the verdict is red if any is).
A repository that configures none is judged by pyright, as before there was a choice.
``[tool.prewrite] typecheck = ["mypy", "pyright"]`` names them outright.

Read from the disk, never from a patch: no patch chooses the checkers that judge it (a patch
adding ``[tool.mypy]`` is judged by the checkers the disk names, then by mypy once written).
"""

from __future__ import annotations

import configparser
import tomllib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from prewrite.errors import BadRequest, ErrorDetail
from prewrite_daemon.languages.readers import disk_reader

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.languages.readers import Reader

KNOWN = ("pyright", "mypy", "basedpyright", "ty", "pyrefly")
MYPY_INI = ("mypy.ini", ".mypy.ini")  # mypy's own files, read before pyproject.toml and setup.cfg
# The checkers configured by a file of their own or by their pyproject.toml table, their files
# in the order each reads them, all before the table (measured: pyrefly 1.5.0 takes
# pyrefly.toml, then .pyrefly.toml, then [tool.pyrefly]; ty 0.0.104 ty.toml, then [tool.ty]).
OWN_FILES = {"ty": ("ty.toml",), "pyrefly": ("pyrefly.toml", ".pyrefly.toml")}


@dataclass(frozen=True)
class Choice:
    """One checker that judges, and why: ``chosen_by`` names the file and table that chose it."""

    name: str  # one of KNOWN
    chosen_by: str


def choose(root: Path, read: Reader | None = None) -> list[Choice]:
    """The checkers that judge Python under ``root``, in ``KNOWN`` order (the override's own)."""
    read = read or disk_reader(root)
    tool = _pyproject_tool(read)
    named = _override(tool)
    if named is not None:
        return [Choice(name, "pyproject.toml [tool.prewrite] typecheck") for name in named]
    found: list[Choice] = []
    if "pyright" in tool:
        found.append(Choice("pyright", "pyproject.toml [tool.pyright]"))
    elif read("pyrightconfig.json") is not None:
        found.append(Choice("pyright", "pyrightconfig.json"))
    mypy = _mypy_config(read, tool)
    if mypy is not None:
        found.append(Choice("mypy", mypy))
    if "basedpyright" in tool:
        found.append(Choice("basedpyright", "pyproject.toml [tool.basedpyright]"))
    for name in OWN_FILES:
        chosen_by = own_config(read, name)
        if chosen_by is not None:
            found.append(Choice(name, chosen_by))
    return found or [Choice("pyright", "the default: no type checker is configured")]


def mypy_config_file(read: Reader) -> str | None:
    """The file mypy reads its settings from under a root, found as mypy finds it (its own
    ``mypy.ini`` / ``.mypy.ini`` first, then ``pyproject.toml [tool.mypy]``, then ``setup.cfg
    [mypy]``); None: mypy runs its defaults."""
    found = _mypy_config(read, _pyproject_tool(read))
    return None if found is None else found.split(" ", 1)[0]


def own_config(read: Reader, name: str) -> str | None:
    """Where checker ``name`` (one of ``OWN_FILES``) reads its settings under a root: its own
    file first found, else ``pyproject.toml [tool.<name>]``; None: it is not configured."""
    for file in OWN_FILES[name]:
        if read(file) is not None:
            return file
    return f"pyproject.toml [tool.{name}]" if name in _pyproject_tool(read) else None


def _mypy_config(read: Reader, tool: dict[str, Any]) -> str | None:
    for name in MYPY_INI:
        if _has_section(read(name), "mypy"):
            return f"{name} [mypy]"
    if "mypy" in tool:
        return "pyproject.toml [tool.mypy]"
    if _has_section(read("setup.cfg"), "mypy"):
        return "setup.cfg [mypy]"
    return None


def _has_section(text: str | None, section: str) -> bool:
    if text is None:
        return False
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return False  # mypy refuses the file too: the checker's own run says so
    return parser.has_section(section)


def _pyproject_tool(read: Reader) -> dict[str, Any]:
    text = read("pyproject.toml")
    if text is None:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    tool = data.get("tool")
    return cast("dict[str, Any]", tool) if isinstance(tool, dict) else {}


def _override(tool: dict[str, Any]) -> list[str] | None:
    """``[tool.prewrite] typecheck`` as a list of checker names; None when it is absent or a
    flag (``typecheck = false`` turns the rung off: the ladder's business)."""
    table = tool.get("prewrite")
    if not isinstance(table, dict):
        return None
    value = cast("dict[str, Any]", table).get("typecheck")
    if value is None or isinstance(value, bool):
        return None
    return parse_names(value)


def parse_names(value: object) -> list[str]:
    """A checker list as ``[tool.prewrite] typecheck`` spells it; ``BadRequest`` otherwise."""
    detail = [ErrorDetail(f"known: {', '.join(KNOWN)}", "pyproject.toml")]
    if not isinstance(value, list) or not value:
        raise BadRequest(
            "[tool.prewrite] typecheck must be true, false or a list of checkers", detail
        )
    names = cast("list[object]", value)
    unknown = [repr(n) for n in names if n not in KNOWN]
    if unknown:
        raise BadRequest(f"[tool.prewrite] typecheck: unknown checker {', '.join(unknown)}", detail)
    return list(dict.fromkeys(str(n) for n in names))

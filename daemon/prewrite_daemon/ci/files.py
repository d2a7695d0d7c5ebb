"""What a repository's CI runs, read from its files — never executed: GitHub workflows' ``run:``
steps (and the ruff and pyright actions), ``.pre-commit-config.yaml`` hooks (their ``rev`` is
the version), ``tox.ini`` commands and deps, ``noxfile.py``'s ``session.run`` and
``session.install`` calls, Makefile recipes, ``package.json`` scripts and TypeScript pins.

Every file is the repository's, so each is read bounded, a regular file only and not through a
symbolic link (``prewrite.files``); one that cannot be read is listed with why, never waited on.
YAML is composed, never constructed (its nodes carry their line, and no tag builds anything),
and walked only along the paths that hold commands, so aliases cannot multiply the work. A
``noxfile.py`` is parsed, not run. Each invocation carries ``path:line``.
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import yaml

from prewrite.errors import UnreadableFile
from prewrite.files import read_text
from prewrite_daemon.ci.commands import pins_in, pins_in_text, recognise, recognise_text
from prewrite_daemon.ci.sources import action_runs, hook_runs, run_lines
from prewrite_daemon.concurrency.parse_lock import PARSE_LOCK

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from prewrite_daemon.ci.runs import CiPin, CiRun

WORKFLOWS = ".github/workflows"
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
MAX_WORKFLOWS = 100
_TOX_KEYS = {"commands", "commands_pre", "commands_post", "deps"}
# A tox factor condition before a command or a dep (``mypy: mypy tests/typing``,
# ``py3{8,9}-!tests: ...``): the line runs in the environments it names.
_TOX_FACTORS = re.compile(r"^[!\w.{},-]+:\s+")
_NOX_CALLS = {"run", "run_always", "run_install", "install"}
_EXACT = re.compile(r"^v?(\d+\.\d+\.\d+[\w.+-]*)$")


@dataclass
class CiFindings:
    runs: list[CiRun] = field(default_factory=list["CiRun"])
    pins: list[CiPin] = field(default_factory=list["CiPin"])
    files: list[str] = field(default_factory=list[str])
    unread: list[str] = field(default_factory=list[str])


def read_ci(root: Path) -> CiFindings:
    """Every CI file under ``root`` this module knows, read best-effort."""
    found = CiFindings()
    readers: list[tuple[str, Callable[[str, str, CiFindings], None]]] = [
        *((rel, _workflow) for rel in _workflow_files(root, found)),
        (".pre-commit-config.yaml", _pre_commit),
        ("tox.ini", _tox),
        ("noxfile.py", _nox),
        *((name, _makefile) for name in MAKEFILES),
        ("package.json", _package_json),
    ]
    for rel, reader in readers:
        text = _read(root, rel, found)
        if text is not None:
            found.files.append(rel)
            reader(rel, text, found)
    return found


def _read(root: Path, rel: str, found: CiFindings) -> str | None:
    try:
        return read_text(root / rel, follow=False, name=rel)
    except UnreadableFile as exc:
        found.unread.append(str(exc).split(":", 1)[0])
    except UnicodeDecodeError:
        found.unread.append(f"{rel} is not UTF-8 text")
    return None


def _workflow_files(root: Path, found: CiFindings) -> list[str]:
    try:
        entries = sorted(os.scandir(root / WORKFLOWS), key=lambda e: e.name)
    except OSError:
        return []
    names = [e.name for e in entries if e.name.endswith((".yml", ".yaml"))]
    if len(names) > MAX_WORKFLOWS:
        found.unread.append(f"{WORKFLOWS}: {len(names)} workflows, only the first {MAX_WORKFLOWS}")
    return [f"{WORKFLOWS}/{name}" for name in names[:MAX_WORKFLOWS]]


def _compose(rel: str, text: str, found: CiFindings) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        found.unread.append(f"{rel} is not valid YAML ({str(exc).splitlines()[0]})")
        return None


def _workflow(rel: str, text: str, found: CiFindings) -> None:
    node = _compose(rel, text, found)
    for line, command, workdir in run_lines(node):
        where = f"{rel}:{line}"
        found.runs += recognise_text(command, where, workdir)
        found.pins += pins_in_text(command, where)
    runs, pins = action_runs(rel, node)
    found.runs += runs
    found.pins += pins


def _pre_commit(rel: str, text: str, found: CiFindings) -> None:
    runs, pins = hook_runs(rel, _compose(rel, text, found))
    found.runs += runs
    found.pins += pins


def _tox(rel: str, text: str, found: CiFindings) -> None:
    """``commands`` and ``deps`` values, their continuation lines included."""
    key = ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";", "[")):
            key = "" if stripped.startswith("[") else key
            continue
        if not line[0].isspace():
            name, eq, value = line.partition("=")
            key = name.strip() if eq else ""
            stripped = value.strip()
        if key not in _TOX_KEYS:
            continue
        where = f"{rel}:{number}"
        stripped = _TOX_FACTORS.sub("", stripped)
        found.pins += pins_in_text(stripped, where)
        if key != "deps":
            found.runs += recognise_text(stripped.lstrip("-!"), where)


def _nox(rel: str, text: str, found: CiFindings) -> None:
    """``session.run("mypy", "src")`` and ``session.install("ruff==0.6.9")``, parsed."""
    try:
        with PARSE_LOCK:  # CPython 3.11's AST constructor is not thread-safe (``parse_lock``)
            tree = ast.parse(text, rel)
        nodes = list(ast.walk(tree))
    except (SyntaxError, ValueError, RecursionError):
        found.unread.append(f"{rel} does not parse as Python")
        return
    for node in nodes:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in _NOX_CALLS:
            continue
        values: list[object] = [a.value for a in node.args if isinstance(a, ast.Constant)]
        words = [w for w in values if isinstance(w, str)]
        where = f"{rel}:{node.lineno}"
        found.pins += pins_in(words, where)
        run = recognise(words, where) if node.func.attr != "install" else None
        found.runs += [run] if run is not None else []


def _makefile(rel: str, text: str, found: CiFindings) -> None:
    """Recipe lines (a tab first), continuations joined, ``@``/``-``/``+`` prefixes dropped."""
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        start = number
        line = lines[number]
        while line.endswith("\\") and number + 1 < len(lines):
            number += 1
            line = line[:-1] + " " + lines[number].strip()
        number += 1
        if not line.startswith("\t"):
            continue
        command = line.strip().lstrip("@-+")
        where = f"{rel}:{start + 1}"
        found.runs += recognise_text(command, where)
        found.pins += pins_in_text(command, where)


def _package_json(rel: str, text: str, found: CiFindings) -> None:
    """``scripts`` (``"typecheck": "tsc --noEmit"``) and exact TypeScript / pyright pins."""
    try:
        data: object = json.loads(text)
    except ValueError:
        found.unread.append(f"{rel} is not valid JSON")
        return
    if not isinstance(data, dict):
        return
    manifest = cast("dict[str, object]", data)
    lines = text.splitlines()
    scripts = manifest.get("scripts")
    for name, command in _strings(scripts).items():
        where = f"{rel}:{_line_of(lines, name)}"
        found.runs += recognise_text(command, where)
    for section in ("dependencies", "devDependencies"):
        for package, spec in _strings(manifest.get(section)).items():
            exact = _EXACT.match(spec.strip())
            if package in ("typescript", "pyright") and exact:
                found.pins += pins_in(
                    [f"{package}=={exact.group(1)}"], f"{rel}:{_line_of(lines, package)}"
                )


def _strings(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    table = cast("dict[object, object]", value)
    return {str(k): v for k, v in table.items() if isinstance(v, str)}


def _line_of(lines: list[str], key: str) -> int:
    """The first line naming ``key`` as a JSON key (1 when not found)."""
    quoted = json.dumps(key)
    return next((n for n, line in enumerate(lines, 1) if f"{quoted}:" in line.replace(" ", "")), 1)

"""Each ``[tool.prewrite]`` key's value (``config``): its type and its parser. An absent key gets
its default; a value of the wrong shape is refused with ``BadRequest`` naming the key, never
replaced by the default.

The tables the ladder runs: ``finish`` rungs (``prewrite finish``), ``protect`` rules
(``protect.py``) and the ``reviewer`` (``review.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from prewrite.errors import BadRequest, ErrorDetail


@dataclass(frozen=True)
class FinishRung:
    name: str
    command: tuple[str, ...]
    timeout_s: float


@dataclass(frozen=True)
class ProtectRule:
    path: str  # a glob from the root (with a '/'), else of the file's name
    text: str  # must stay in a matching file that holds it before the patch


@dataclass(frozen=True)
class ReviewerCommand:
    """The workspace's reviewer (``review.py``): its argv, run from the root, and the seconds
    its first attempt may take (a retry after an unparseable answer gets twice as many)."""

    command: tuple[str, ...]
    timeout_s: float = 30.0


def parse_strings(table: dict[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value: object = table.get(key, list(default))
    items: list[str] = []
    if isinstance(value, list):
        items = [v for v in value if isinstance(v, str)]  # pyright: ignore[reportUnknownVariableType]
    if not isinstance(value, list) or len(items) != len(value):  # pyright: ignore[reportUnknownArgumentType]
        raise BadRequest(
            f"[tool.prewrite] {key} must be a list of strings",
            [ErrorDetail(f"{key} = {value!r}", "pyproject.toml")],
        )
    return tuple(items)


def parse_flag(table: dict[str, Any], key: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise BadRequest(
            f"[tool.prewrite] {key} must be true or false",
            [ErrorDetail(f"{key} = {value!r}", "pyproject.toml")],
        )
    return value


def parse_seconds(value: object, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise BadRequest(
            f"[tool.prewrite] {key} must be a positive number of seconds",
            [ErrorDetail(f"{key} = {value!r}", "pyproject.toml")],
        )
    return float(value)


def parse_finish(value: object) -> tuple[FinishRung, ...]:
    bad = BadRequest(
        "[tool.prewrite] finish must be a list of {name, command = [...], timeout}",
        [ErrorDetail(f"finish = {value!r}", "pyproject.toml")],
    )
    if not isinstance(value, list):
        raise bad
    rungs: list[FinishRung] = []
    for item in value:  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(item, dict):
            raise bad
        table: dict[str, Any] = item  # pyright: ignore[reportUnknownVariableType]
        name, command = table.get("name"), table.get("command")
        if not isinstance(name, str) or not isinstance(command, list) or not command:
            raise bad
        argv = tuple(str(a) for a in command)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        timeout = parse_seconds(table.get("timeout", 900), "finish.timeout")
        rungs.append(FinishRung(name, argv, timeout))
    return tuple(rungs)


def parse_protect(value: object) -> tuple[ProtectRule, ...]:
    bad = BadRequest(
        '[tool.prewrite] protect must be a list of {path = "glob", text = "snippet"}',
        [ErrorDetail(f"protect = {value!r}", "pyproject.toml")],
    )
    if not isinstance(value, list):
        raise bad
    rules: list[ProtectRule] = []
    for item in value:  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(item, dict) or set(item) != {"path", "text"}:  # pyright: ignore[reportUnknownArgumentType]
            raise bad
        table: dict[str, Any] = item  # pyright: ignore[reportUnknownVariableType]
        path, text = table["path"], table["text"]
        if not isinstance(path, str) or not isinstance(text, str) or not path or not text.strip():
            raise bad
        rules.append(ProtectRule(path, text))
    return tuple(rules)


def parse_reviewer(value: object) -> ReviewerCommand | None:
    if value is None:
        return None
    bad = BadRequest(
        '[tool.prewrite] reviewer must be {command = ["program", "arg", ...], timeout = seconds}',
        [ErrorDetail(f"reviewer = {value!r}", "pyproject.toml")],
    )
    if not isinstance(value, dict) or not set(value) <= {"command", "timeout"}:  # pyright: ignore[reportUnknownArgumentType]
        raise bad
    table: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
    command = table.get("command")
    if not isinstance(command, list) or not command:
        raise bad
    argv: list[object] = command  # pyright: ignore[reportUnknownVariableType]
    if not all(isinstance(a, str) and a for a in argv):
        raise bad
    timeout = parse_seconds(table.get("timeout", 30), "reviewer.timeout")
    return ReviewerCommand(tuple(str(a) for a in argv), timeout)

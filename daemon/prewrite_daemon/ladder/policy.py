"""The path policy rung: may these files be touched at all? Fail closed.

A denylist (CI config, secrets, keys, dependency manifests and lock files, files that run or
grant on their own, the daemon's own state: ``denylist.py``) is refused before anything else;
then an allowlist of extensions the ladder can verify — anything else is
``unverifiable_extension``.

Then the content of judge files, in any folder (a patch must not write the rules that judge it):

- ``pyproject.toml`` is both tool configuration and a dependency manifest: a patch may change
  tool settings (and is judged with them), but a change to its dependency or build tables is
  refused unless the workspace allows it — the root's and every workspace member's alike.
- Its ``[tool.prewrite]`` table is the ladder itself, so a patch may not change it at all (added,
  removed or modified, compared as parsed tables) unless the root's table on disk opts in with
  ``allow_config_changes``; otherwise a patch could widen its own policy, or add a ``finish``
  command that ``prewrite finish`` would then run. A nested one is refused too: it would be the
  rules of any root chosen there.
- Checker settings prewrite cannot judge before and after the patch — ``[tool.mypy]``, and a
  ``[tool.pyright]``, ``[tool.basedpyright]`` or ``pyrightconfig.json`` that is not the root's
  (the workspace's checker does not read it; CI may, from that folder) — are refused unless the
  root's table on disk sets ``allow_relaxation``. The root's pyright (or basedpyright) and every
  ruff configuration are judged before and after instead (``check/config_change.py``,
  ``ruff_rungs.py``).
- A judge configuration may not be made to read outside the root (``reach.py``).
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from prewrite.errors import ErrorDetail, ForbiddenPath, PrewriteError, UnverifiableExtension
from prewrite_daemon.ladder.reach import new_reaches
from prewrite_daemon.languages import jsonc
from prewrite_daemon.languages.checkers import choose

if TYPE_CHECKING:
    from collections.abc import Generator

    from prewrite_daemon.check.patch import FileEdit, PreparedPatch
    from prewrite_daemon.ladder.config import LadderConfig

# (table path, what it is) — changes here alter what gets installed or how the project builds.
DEPENDENCY_TABLES: tuple[tuple[str, ...], ...] = (
    ("build-system",),
    ("project", "dependencies"),
    ("project", "optional-dependencies"),
    ("project", "requires-python"),
    ("dependency-groups",),
    ("tool", "poetry", "dependencies"),
    ("tool", "poetry", "dev-dependencies"),
    ("tool", "poetry", "group"),
    ("tool", "poetry", "source"),
    ("tool", "uv", "sources"),
    ("tool", "uv", "workspace"),
    ("tool", "uv", "index"),
    ("tool", "uv", "dev-dependencies"),
    ("tool", "uv", "override-dependencies"),
    ("tool", "uv", "constraint-dependencies"),
    ("tool", "pdm", "dev-dependencies"),
    ("tool", "pdm", "source"),
)
# Checker settings prewrite does not run, and the root's checker does not read (outside the
# root's pyproject.toml): no before-and-after judgement is possible here. ``[tool.mypy]`` of a
# root mypy judges (``languages.checkers``) is judged like pyright's settings instead.
UNJUDGED_TABLES: tuple[tuple[str, ...], ...] = (("tool", "mypy"),)
NESTED_UNJUDGED_TABLES: tuple[tuple[str, ...], ...] = (
    ("tool", "pyright"),
    ("tool", "basedpyright"),
    ("tool", "mypy"),
)


def _matches(rel_lower: str, pattern: str) -> bool:
    """A pattern with a '/' matches from the root; one without, any file's name."""
    if "/" in pattern:
        return fnmatch.fnmatchcase(rel_lower, pattern)
    return fnmatch.fnmatchcase(PurePosixPath(rel_lower).name, pattern)


def check_path(rel: str, root: Path, config: LadderConfig, protected: tuple[Path, ...]) -> None:
    """Refuse ``rel`` (already normalized, inside the root) if the policy forbids it."""
    lower = rel.lower()
    real = Path(os.path.realpath(root / rel))
    for place in protected:
        if real == place or place in real.parents:
            raise ForbiddenPath(
                f"{rel} is prewrite's own state", [ErrorDetail("daemon state", rel)]
            )
    denied = next((p for p in config.deny if _matches(lower, p)), None)
    if denied is not None and not any(_matches(lower, p) for p in config.allow):
        raise ForbiddenPath(
            f"{rel} is on the denylist ({denied}); allow it in [tool.prewrite] allow",
            [ErrorDetail(f"matches {denied}", rel)],
        )
    name = PurePosixPath(lower).name
    suffix = PurePosixPath(lower).suffix
    if suffix not in config.allow_extensions and name not in config.allow_extensions:
        allowed = ", ".join(sorted(config.allow_extensions))
        raise UnverifiableExtension(
            f"{rel}: no rung can verify '{suffix or name}' files (verifiable: {allowed})",
            [ErrorDetail("unverifiable extension", rel)],
        )


def _table(data: dict[str, Any], path: tuple[str, ...]) -> object:
    node: object = data
    for key in path:
        if not isinstance(node, dict):
            return None
        node = node.get(key)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return node  # pyright: ignore[reportUnknownVariableType]


def _toml(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None  # the parse rung reports it


def _is_root_pyproject(root: Path, rel: str) -> bool:
    """``rel`` is the root ``pyproject.toml``, by name or as the file a symlink of it names."""
    if rel == "pyproject.toml":
        return True
    target = root / "pyproject.toml"
    return target.is_symlink() and os.path.realpath(target) == os.path.realpath(root / rel)


def _prewrite_moves(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """How ``[tool.prewrite]`` differs between two parsed files, one line per key."""
    before, after = _table(old, ("tool", "prewrite")), _table(new, ("tool", "prewrite"))
    if before == after:
        return []
    was: dict[str, Any] = before if isinstance(before, dict) else {}  # pyright: ignore[reportUnknownVariableType]
    now: dict[str, Any] = after if isinstance(after, dict) else {}  # pyright: ignore[reportUnknownVariableType]
    moves = [f"[tool.prewrite] {k} added" for k in now if k not in was]
    moves += [f"[tool.prewrite] {k} removed" for k in was if k not in now]
    moves += [f"[tool.prewrite] {k} changed" for k in was if k in now and was[k] != now[k]]
    return moves or ["[tool.prewrite] changed"]  # e.g. not a table before or after


def check_content(patch: PreparedPatch, config: LadderConfig) -> None:
    """Refuse a patch that changes what judges it (module docstring): a ``pyproject.toml``'s
    dependency, build or ``[tool.prewrite]`` tables, checker settings prewrite cannot judge, a
    judge configuration that reaches outside the root — unless the workspace on disk allows it."""
    for edit in patch.edits:
        moved: list[str] = []
        reasons: list[str] = []
        name = PurePosixPath(edit.path).name
        at_root = _is_root_pyproject(patch.root, edit.path)
        if name == "pyproject.toml" or at_root:
            judged = at_root and any(c.name == "mypy" for c in choose(patch.root))
            _pyproject_moves(edit, config, (at_root, judged), moved, reasons)
        elif name == "pyrightconfig.json" and edit.path != name:
            _nested_pyright_moves(edit, config, moved, reasons)
        reached = new_reaches(patch.root, edit.path, edit.old_text, edit.new_text)
        if reached:
            moved += reached
            reasons.append(
                "makes a judge's configuration read outside the workspace ("
                + ", ".join(reached)
                + "); a patch may not reach past the root: a configuration that does is set "
                "by hand"
            )
        if reasons:
            raise ForbiddenPath(
                f"{edit.path}: the patch " + "; and it ".join(reasons),
                [ErrorDetail(m, edit.path) for m in moved],
            )


def _pyproject_moves(
    edit: FileEdit,
    config: LadderConfig,
    place: tuple[bool, bool],
    moved: list[str],
    reasons: list[str],
) -> None:
    """``place``: (the root's own pyproject, mypy judges the root): a ``[tool.mypy]`` that
    judges is judged before and after like pyright's; one that does not is refused."""
    at_root, mypy_judges = place
    old, new = _toml(edit.old_text), _toml(edit.new_text)
    if new is None:
        return  # the parse rung reports it
    old = old or {}  # repairing a broken file must not smuggle dependencies or rules in
    deps: list[str] = []
    if not config.allow_dependency_changes:
        deps = [f"[{'.'.join(t)}] changed" for t in DEPENDENCY_TABLES
                if _table(old, t) != _table(new, t)]  # fmt: skip
    if deps:
        reasons.append(
            "changes dependency or build tables (set allow_dependency_changes in "
            "[tool.prewrite] to permit it)"
        )
    rules = [] if config.allow_config_changes else _prewrite_moves(old, new)
    if rules:
        where = "" if at_root else " (a nested one: the rules of any root chosen there)"
        reasons.append(
            f"changes [tool.prewrite], the rules that judge it{where} ("
            + ", ".join(m.removeprefix("[tool.prewrite] ") for m in rules)
            + "); a patch may not rewrite its own judge: to permit it, set "
            "allow_config_changes = true in [tool.prewrite] on disk, by hand"
        )
    tables = UNJUDGED_TABLES if at_root else NESTED_UNJUDGED_TABLES
    tables = tuple(t for t in tables if not (mypy_judges and t == ("tool", "mypy")))
    unjudged = [] if config.allow_relaxation else [
        f"[{'.'.join(t)}] changed" for t in tables if _table(old, t) != _table(new, t)
    ]  # fmt: skip
    if unjudged:
        reasons.append(_unjudged_reason(", ".join(m.removesuffix(" changed") for m in unjudged)))
    moved += deps + rules + unjudged


def _nested_pyright_moves(
    edit: FileEdit, config: LadderConfig, moved: list[str], reasons: list[str]
) -> None:
    if config.allow_relaxation or _json(edit.old_text) == _json(edit.new_text):
        return
    moved.append("pyrightconfig.json changed")
    reasons.append(_unjudged_reason("a pyrightconfig.json outside the root"))


def _unjudged_reason(what: str) -> str:
    return (
        f"changes checker settings prewrite cannot judge before and after it ({what}: the "
        "workspace's checker does not read them, CI may); to permit it, set allow_relaxation "
        "= true in [tool.prewrite] on disk, by hand"
    )


def _json(text: str | None) -> object:
    """Parsed JSON with comments (as pyright reads it), or the raw text when it does not parse."""
    if text is None:
        return None
    try:
        return jsonc.loads(text)
    except ValueError:
        return text


def as_given(raw: str) -> str:
    """The client's path as errors name it (``prepare_patch`` names it so too)."""
    return "/".join(p for p in PurePosixPath(raw).parts if p != ".")


@contextmanager
def named_as_given(given: str, real: str) -> Generator[None]:
    """A policy refusal of ``real`` names ``given`` instead, the path the client sent.

    The policy judges the real path (``normalize_path`` resolves in-root symlinks), so its
    refusals name that; through a symlink (``src -> real_src``) the client would not recognise
    ``real_src/a.py`` as its ``src/a.py``. The real path is added: it is why a rule matched.
    """
    try:
        yield
    except PrewriteError as exc:
        if given == real:
            raise
        message = exc.message
        if message.startswith((f"{real} ", f"{real}:")):
            message = given + message[len(real) :]
        details = [ErrorDetail(d.message, given if d.path == real else d.path) for d in exc.details]
        renamed = type(exc)(f"{message} [{given} is {real}, through a symlink]", details)
        raise renamed from exc

"""The cold oracle: ``pyright --outputjson`` on a tree written to disk, diffed like the daemon.
(basedpyright's: the same with its ``Flavour``, its own CLI.)

The daemon checks a patch in a warm language server without writing it; the oracle writes the
patched tree to a temporary copy, runs the same pyright version's CLI from scratch on the base and
on the copy, and keeps per file what ``prewrite_daemon.check.diagnostics.introduced`` calls new.
Equal
answers from both, on many patches, is the differential test's claim.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter, defaultdict
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from prewrite.changes import sha256_hex
from prewrite.protocol import Diagnostic, FileChange, Severity
from prewrite_daemon.backends.pyright_command import PYRIGHT, Flavour, checker_version, cli_argv
from prewrite_daemon.check.diagnostics import introduced
from prewrite_daemon.languages.python.language import PYTHON
from tests.support import oracle_record

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

ROOT_PLACEHOLDER = "<root>"
PYRIGHT_SOURCE = "Pyright"  # what the language server puts in Diagnostic.source
COPY_IGNORE = (".git", "__pycache__", ".venv", "venv", ".tox", "node_modules", ".mypy_cache")
_SEVERITIES: dict[str, Severity] = {
    "error": "error",
    "warning": "warning",
    "information": "information",
}


class OracleFailed(RuntimeError):
    """The cold pyright run did not produce a JSON report."""


_NO_RANGE = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}


def normalize_paths(diagnostics: Iterable[Diagnostic], root: Path) -> list[Diagnostic]:
    """Replace the tree's absolute path inside messages, so trees at two places compare equal."""
    spellings = sorted({str(root), str(root.resolve())}, key=len, reverse=True)
    out: list[Diagnostic] = []
    for d in diagnostics:
        message = d.message
        for spelling in spellings:
            message = message.replace(spelling, ROOT_PLACEHOLDER)
        out.append(d if message == d.message else _with_message(d, message))
    return out


def _with_message(d: Diagnostic, message: str) -> Diagnostic:
    return Diagnostic(
        path=d.path,
        line=d.line,
        column=d.column,
        end_line=d.end_line,
        end_column=d.end_column,
        severity=d.severity,
        rule=d.rule,
        message=message,
        source=d.source,
    )


def cold_pyright(
    tree: Path,
    python: str,
    timeout_s: float = 600.0,
    flavour: Flavour = PYRIGHT,
    *,
    recorded: bool = False,
) -> list[Diagnostic]:
    """All of pyright's diagnostics for the project at ``tree``, as prewrite reports them.
    ``recorded``: the recorded answer for the same input where there is one (``oracle_record``;
    the slow differential tests, whose inputs come back run after run)."""
    tree = tree.resolve()
    if not recorded:
        return _run_pyright(tree, python, timeout_s, flavour)
    checker = [flavour.name, checker_version(None, flavour), "--outputjson"]
    inputs = [oracle_record.python_packages(python)]
    return oracle_record.answer(
        checker, inputs, tree, lambda: _run_pyright(tree, python, timeout_s, flavour)
    )


def _run_pyright(tree: Path, python: str, timeout_s: float, flavour: Flavour) -> list[Diagnostic]:
    argv = [*cli_argv(None, flavour), "--outputjson", "--pythonpath", python]
    argv += ["--project", str(tree)]
    proc = subprocess.run(
        argv, cwd=tree, capture_output=True, text=True, timeout=timeout_s, check=False
    )
    # Exit 0: no errors, 1: errors reported; anything else is a fatal or configuration error.
    if proc.returncode not in (0, 1):
        raise OracleFailed(
            f"{flavour.name} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        )
    try:
        report = cast("dict[str, Any]", json.loads(proc.stdout))
    except json.JSONDecodeError as exc:
        raise OracleFailed(f"{flavour.name} printed no JSON: {proc.stdout[:2000]}") from exc
    raw = cast("list[dict[str, Any]]", report.get("generalDiagnostics", []))
    found = (_from_json(item, tree, flavour.source) for item in raw)
    diagnostics = [d for d in found if d is not None]
    return normalize_paths(diagnostics, tree)


def _from_json(item: dict[str, Any], tree: Path, source: str) -> Diagnostic | None:
    severity = _SEVERITIES.get(str(item.get("severity")))
    if severity is None:
        return None
    file = Path(str(item["file"]))
    path = file.relative_to(tree).as_posix() if file.is_relative_to(tree) else file.as_posix()
    # a diagnostic the CLI gives no range (an import cycle) sits at the file's start, where the
    # language server puts it
    where = cast("dict[str, dict[str, int]]", item.get("range", _NO_RANGE))
    start, end = where["start"], where["end"]
    return Diagnostic(
        path=path,
        line=start["line"] + 1,
        column=start["character"] + 1,
        end_line=end["line"] + 1,
        end_column=end["character"] + 1,
        severity=severity,
        rule=str(item.get("rule", "")),
        message=PYTHON.normalize_message(str(item["message"])),
        source=source,
    )


def _by_path(diagnostics: Iterable[Diagnostic]) -> dict[str, list[Diagnostic]]:
    grouped: dict[str, list[Diagnostic]] = defaultdict(list)
    for d in diagnostics:
        grouped[d.path].append(d)
    return grouped


def _read_text(tree: Path, rel_path: str) -> str | None:
    file = tree / rel_path
    return file.read_bytes().decode("utf-8") if file.is_file() else None


class ColdOracle:
    """Cold verdicts for many patched copies of one base tree; the base is run once."""

    def __init__(
        self, base_tree: Path, python: str, flavour: Flavour = PYRIGHT, *, recorded: bool = False
    ) -> None:
        self.base_tree = base_tree.resolve()
        self.python = python
        self.flavour = flavour  # pyright's CLI, or basedpyright's
        self.recorded = recorded  # answers read from ``oracle_record`` where it has them

    @cached_property
    def base(self) -> list[Diagnostic]:
        return self._cold(self.base_tree)

    def introduced(self, patched_tree: Path) -> list[Diagnostic]:
        """What the patched tree's cold run reports that the base did not, file by file."""
        candidate = self._cold(patched_tree)
        return introduced_between(self.base_tree, self.base, patched_tree, candidate)

    def _cold(self, tree: Path) -> list[Diagnostic]:
        return cold_pyright(tree, self.python, flavour=self.flavour, recorded=self.recorded)


def introduced_between(
    base_tree: Path, base: Sequence[Diagnostic], patched_tree: Path, candidate: Sequence[Diagnostic]
) -> list[Diagnostic]:
    """The oracle's diff of two cold runs already made: ``candidate`` (of ``patched_tree``) less
    ``base`` (of ``base_tree``), file by file, so callers can run the two concurrently."""
    by_path = _by_path(base)
    new: list[Diagnostic] = []
    for path, found in sorted(_by_path(candidate).items()):
        new.extend(
            introduced(
                by_path.get(path, []),
                found,
                _read_text(base_tree, path),
                _read_text(patched_tree, path),
            )
        )
    return new


def oracle_introduced(base_tree: Path, patched_tree: Path, python: str) -> list[Diagnostic]:
    """One-shot form of ``ColdOracle(base_tree, python).introduced(patched_tree)``."""
    return ColdOracle(base_tree, python).introduced(patched_tree)


def surplus(ours: Iterable[Diagnostic], theirs: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics of ``ours`` left once each (path, rule, severity, message) of ``theirs``
    has consumed one of ours: empty both ways means equal multisets."""

    def key(d: Diagnostic) -> tuple[str, str, str, str]:
        return (d.path, d.rule, d.severity, d.message)

    remaining = Counter(key(d) for d in theirs)
    out: list[Diagnostic] = []
    for d in ours:
        if remaining[key(d)] > 0:
            remaining[key(d)] -= 1
        else:
            out.append(d)
    return out


def write_patched_copy(root: Path, changes: Sequence[FileChange], dest: Path) -> Path:
    """Copy ``root`` to the new directory ``dest`` and apply ``changes``, checking base hashes."""
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns(*COPY_IGNORE))
    for change in changes:
        target = dest / change.path
        if change.base_sha256 is None:
            if target.exists():
                raise FileExistsError(f"{change.path} exists but the change says it is new")
        elif sha256_hex(target.read_bytes()) != change.base_sha256:
            raise ValueError(f"{change.path}: base_sha256 does not match the file on disk")
        if change.delete:
            target.unlink()
        elif change.content is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(change.content.encode("utf-8"))
    return dest

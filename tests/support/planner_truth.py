"""The ground truth of planner cases: cold pyright on the base tree and on the patched tree.

Cases laid out side by side (``planner_case.Layout``) are judged by two cold runs, run at the
same time: the base, and the tree with every case's patch applied (cases never import each
other, so one case's files see only its own patch). Per case, the truth is which files'
diagnostics differ at all (what the planner must keep: its claim is a superset of the files
whose diagnostics may differ) and which diagnostics the patch introduces, diffed exactly as the
daemon diffs (what the warm daemon must answer). The cold runs are ``cold_run``: the oracle's,
except that a diagnostic pyright's CLI gives no range (an import cycle) is placed at the start
of its file, where the language server puts it.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from prewrite.protocol import Diagnostic, Severity
from prewrite_daemon.backends.pyright_command import cli_argv
from prewrite_daemon.languages.python.language import PYTHON
from tests.support.oracle import PYRIGHT_SOURCE, OracleFailed, introduced_between, normalize_paths

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.support.planner_case import Case, Layout

Key = tuple[int, int, int, int, str, str, str]


def _key(d: Diagnostic) -> Key:
    return (d.line, d.column, d.end_line, d.end_column, d.severity, d.rule, d.message)


@dataclass(frozen=True)
class CaseTruth:
    """What cold pyright says of one case."""

    base: dict[str, list[Diagnostic]]  # per path of the case, before the patch
    patched: dict[str, list[Diagnostic]]  # after
    introduced: list[Diagnostic]  # new in the patched tree, as the daemon diffs

    def differing(self, exists: set[str]) -> set[str]:
        """Files (of ``exists``: those in the patched tree) whose diagnostics differ at all."""
        return {
            rel
            for rel in exists
            if Counter(map(_key, self.base.get(rel, [])))
            != Counter(map(_key, self.patched.get(rel, [])))
        }


@dataclass(frozen=True)
class GroupTruth:
    """One tree of cases judged cold: where the trees are, and each case's truth."""

    base_root: Path
    patched_root: Path
    cases: dict[str, CaseTruth]


def judge_layout(layout: Layout, where: Path, python: str) -> GroupTruth:
    """Write ``layout`` as ``where/base`` and ``where/patched``; two cold runs judge every case."""
    with ThreadPoolExecutor(2) as pool:
        return submit_layout(pool, layout, where, python)()


def submit_layout(
    pool: Executor, layout: Layout, where: Path, python: str
) -> Callable[[], GroupTruth]:
    """``judge_layout`` with its two cold runs queued on ``pool``: the trees are written now,
    the returned function waits for the runs. Many layouts queued on one pool keep it busy
    while the caller builds what else it needs from the trees written."""
    base_root, patched_root = where / "base", where / "patched"
    layout.write_base(base_root)
    layout.write_patched(patched_root)
    runs = [pool.submit(cold_run, root, python) for root in (base_root, patched_root)]

    def truth() -> GroupTruth:
        before, after = (_by_path(run.result()) for run in runs)
        return _truth(layout, base_root, before, patched_root, after)

    return truth


def _truth(
    layout: Layout,
    base_root: Path,
    before: dict[str, list[Diagnostic]],
    patched_root: Path,
    after: dict[str, list[Diagnostic]],
) -> GroupTruth:
    truths: dict[str, CaseTruth] = {}
    for case in layout.cases:
        paths = case.paths()
        base = {p: before.get(p, []) for p in paths}
        patched = {p: after.get(p, []) for p in paths}
        new = introduced_between(
            base_root, [d for ds in base.values() for d in ds],
            patched_root, [d for ds in patched.values() for d in ds],
        )  # fmt: skip
        truths[case.name] = CaseTruth(base, patched, new)
    return GroupTruth(base_root, patched_root, truths)


def _by_path(diagnostics: list[Diagnostic]) -> dict[str, list[Diagnostic]]:
    out: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        out.setdefault(d.path, []).append(d)
    return out


def existing_after(case: Case) -> set[str]:
    """The case's source files that exist once its patch is applied."""
    after = {**case.base_files(), **case.patched_files()}
    return {rel for rel, text in after.items() if text is not None}


NO_RANGE = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
SEVERITIES: dict[str, Severity] = {
    "error": "error",
    "warning": "warning",
    "information": "information",
}


def cold_run(tree: Path, python: str, timeout_s: float = 600.0) -> list[Diagnostic]:
    """``pyright --outputjson`` on ``tree``, as prewrite reports diagnostics."""
    tree = tree.resolve()
    argv = [*cli_argv(), "--outputjson", "--pythonpath", python, "--project", str(tree)]
    proc = subprocess.run(
        argv, cwd=tree, capture_output=True, text=True, timeout=timeout_s, check=False
    )
    if proc.returncode not in (0, 1):
        raise OracleFailed(f"pyright exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    report = cast("dict[str, Any]", json.loads(proc.stdout))
    out: list[Diagnostic] = []
    for item in cast("list[dict[str, Any]]", report.get("generalDiagnostics", [])):
        severity = SEVERITIES.get(str(item.get("severity")))
        if severity is None:
            continue
        where = cast("dict[str, dict[str, int]]", item.get("range", NO_RANGE))
        out.append(
            Diagnostic(
                path=_relative(Path(str(item["file"])), tree),
                line=where["start"]["line"] + 1,
                column=where["start"]["character"] + 1,
                end_line=where["end"]["line"] + 1,
                end_column=where["end"]["character"] + 1,
                severity=severity,
                rule=str(item.get("rule", "")),
                message=PYTHON.normalize_message(str(item["message"])),
                source=PYRIGHT_SOURCE,
            )
        )
    return normalize_paths(out, tree)


def _relative(file: Path, tree: Path) -> str:
    return file.relative_to(tree).as_posix() if file.is_relative_to(tree) else file.as_posix()

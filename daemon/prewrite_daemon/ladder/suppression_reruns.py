"""The rungs that run again without a patch's suppressions, each as the ladder ran it.

``suppression_rung`` takes the directives a patch adds out of its files and asks each rung that
honours them for what it introduces then. A rung runs again only where it judged with them in
(the same files, the same tools, the same configurations), so "hides nothing" always means the
same rung looked and found nothing:

- lint, ruff (``noqa``, ``ruff: noqa``): the stripped Python files under the judges the lint rung
  had (``ruff_rungs.judges_for``: before and after a patch that changes ruff's configuration);
- lint, the workspace's eslint and biome (their own directives): the stripped JS/TS files, each
  tool where it linted the file;
- typecheck, pyright and TypeScript (``type: ignore``, ``pyright:``, ``@ts-*``): the whole patch
  with the stripped files in it (a type check reads across files), the files it compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.ladder.node_rungs import lint_js
from prewrite_daemon.ladder.ruff_rungs import judges_for, lint_files
from prewrite_daemon.ladder.suppression_sites import is_python

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from prewrite.protocol import CheckReply, Diagnostic
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.ladder.node_tools import NodeTools
    from prewrite_daemon.ladder.ruff import Ruff
    from prewrite_daemon.limits import Deadline

    TypeCheck = Callable[[PreparedPatch, float], Awaitable[CheckReply]]


@dataclass(frozen=True)
class Rerun:
    """A rung that honours the suppressions of ``tools``, to be run again without them.

    ``run`` answers what the rung introduces on a patch; ``judged(path, tool)`` says whether
    the rung judged the path with that tool at all (else what the tool's suppressions hide there
    is not known); ``before`` is what it reported with them. ``whole``: run on the whole patch
    (a type check sees across files), else on the stripped files alone."""

    rung: str
    tools: frozenset[str]
    run: Callable[[PreparedPatch], Awaitable[list[Diagnostic]]]
    judged: Callable[[str, str], bool]
    before: tuple[Diagnostic, ...] = ()
    whole: bool = False


def reruns_for(
    patch: PreparedPatch,
    deadline: Deadline,
    *,
    ruff: Ruff | None,
    allow_relaxation: bool,
    node: NodeTools | None,
    check: TypeCheck,
    typed: CheckReply | None,
) -> list[Rerun]:
    """The rungs of a ladder run that passed: ``ruff`` None when the lint rung was off, ``node``
    None when the workspace's JS/TS linters did not run, ``typed`` None without a type check."""
    reruns: list[Rerun] = []
    if ruff is not None:
        reruns.append(_ruff(ruff, patch, deadline, allow_relaxation))
    if node is not None:
        reruns.append(_node(node, deadline))
    if typed is not None:
        reruns.append(_typecheck(check, typed, deadline))
    return reruns


def _ruff(ruff: Ruff, patch: PreparedPatch, deadline: Deadline, allow_relaxation: bool) -> Rerun:
    async def run(files: PreparedPatch) -> list[Diagnostic]:
        with judges_for(patch, allow_relaxation) as judges:
            found, _note = await lint_files(ruff, files, deadline, judges)
        return found

    return Rerun("lint", frozenset({"ruff"}), run, lambda path, _tool: is_python(path))


def _node(node: NodeTools, deadline: Deadline) -> Rerun:
    async def run(files: PreparedPatch) -> list[Diagnostic]:
        found, _receipt = await lint_js(node, files, deadline)
        return found

    def judged(path: str, tool: str) -> bool:
        return any(t.name == tool for t in node.linters(path))

    return Rerun("lint", frozenset({"eslint", "biome"}), run, judged)


def _typecheck(check: TypeCheck, typed: CheckReply, deadline: Deadline) -> Rerun:
    compared = set(typed.checked_files)

    async def run(patch: PreparedPatch) -> list[Diagnostic]:
        return (await check(patch, deadline.left())).diagnostics

    return Rerun(
        "typecheck", frozenset({"pyright", "typescript"}), run,
        lambda path, _tool: path in compared, tuple(typed.diagnostics), whole=True,
    )  # fmt: skip

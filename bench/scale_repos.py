"""The scale bench's repositories and the edits it times on each (``bench.scale --repo``).

Two shapes: Django 5.2.8's ``django/`` (883 modules, mostly unannotated: a body decides the
inferred types its importers see) and SQLAlchemy 2.0.36's ``lib/sqlalchemy`` (255 modules, 232k
lines, annotated throughout and generics-heavy). Per repository: a leaf (nothing imports it), a
hub used across the package, a body edit of each, and two interface changes of the hub: a
parameter with a default (green) and a return annotation its body contradicts (red).

Each edit is an exact text edit of one module, salted per run (a run-specific string or comment)
so that no run can be answered from an identical earlier request; an anchor that is not found
exactly once stops the bench (another release would need new anchors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.support.workloads import DJANGO, SQLALCHEMY, WorkloadSpec

Edit = Callable[[str, int], str]


def replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise ValueError(f"anchor {old!r} is not in the module exactly once")
    return text.replace(old, new)


def _insert_before(anchor: str, indent: str) -> Edit:
    """A body edit: a salted statement just before ``anchor`` (a statement of that body)."""
    return lambda text, run: replace_once(text, anchor, f'{indent}_pw_salt = "run {run}"\n{anchor}')


def _comment(text: str, run: int) -> str:
    return f"{text.rstrip()}\n# prewrite scale bench: a comment (run {run})\n"


@dataclass(frozen=True)
class ScaleRepo:
    """A pinned repository and the edits timed on it."""

    name: str
    spec: WorkloadSpec
    package: str  # the directory whose modules are counted (and judged)
    staged_pyproject: Callable[[str], str]  # the staged pyproject.toml (before the rungs' part)
    leaf: str
    leaf_what: str
    leaf_body: Edit
    hub: str
    hub_what: str
    hub_body: Edit
    signature: str  # the hub function's ``def`` line, for the interface changes
    with_parameter: str  # that line with a defaulted parameter (``{run}``: the salt)
    returning_int: str  # that line declaring ``-> int``, which its body contradicts

    def comment(self, text: str, run: int) -> str:
        return _comment(text, run)

    def new_parameter(self, text: str, run: int) -> str:
        return replace_once(text, self.signature, self.with_parameter.format(run=run))

    def return_annotation(self, text: str, run: int) -> str:
        return replace_once(text, self.signature, self.returning_int.format(run=run))


_CAPFIRST = "def capfirst(x):\n"
DJANGO_REPO = ScaleRepo(
    name="django",
    spec=DJANGO,
    package="django",
    staged_pyproject=lambda text: text,
    leaf="django/core/management/commands/check.py",
    leaf_what="a management command's check.handle",
    leaf_body=lambda text, run: replace_once(
        text,
        "    def handle(self, *app_labels, **options):\n",
        f'    def handle(self, *app_labels, **options):\n        _pw_salt = "run {run}"\n',
    ),
    hub="django/utils/text.py",
    hub_what="utils.text.capfirst (unannotated, imported across the package)",
    hub_body=_insert_before("    if not x:\n        return x\n", "    "),
    signature=_CAPFIRST,
    with_parameter='def capfirst(x, pw_suffix="{run}"):\n',
    returning_int="def capfirst(x) -> int:  # run {run}\n",
)

_WARN = "def warn(msg: str, code: Optional[str] = None) -> None:\n"
SQLALCHEMY_REPO = ScaleRepo(
    name="sqlalchemy",
    spec=SQLALCHEMY,
    package="lib/sqlalchemy",
    # Its CI's mypy finds the package with ``mypy_path = "./lib/"`` (566 absolute imports of
    # ``sqlalchemy`` inside it); pyright is told the same.
    staged_pyproject=lambda text: replace_once(
        text, "[tool.pyright]\n", '[tool.pyright]\nextraPaths = ["lib"]\n'
    ),
    leaf="lib/sqlalchemy/ext/horizontal_shard.py",
    leaf_what="ext.horizontal_shard's ShardedQuery.set_shard (nothing in the package imports it)",
    leaf_body=_insert_before(
        "        return self.execution_options(_sa_shard_id=shard_id)\n", "        "
    ),
    hub="lib/sqlalchemy/util/langhelpers.py",
    hub_what="util.langhelpers.warn (annotated, called from 48 modules)",
    hub_body=_insert_before(
        "    if code:\n        _warnings_warn(exc.SAWarning(msg, code=code))\n", "    "
    ),
    signature=_WARN,
    with_parameter=(
        'def warn(msg: str, code: Optional[str] = None, pw_suffix: str = "{run}") -> None:\n'
    ),
    returning_int="def warn(msg: str, code: Optional[str] = None) -> int:  # run {run}\n",
)

REPOS = {r.name: r for r in (DJANGO_REPO, SQLALCHEMY_REPO)}

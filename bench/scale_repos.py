"""The scale bench's repositories and the edits it times on each (``bench.scale --repo``).

Three shapes: Django 5.2.8's ``django/`` (883 modules, mostly unannotated: a body decides the
inferred types its importers see), SQLAlchemy 2.0.36's ``lib/sqlalchemy`` (255 modules, 232k
lines, annotated throughout and generics-heavy) and, in TypeScript, effect 3.19.9's ``src/`` (362
modules, 235k lines, the largest npm package found that ships its sources and checks clean: a
functional library, 222 of whose modules import ``Function.ts``). Per repository: a leaf (nothing
but an index imports it), a hub used across the package, a body edit of each, and two interface
changes of the hub: a parameter with a default (green) and a return annotation its body
contradicts (red).

Each edit is an exact text edit of one module, salted per run (a run-specific string or comment)
so that no run can be answered from an identical earlier request; an anchor that is not found
exactly once stops the bench (another release would need new anchors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.support.ts_workloads import EFFECT, TsPackageSpec
from tests.support.workloads import DJANGO, SQLALCHEMY, WorkloadSpec

Edit = Callable[[str, int], str]


def replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise ValueError(f"anchor {old!r} is not in the module exactly once")
    return text.replace(old, new)


def _insert_before(anchor: str, indent: str) -> Edit:
    """A body edit: a salted statement just before ``anchor`` (a statement of that body)."""
    return lambda text, run: replace_once(text, anchor, f'{indent}_pw_salt = "run {run}"\n{anchor}')


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class ScaleRepo:
    """A pinned repository and the edits timed on it."""

    name: str
    spec: WorkloadSpec | TsPackageSpec  # a PyPI sdist (pyright judges) or an npm package (tsc)
    package: str  # the directory whose modules are counted (and judged)
    leaf: str
    leaf_what: str
    leaf_body: Edit
    hub: str
    hub_what: str
    hub_body: Edit
    signature: str  # the hub function's ``def`` line, for the interface changes
    with_parameter: str  # that line with a defaulted parameter (``{run}``: the salt)
    returning_int: str  # that line declaring ``-> int``, which its body contradicts
    # the staged pyproject.toml (before the rungs' part); Python only
    staged_pyproject: Callable[[str], str] = _same
    # an edit of the hub's docstring alone (inert to importers: ``names.bodies``); Python only
    hub_docstring: Edit | None = None

    @property
    def typescript(self) -> bool:
        return isinstance(self.spec, TsPackageSpec)

    @property
    def suffix(self) -> str:
        return ".ts" if self.typescript else ".py"

    def comment(self, text: str, run: int) -> str:
        mark = "//" if self.typescript else "#"
        return f"{text.rstrip()}\n{mark} prewrite scale bench: a comment (run {run})\n"

    def new_parameter(self, text: str, run: int) -> str:
        return replace_once(text, self.signature, self.with_parameter.format(run=run))

    def return_annotation(self, text: str, run: int) -> str:
        return replace_once(text, self.signature, self.returning_int.format(run=run))


_CAPFIRST = "def capfirst(x):\n"
DJANGO_REPO = ScaleRepo(
    name="django",
    spec=DJANGO,
    package="django",
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
    hub_docstring=lambda text, run: replace_once(
        text,
        '    """Capitalize the first letter of a string."""\n',
        f'    """Capitalize the first letter of a string (run {run})."""\n',
    ),
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

_GET = (
    "export const get = <A extends PrimaryKey.PrimaryKey>(self: HashRing<A>, input: string): "
    "A | undefined => {\n"
)
_IDENTITY = "export const identity = <A>(a: A): A => a\n"
# ``noUnusedLocals`` is on: a salted statement must use its constant (``void``) to stay green.
EFFECT_REPO = ScaleRepo(
    name="effect",
    spec=EFFECT,
    package="src",
    leaf="src/HashRing.ts",
    leaf_what="HashRing.get (only the index re-exports HashRing)",
    leaf_body=lambda text, run: replace_once(
        text, _GET, f'{_GET}  const pwSalt = "run {run}"\n  void pwSalt\n'
    ),
    hub="src/Function.ts",
    hub_what="Function.identity (annotated; 222 modules import Function.ts)",
    hub_body=lambda text, run: replace_once(
        text,
        _IDENTITY,
        f'export const identity = <A>(a: A): A => {{\n  void "run {run}"\n  return a\n}}\n',
    ),
    signature=_IDENTITY,
    with_parameter='export const identity = <A>(a: A, pwSuffix: unknown = "{run}"): A => a\n',
    returning_int="export const identity = <A>(a: A): number => a // run {run}\n",
)

REPOS = {r.name: r for r in (DJANGO_REPO, SQLALCHEMY_REPO, EFFECT_REPO)}

"""Dead stores (``names.dead_stores``): ``NAME = <literal>`` that nothing in the function reads
reaches no importer, where the checker's code-flow complexity is modelled and provably stays
under pyright's call-site inference limit; every other store, and every function at or over the
limit, keeps its stores.

The cold-pyright side is the catalogue (``planner_cases_bodies.DEAD_STORES``: stores that cross
the limit, a store that makes a merge label real, and controls on a hub).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prewrite_daemon.backends.pyright_command import PyrightOrigin, checker_version
from prewrite_daemon.languages.python.language import PYTHON, PythonEnvironment
from prewrite_daemon.languages.python.names.dead_stores import modelled
from prewrite_daemon.languages.python.names.imports import interface_changed
from tests.support.planner_cases_bodies import HUB
from tests.unit.name_deps_helpers import affected, src, with_line

CAPFIRST = src(HUB)
FIRST_IF = "    if not x:\n"
IMPORTERS = {
    "pkg/__init__.py": "",
    "a.py": "from pkg.text import capfirst\nx = capfirst('a')\n",
    "b.py": "from pkg import text\ny = text.capfirst(1)\n",
}


def _reached(base: str, patched: str, *, dead_stores: bool = True) -> set[str]:
    files = {**IMPORTERS, "pkg/text.py": base}
    return affected(files, {"pkg/text.py": patched}, dead_stores=dead_stores)


def _with(line: str, before: str = FIRST_IF, text: str = CAPFIRST) -> str:
    return with_line(line, before, text)


def _changed(base: str, patched: str) -> bool:
    """The graph-free first plan's answer (``imports.interface_changed``): it must prune no
    more than the graph does, and it prunes dead stores too, with the checker known."""
    return interface_changed(base, patched, dead_stores=True)


@pytest.mark.parametrize(
    "patched",
    [
        _with("    _pw_salt = 'run 1'"),
        _with("    _pw = -1"),
        _with("    _pw = (1, 'a', [2.0, {None}])"),
        _with("        _pw = 0", before="        return x\n"),  # in a branch
        _with("        _pw = 0", before="        x = str(x)\n"),
        _with("    _pw = 0\n    _pw2 = 1"),
    ],
)
def test_a_dead_store_under_the_limit_reaches_no_importer(patched: str) -> None:
    assert _reached(CAPFIRST, patched) == set()
    assert not _changed(CAPFIRST, patched)
    # the same edit where the checker's complexity is not modelled reaches every importer
    assert _reached(CAPFIRST, patched, dead_stores=False) == {"a.py", "b.py"}
    assert interface_changed(CAPFIRST, patched, dead_stores=False)


def test_changing_or_removing_a_dead_store_reaches_no_importer() -> None:
    salted = _with("    _pw_salt = 'run 1'")
    assert _reached(salted, salted.replace("run 1", "run 2")) == set()
    assert _reached(salted, CAPFIRST) == set()
    assert not _changed(salted, salted.replace("run 1", "run 2"))
    assert not _changed(salted, CAPFIRST)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("    _pw = 0\n    print(_pw)", "read"),
        ("    _pw = 0\n    _pw = 1", "stored twice: spelled twice"),
        ("    x = 0", "a parameter"),
        ("    _pw = {}", "a dict display: not a literal here"),
        ("    _pw = str(1)", "a call (it may never return)"),
        ("    _pw = -x", "reads a name"),
        ("    _pw: int = 0", "an annotated store declares a type"),
        ("    _pw = 0  # type: int", "a type comment"),
        ("    __tracebackhide__ = True", "a dunder"),
        ("    _q = []  # type: list[int]\n    _pw = 0", "a type comment elsewhere (unbounded)"),
        ("    _pw = 0\n    locals()['_pw']", "a string spells it"),
        ("    _pw = _q = 0", "two targets"),
        ("    _pw, _q = 0, 1", "a tuple target"),
        (
            "    _pw = 0\n    def g():\n        nonlocal _pw\n        _pw = 2",
            "a closure's nonlocal",
        ),
        ("    global _pw\n    _pw = 0", "declared global"),
        ("    _pw = 0\n    raise NotImplementedError", "the body's kind decides first"),
        ("    match x:\n        case _:\n            pass\n    _pw = 0", "a match: not bounded"),
    ],
)
def test_any_other_store_reaches_the_importers(line: str, why: str) -> None:
    assert _reached(CAPFIRST, _with(line)) == {"a.py", "b.py"}, why
    assert _changed(CAPFIRST, _with(line)), why


def _stores(k: int) -> str:
    return "def capfirst(x):\n" + "".join(f"    _d{i} = 0\n" for i in range(k)) + "    return x\n"


def test_dead_stores_that_may_cross_the_call_site_limit_reach_the_importers() -> None:
    # pyright 1.1.414 logs (2 + k) / 40 for _stores(k): 316 stores are 7.95, 318 are 8.0
    assert _reached(_stores(300), _stores(316)) == set()
    assert _reached(_stores(316), _stores(318)) == {"a.py", "b.py"}
    assert _reached(_stores(318), _stores(330)) == {"a.py", "b.py"}
    assert _reached(_stores(330), _stores(300)) == {"a.py", "b.py"}
    assert not _changed(_stores(300), _stores(316))
    assert _changed(_stores(316), _stores(318))
    assert _changed(_stores(330), _stores(300))


def _env(checker: str) -> PythonEnvironment:
    return PythonEnvironment(Path("/ws"), "python3", None, [], checker)


def test_the_language_prunes_dead_stores_for_the_checker_it_judges_with() -> None:
    patched = _with("    _pw_salt = 'run 1'")
    assert not PYTHON.interface_changed("pkg/text.py", CAPFIRST, patched, _env(checker_version()))
    assert PYTHON.interface_changed("pkg/text.py", CAPFIRST, patched, _env("pyright 1.1.390"))
    assert PYTHON.interface_changed("pkg/text.py", CAPFIRST, patched)  # checker not known


def test_only_the_validated_checker_is_modelled() -> None:
    assert modelled(checker_version())  # the bundled pyright: bump it and re-validate the bound
    assert modelled("pyright 1.1.414 (the workspace's own)")
    assert not modelled("pyright 1.1.390 (the workspace's own)")  # 0.05 per flow node there
    assert not modelled("basedpyright 1.31.0 (bundled)")
    assert not modelled("pyright unknown")


def test_the_workspaces_own_pyright_upgraded_in_place_is_asked_again(tmp_path: Path) -> None:
    dist = tmp_path / "site-packages" / "pyright" / "dist"
    dist.mkdir(parents=True)
    (dist / "package.json").write_text('{"version": "1.1.414"}')
    origin = PyrightOrigin(dist, "1.1.414")
    env = PythonEnvironment(tmp_path, "python3", None, [], origin.label, origin)
    assert modelled(env.checker)
    patched = _with("    _pw_salt = 'run 1'")
    assert not PYTHON.interface_changed("pkg/text.py", CAPFIRST, patched, env)
    (dist / "package.json").write_text('{"version": "1.1.420"}')  # pip install -U pyright
    assert modelled(env.checker)  # the label is the one read when the workspace was made
    assert PYTHON.interface_changed("pkg/text.py", CAPFIRST, patched, env)

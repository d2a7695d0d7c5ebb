"""Inert statements (``names.bodies.live_body``): an edit of an implemented function body that
only adds, removes or changes ``pass``, its docstring or another constant on a line of its own is
invisible to other modules; a store, even a dead one, is not (pyright's code-flow complexity),
and neither is anything that turns a body into a stub or back.

The cold-pyright side is the catalogue (``planner_cases_bodies``).
"""

from __future__ import annotations

import ast

import pytest

from prewrite_daemon.languages.python.names.bodies import live_body
from prewrite_daemon.languages.python.names.imports import interface_changed
from tests.support.planner_cases_bodies import HUB
from tests.unit.name_deps_helpers import affected, src, with_line

CAPFIRST = src(HUB)  # django.utils.text.capfirst, undecorated
FIRST_IF = "    if not x:\n"


def _with(line: str, before: str = FIRST_IF, text: str = CAPFIRST) -> str:
    return with_line(line, before, text)


@pytest.mark.parametrize(
    "patched",
    [
        _with("    pass"),
        _with("    'a note'"),
        _with("    ..."),
        _with("    0"),
        CAPFIRST.replace("Capitalize the first letter", "Upper-case the first letter"),
        CAPFIRST.replace('    """Capitalize the first letter of a string."""\n', ""),
        _with('    """A second string."""', before="    return x[0]"),
        CAPFIRST.replace("        return x\n", "        pass\n        return x\n"),
        CAPFIRST.replace("        x = str(x)\n", "        x = str(x)\n        'why'\n"),
    ],
)
def test_an_inert_statement_is_not_part_of_what_importers_see(patched: str) -> None:
    assert not interface_changed(CAPFIRST, patched)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("    _pw_salt = 'run 1'", "a store adds a code-flow node (complexity)"),
        ("    x", "a name read"),
        ("    f'{x}'", "an f-string reads names"),
        ("    -1", "an operation, not a constant"),
        ("    ('a', 'b')", "a tuple expression"),
        ("    print('a')", "a call (NoReturn, complexity)"),
        ("    raise NotImplementedError", "raises"),
    ],
)
def test_anything_else_changes_the_function(line: str, why: str) -> None:
    assert interface_changed(CAPFIRST, _with(line)), why


@pytest.mark.parametrize(
    ("base", "patched"),
    [
        ("    pass\n    ...\n", "    ...\n"),  # `pass` is no stub to pyright, `...` is
        ("    0\n    ...\n", "    ...\n"),
        ('    """Doc."""\n    x = 1\n    ...\n', '    """Doc."""\n    ...\n'),
        ("    ...\n", "    '''Doc.'''\n    ...\n"),  # a stub both times: not ours to judge
        ("    '''Doc.'''\n    raise NotImplementedError\n", "    raise NotImplementedError\n"),
    ],
)
def test_a_body_that_is_or_becomes_trivial_keeps_every_statement(base: str, patched: str) -> None:
    head = "class P:\n    def meth(self):\n"
    assert interface_changed(head + _indent(base), head + _indent(patched))


def _indent(body: str) -> str:
    return "".join(f"    {line}\n" for line in body.splitlines())


def test_a_nested_scopes_statements_are_its_own() -> None:
    text = src("""
        def f():
            def g():
                return 1
            class C:
                x = 1
            return g, C
    """)
    # (a nested def keeps its body whole: a docstring there is not dropped by f's rule, though
    # it is by g's own region when g is a method or a module-level function)
    for patched in (
        text.replace("return 1", "pass\n        return 1"),
        text.replace("x = 1", "'doc'\n        x = 1"),
    ):
        assert interface_changed(text, patched)


def test_the_name_graph_keeps_only_the_patched_file_for_a_docstring_edit_of_a_hub() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/text.py": CAPFIRST,
        "a.py": "from pkg.text import capfirst\nx = capfirst('a')\n",
        "b.py": "from pkg import text\ny = text.capfirst(1)\n",
    }
    docstring = CAPFIRST.replace("Capitalize", "Upper-case")
    assert affected(files, {"pkg/text.py": docstring}) == set()
    assert affected(files, {"pkg/text.py": _with("    pass")}) == set()
    assert affected(files, {"pkg/text.py": _with("    _x = 1")}) == {"a.py", "b.py"}


def test_live_body_is_the_body_itself_when_nothing_is_inert() -> None:
    fn = ast.parse("def f(x):\n    return x\n").body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert live_body(fn) is fn.body


def test_the_shared_tree_is_never_changed_and_untouched_statements_are_shared() -> None:
    text = _with("    'note'", before="    return x[0]").replace(
        "        return x\n", "        pass\n        return x\n"
    )
    fn, plain = ast.parse(text).body[0], ast.parse(CAPFIRST).body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert isinstance(plain, ast.FunctionDef)
    before = ast.dump(fn)
    live = live_body(fn)
    assert ast.dump(fn) == before  # (the parse cache shares trees between readers)
    assert [ast.dump(s) for s in live] == [ast.dump(s) for s in plain.body[1:]]
    assert live[1] is fn.body[2]  # a statement with nothing inert in it is not copied

"""complexity_bound against the complexity an instrumented pyright 1.1.414 logged for a corpus
(tests/data/complexity/, README.md there says how logged.json was made): sound for every
function, exact for most, and a dead store ``NAME = literal`` never lowers it when added or
raises it when dropped (what the caller relies on)."""

from __future__ import annotations

import ast
import json
import random
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from prewrite_daemon.languages.python.names.complexity import CALL_SITE_LIMIT, complexity_bound

DATA = Path(__file__).resolve().parents[1] / "data" / "complexity"
EPS = 1e-9
N = Fraction(1, 40)  # one flow node
# Measured on this corpus (319 logged functions): 62.1% exact, 96.9% bounded, and of the
# bounded functions with C < 8, 97.8% have U < 8. The floors sit a little under.
EXACT_FLOOR = 0.58
BOUNDED_FLOOR = 0.94
UNDER_LIMIT_FLOOR = 0.95

Function = ast.FunctionDef | ast.AsyncFunctionDef
Key = tuple[str, int, str]


@cache
def logged() -> dict[Key, float]:
    """(file, line of the name, name) -> the complexity pyright logged."""
    rows: object = json.loads((DATA / "logged.json").read_text())
    assert isinstance(rows, list)
    out: dict[Key, float] = {}
    for row in rows:  # pyright: ignore[reportUnknownVariableType]
        assert isinstance(row, list)
        file, line, name, c = row  # pyright: ignore[reportUnknownVariableType]
        assert isinstance(file, str)
        assert isinstance(line, int)
        assert isinstance(name, str)
        assert isinstance(c, float | int)
        out[file, line, name] = float(c)
    return out


def functions(tree: ast.AST) -> list[Function]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def corpus() -> list[tuple[Key, Function]]:
    """Every logged function of a fresh parse of the corpus (safe to change in place)."""
    table = logged()
    out: list[tuple[Key, Function]] = []
    for file in sorted({key[0] for key in table}):
        tree = ast.parse((DATA / file).read_text(encoding="utf-8"))
        out += [((file, f.lineno, f.name), f) for f in functions(tree)]
    return [(key, f) for key, f in out if key in table]


@cache
def cases() -> dict[str, Function]:
    """The functions of cases.py by name (the last of a name; shared: do not change them)."""
    return {f.name: f for f in functions(ast.parse((DATA / "cases.py").read_text()))}


def case(name: str) -> Function:
    return cases()[name]


def bound_of(source: str) -> Fraction | None:
    tree = ast.parse(source)
    assert isinstance(tree.body[0], ast.FunctionDef)
    return complexity_bound(tree.body[0])


def test_sound_exact_and_useful_on_the_logged_corpus() -> None:
    table = logged()
    bounds = {key: complexity_bound(f) for key, f in corpus()}
    assert bounds.keys() == table.keys()  # every logged function is found in the corpus
    unsound = [(k, u, table[k]) for k, u in bounds.items() if u is not None and u < table[k] - EPS]
    assert unsound == []
    known = {k: u for k, u in bounds.items() if u is not None}
    exact = [k for k, u in known.items() if abs(float(u) - table[k]) <= EPS]
    assert len(known) >= BOUNDED_FLOOR * len(table)
    assert len(exact) >= EXACT_FLOOR * len(table)
    under = [k for k in known if table[k] < CALL_SITE_LIMIT]
    assert under  # the corpus has functions on both sides of the limit
    assert len(under) < len(table)
    assert sum(known[k] < CALL_SITE_LIMIT for k in under) >= UNDER_LIMIT_FLOOR * len(under)


# name in cases.py -> the bound, as params + 1 (start) nodes, then the body. The return label
# counts 1 per return plus 1 for a fallthrough, less 1; a 2-way merge label counts 1.
EXPECTED = {
    "straight0": 3 * N,  # return a: one edge, no fallthrough, the label's -1
    "straight3": 3 * N + 3 * N,  # three Name stores
    "straight3_fallthrough": 3 * N + 3 * N,  # the fallthrough edge alone: 1 - 1
    # if: 3 labels, the condition's 2 edges, 2 condition nodes; 2 stores; postIf: 2 edges
    "if_else": 3 * N + (3 * N - 2) + (2 + 2 * N) + 2 * N + 1,
    # for: 3 nodes and the target; if (no else): its labels and condition, one never-narrowing
    # node, the break edge; pyright logs 1.3 (no never-narrowing node for a bare name)
    "loop_break": 3 * N + 4 * N + (3 * N - 2) + (2 + 2 * N) + N + 1,
    # try: except label, preFinally, raise/return label, gate, postFinally; the call is an
    # event into the except label; preFinally gets the try's end, the handler's end and the
    # finally edge: 3 - 1. pyright logs 2.275 (one edge fewer)
    "try_except_finally": 3 * N + 5 * N + 2 + (N + 1) + N + N,
    "with_stmt": 3 * N + 3 * N + N + N,  # 3 labels, the target, the call
    # comprehension: falseLabel, the target, trueLabel (-1), the condition
    "comp_if": 3 * N + N + N + (N - 1) + (2 + 2 * N),
    # a and b or a: 2 preRight labels and a postRight (each -1), 3 conditions
    "bool_and_or": 3 * N + 3 * (N - 1) + 3 * (2 + 2 * N),
    "nested_def_small": 3 * N + 2 * N,  # the def's annotation node and name store only
    "nested_def_big": 3 * N + 2 * N,
    "nested_class_empty": 3 * N + N,
    "nested_class_body": 3 * N + N + 2 * N,  # the class body's two stores count
}
LOOSE = {"loop_break", "try_except_finally"}  # the others are exact


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hand_written_case(name: str) -> None:
    f = case(name)
    c = logged()["cases.py", f.lineno, name]
    u = complexity_bound(f)
    assert u is not None
    assert u == EXPECTED[name]
    assert u >= c - EPS
    assert (abs(float(u) - c) <= EPS) == (name not in LOOSE)


@pytest.mark.parametrize("stores", range(6))
def test_straight_line_stores(stores: int) -> None:
    body = "".join(f"    x{i} = a\n" for i in range(stores))
    assert bound_of(f"def f(a, b, *c, d, **e):\n{body}    return a\n") == N * (5 + 1 + stores)


def test_a_nested_def_body_does_not_count_a_nested_class_body_does() -> None:
    assert complexity_bound(case("nested_def_small")) == complexity_bound(case("nested_def_big"))
    body = complexity_bound(case("nested_class_body"))
    empty = complexity_bound(case("nested_class_empty"))
    assert body is not None
    assert empty is not None
    assert body - empty == 2 * N


def test_match_is_unknown_anywhere_in_the_functions_own_code() -> None:
    assert complexity_bound(case("with_match")) is None
    assert complexity_bound(case("with_match_in_class")) is None
    nested = (
        "def f(a):\n    if a:\n        while a:\n            match a:\n                case _:\n"
    )
    assert bound_of(nested + "                    pass\n") is None
    after_return = "def f(a):\n    return a\n    match a:\n        case _:\n            pass\n"
    assert bound_of(after_return) is None
    in_nested_def = "def f(a):\n    def g():\n        match a:\n            case _:\n"
    assert bound_of(in_nested_def + "                pass\n    return g\n") == 4 * N


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax")
def test_type_parameters_and_type_aliases_are_unknown() -> None:
    assert bound_of("def f[T](a: T) -> T:\n    return a\n") is None
    assert bound_of("def f(a):\n    type X = list[a]\n    return a\n") is None


def test_a_deep_tree_is_unknown_not_a_recursion_error() -> None:
    tree = ast.parse("def f(a):\n    return a\n")
    f = tree.body[0]
    assert isinstance(f, ast.FunctionDef)
    expr: ast.expr = ast.Name(id="a", ctx=ast.Load())
    for _ in range(sys.getrecursionlimit() * 2):
        expr = ast.BinOp(left=expr, op=ast.Add(), right=ast.Constant(value=1))
    f.body = [ast.Return(value=expr)]
    assert complexity_bound(f) is None


def blocks(f: Function) -> list[list[ast.stmt]]:
    """The statement lists of f's own code (class bodies included, nested def bodies not)."""
    out: list[list[ast.stmt]] = []
    stack: list[ast.AST] = [f]
    while stack:
        node = stack.pop()
        if node is not f and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            value: object = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                out.append(value)  # pyright: ignore[reportUnknownArgumentType]
        stack += [
            c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt | ast.excepthandler)
        ]
    return out


def is_dead_store(s: ast.stmt) -> bool:
    """``NAME = literal``: one name target; a constant, a negated one or a tuple of them."""
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1):
        return False
    if not isinstance(s.targets[0], ast.Name):
        return False
    value = s.value
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        value = value.operand
    if isinstance(value, ast.Tuple):
        return all(isinstance(e, ast.Constant) for e in value.elts)
    return isinstance(value, ast.Constant)


def test_a_dead_store_never_lowers_the_bound_and_dropping_one_never_raises_it() -> None:
    known = [(key, f) for key, f in corpus() if complexity_bound(f) is not None]
    random.Random(20261204).shuffle(known)
    inserted = removed = 0
    for key, f in known:
        base = complexity_bound(f)
        assert base is not None
        for block in blocks(f):
            for at in range(len(block) + 1):
                block.insert(at, ast.parse("_pw_dead = 1").body[0])
                with_store = complexity_bound(f)
                assert with_store is not None, key
                assert base <= with_store <= base + N, (key, at)
                del block[at]
                inserted += 1
            for at in [i for i, s in enumerate(block) if is_dead_store(s) and len(block) > 1]:
                store = block.pop(at)
                without = complexity_bound(f)
                assert without is not None, key
                assert without <= base, (key, at)
                block.insert(at, store)
                removed += 1
        assert complexity_bound(f) == base  # restored
    assert inserted > 2000  # 2,643 positions and 45 dead stores when written
    assert removed > 40

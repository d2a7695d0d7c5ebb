"""Fuzz feature **dead_stores**: stores that nothing reads, near pyright's complexity limit.

An unannotated function (one parameter, undecorated: pyright infers its return type at each call
site while its code-flow complexity is under 8) is padded with ``k`` dead stores and has a *slot*
inside one block shape (a branch on an unnarrowable condition, a narrowable one, a loop, a
``try``, a ``while``, or the body itself). Another module reads ``$run(1)`` as ``str``: an error
exactly while call-site inference is on (``int``), none once it is off (Unknown). Mutations add
or remove dead stores (the planner's ``names.dead_stores`` prunes them only under the limit), put
a store in the slot (a merge label made real: +1 of complexity), or store into the parameter
(not dead: the type changes). ``k`` is drawn so that many bases sit at the planner's bound of the
limit (``names.complexity``), a store or two away from it.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.names.complexity import CALL_SITE_LIMIT, complexity_bound
from tests.support.py_fuzzgen_model import Feature, block, indent

if TYPE_CHECKING:
    from fractions import Fraction

    from tests.support.py_fuzzgen_model import Blocks, FeatureCtx

SHAPES = {
    "body": "$slot",
    "branch": "if x + 1:\n    $slot",  # no narrowing: the label is real only with a store
    "narrowing": "if x:\n    $slot",
    "loop": "for _i in range(2):\n    $slot",
    "try": "try:\n    $slot\nexcept ValueError:\n    pass",
    "while": "while x + 1:\n    $slot\n    break",
}


@dataclass(frozen=True)
class StoresSpec:
    shape: str
    pad: int  # dead stores before the shape
    slot: str = "pass"


def _blocks(s: StoresSpec) -> Blocks:
    pad = "".join(f"_p{i} = {i}\n" for i in range(s.pad))
    body = pad + SHAPES[s.shape].replace("$slot", s.slot) + "\nreturn x"
    return {"fn": block(f"def $run(x):\n{indent(body)}"), "use": block("$w: str = $run(1)")}


@functools.cache
def _at_the_limit(shape: str, slot: str) -> int:
    """The fewest padding stores that put the planner's bound of the function at 8 or more."""
    pad = 0
    while _bound(StoresSpec(shape, pad, slot)) < CALL_SITE_LIMIT:
        pad += 1
    return pad


def _bound(s: StoresSpec) -> Fraction:
    fn = ast.parse(_blocks(s)["fn"].code.replace("$run", "run")).body[0]
    assert isinstance(fn, ast.FunctionDef)
    found = complexity_bound(fn)
    assert found is not None
    return found


def dead_stores(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    shape, slot = rng.choice(list(SHAPES)), rng.choice(["pass", "_s = 'a'"])
    near = _at_the_limit(shape, slot) - rng.randint(-1, 3)  # the bound, not pyright's value
    pad = rng.choice([0, 3, rng.randint(250, 320), near, near])
    s = StoresSpec(shape, pad, slot)
    changes = [
        ("dead store in the slot", replace(s, slot="_s = 0" if s.slot == "pass" else "pass")),
        ("one more dead store", replace(s, pad=s.pad + 1)),
        ("three dead stores fewer", replace(s, pad=max(0, s.pad - 3))),
        ("dead stores and the slot", replace(s, pad=s.pad + 2, slot="_s = (1, -2)")),
        ("the parameter stored", replace(s, slot="x = ''")),
    ]
    versions = tuple((label, _blocks(c)) for label, c in changes)
    return Feature("dead_stores", _blocks(s), versions)

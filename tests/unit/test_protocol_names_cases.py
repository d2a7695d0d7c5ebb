"""Protocols recognised by binding (``protocols.names``), each spelling judged by pyright too.

Every case is a small package whose class ``K`` meets an ``Impl`` with an incompatible ``m``:
pyright says ``incompatible with protocol "K"`` exactly when it matches ``K`` structurally. The
model must say ``m`` is a Protocol member whenever pyright does (soundness); where it says so and
pyright does not, the case says it is an over-approximation, and the precision cases pin the fixes
that keep real venvs' closures small. One cold pyright run judges them all; merging and pruning the
facts keep every answer.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.python.protocols.levels import file_facts
from prewrite_daemon.languages.python.protocols.names import (
    ProtocolFacts,
    closure,
    exported,
    merge,
    protocol_members,
    prune,
)
from tests.support.oracle import cold_pyright

if TYPE_CHECKING:
    from pathlib import Path


pytestmark = pytest.mark.timeout(180)

IMPL = 'class Impl:\n    def m(self) -> str:\n        return ""\n'
BODY = "    def m(self) -> int: ...\n"
CHECK = "k: K = Impl()\n"


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str]  # relative to the case's package; ``main.py`` holds K and the check
    pyright: bool  # pyright matches K structurally
    model: bool  # protocol_names says m is a Protocol member

    def __post_init__(self) -> None:
        assert self.model or not self.pyright or self.name in GAPS, "a miss must be a named gap"
        assert not self.model or self.pyright or self.name in OVER, "name the over-approximation"


def case(
    name: str, main: str, pyright: bool = True, model: bool | None = None, **more: str
) -> Case:
    files = {"main.py": IMPL + main, **{f"{k}.py": v for k, v in more.items()}}
    return Case(name, files, pyright, pyright if model is None else model)


GAPS = {"call_result_imported"}  # modelled as not crossing modules (protocol_keys' doc)
OVER = {"compat_import"}

CASES = [
    case("plain", f"from typing import Protocol\nclass K(Protocol):\n{BODY}{CHECK}"),
    case("import_as", f"from typing import Protocol as P\nclass K(P):\n{BODY}{CHECK}"),
    case("typing_attr", f"import typing\nclass K(typing.Protocol):\n{BODY}{CHECK}"),
    case("typing_ext", f"import typing_extensions as te\nclass K(te.Protocol):\n{BODY}{CHECK}"),
    case("variable", f"import typing\nP = typing.Protocol\nclass K(P):\n{BODY}{CHECK}"),
    case(
        "type_alias",
        "from typing import Protocol, TypeAlias\nP: TypeAlias = Protocol\n"
        f"class K(P):\n{BODY}{CHECK}",
    ),
    case(
        "string_alias",
        f'from typing import TypeAlias\nP: TypeAlias = "Protocol"\nclass K(P):\n{BODY}{CHECK}'
        "from typing import Protocol\n",
    ),
    case(
        "declared",
        f"from typing import Any, Protocol\nP: type[Protocol] = Any\nclass K(P):\n{BODY}{CHECK}",
    ),
    case("pep695", f"from typing import Protocol\ntype P = Protocol\nclass K(P):\n{BODY}{CHECK}"),
    case(
        "generic",
        f"from typing import Protocol, TypeVar\nT = TypeVar('T')\nclass K(Protocol[T]):\n{BODY}"
        "k: K[int] = Impl()\n",
    ),
    case(
        "cross_module",
        f"from .b import Q\nclass K(Q):\n{BODY}{CHECK}",
        a="from typing import Protocol as P\n",
        b="from .a import P as Q\n",
    ),
    case(
        "module_attribute",
        f"from . import a\nclass K(a.P):\n{BODY}{CHECK}",
        a="import typing\nP = typing.Protocol\n",
    ),
    case(
        "class_attribute",
        f"from typing import Protocol\nclass NS:\n    P = Protocol\nclass K(NS.P):\n{BODY}{CHECK}",
    ),
    case(
        "local_class",
        "from typing import Protocol\ndef f() -> None:\n    class K(Protocol):\n"
        f"    {BODY}    {CHECK}",
    ),
    case(
        "local_alias",
        "from typing import Protocol\ndef f() -> None:\n    P = Protocol\n    class K(P):\n"
        f"    {BODY}    {CHECK}",
    ),
    case(
        "nested_class",
        f"from typing import Protocol\nclass Outer:\n    class K(Protocol):\n    {BODY}"
        "k: Outer.K = Impl()\n",
    ),
    case(
        "under_try",
        "from typing import Protocol\ntry:\n    if True:\n        class K(Protocol):\n"
        f"        {BODY}        {CHECK}except ImportError:\n    pass\n",
    ),
    case(
        "compat_import",  # to pyright a base of two types (a union) is no class: over-approximated
        "try:\n    from typing import Protocol as P\nexcept ImportError:\n    P = object\n"
        f"class K(P):\n{BODY}{CHECK}",
        pyright=False,
        model=True,
    ),
    case(
        "conditional",
        f"import sys\nfrom typing import Protocol\nP = Protocol if sys.version_info >= (3, 8) "
        f"else object\nclass K(P):\n{BODY}{CHECK}",
    ),
    case(
        "loop",
        f"from typing import Protocol\nfor R in (Protocol,):\n    class K(R):\n    {BODY}{CHECK}",
    ),
    case(
        "walrus",
        f"from typing import Protocol\nseen = [(W := Protocol)]\nclass K(W):\n{BODY}{CHECK}",
    ),
    case(
        "walrus_in_nested_comprehension",  # binds in the function, from a later generator's if
        "from typing import Protocol\ndef f() -> None:\n"
        "    _ = [q for p in (0,) for q in (p,) if (W := Protocol)]\n"
        f"    class K(W):\n    {BODY}    {CHECK}",
    ),
    case(
        "walrus_in_first_iterable",  # evaluated outside the comprehension, bound in the module
        "from typing import Protocol\nX = [c for c in (W := (Protocol,))]\n"
        f"class K(W[0]):\n{BODY}{CHECK}",
    ),
    case(
        "walrus_in_a_call",
        "from typing import Protocol\ndef f() -> None:\n    print(W := Protocol)\n"
        f"    class K(W):\n    {BODY}    {CHECK}",
    ),
    case(
        "comprehension",
        f"from typing import Protocol\nX = [c for c in (Protocol,)][0]\nclass K(X):\n{BODY}{CHECK}",
    ),
    case(
        "call_base",
        "from typing import Protocol\ndef make():\n    return Protocol\n"
        f"class K(make()):\n{BODY}{CHECK}",
    ),
    case(
        "call_result",
        f"from typing import Protocol\ndef ident(x):\n    return x\nP = ident(Protocol)\n"
        f"class K(P):\n{BODY}{CHECK}",
    ),
    case(
        "call_result_imported",  # a gap: a call's result joins only where it is bound
        f"from .a import P\nclass K(P):\n{BODY}{CHECK}",
        model=False,
        a="from typing import Protocol\ndef make():\n    return Protocol\nP = make()\n",
    ),
    # precision: what made real venvs' closures explode must not make an alias
    case(
        "doc_attribute",
        f"from typing import Protocol\nD = Protocol.__doc__\nclass K(D):\n{BODY}{CHECK}",
        pyright=False,
    ),
    case(
        "typevar_bound",
        "from typing import Generic, Protocol, TypeVar\nT = TypeVar('T', bound=Protocol)\n"
        f"class K(Generic[T]):\n{BODY}k: K[Protocol] = Impl()\n",
        pyright=False,
    ),
    case(
        "attribute_not_a_name",
        f"from .a import http\nclass K(http):\n{BODY}{CHECK}",
        pyright=False,
        a="from typing import Protocol\nhttp = int\nclass A:\n"
        "    def __init__(self, http: type[Protocol]) -> None:\n        self.http = http\n",
    ),
    case(
        "local_not_global",
        f"from .a import result\nclass K(result):\n{BODY}{CHECK}",
        pyright=False,
        a="from typing import Protocol\nresult = int\ndef f() -> None:\n    result = Protocol\n",
    ),
    case(
        "literal_text",
        f"from .a import Y\nclass K(Y):\n{BODY}{CHECK}",
        pyright=False,
        a='from typing import Literal, Protocol\nProto = Protocol\nY: Literal["Proto"]\n',
    ),
]


def case_facts(root: Path, c: Case) -> list[ProtocolFacts]:
    found: list[ProtocolFacts] = []
    for rel in c.files:
        path = root / c.name / rel
        found.append(file_facts(path.read_bytes(), str(path)))
    return found


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bool]]:
    """The cases written as one project, and whether pyright matched each K structurally."""
    root = tmp_path_factory.mktemp("protocols")
    (root / "pyrightconfig.json").write_text('{"pythonVersion": "3.12"}\n')
    for c in CASES:
        (root / c.name).mkdir()
        (root / c.name / "__init__.py").write_text("")
        for rel, text in c.files.items():
            (root / c.name / rel).write_text(text)
    diagnostics = cold_pyright(root, sys.executable, timeout_s=150)
    matched = {
        c.name: any(
            d.path == f"{c.name}/main.py" and 'incompatible with protocol "K' in d.message
            for d in diagnostics
        )
        for c in CASES
    }
    return root, matched


@pytest.mark.parametrize("c", CASES, ids=[c.name for c in CASES])
def test_a_spelling_is_a_protocol_as_pyright_says(
    judged: tuple[Path, dict[str, bool]], c: Case
) -> None:
    root, matched = judged
    assert matched[c.name] is c.pyright, "pyright's verdict on the case moved"
    facts = case_facts(root, c)
    assert ("m" in protocol_members(facts, closure(facts))) is c.model
    if matched[c.name] and c.name not in GAPS:
        assert "m" in protocol_members(facts, closure(facts))  # never a miss


def test_merging_and_pruning_keep_every_answer(judged: tuple[Path, dict[str, bool]]) -> None:
    root, _ = judged
    facts = [f for c in CASES for f in case_facts(root, c)]
    merged = merge(facts)
    assert closure([merged]) == closure(facts)
    assert protocol_members([merged], closure([merged])) == protocol_members(facts, closure(facts))
    pruned = prune(merged)
    assert len(pruned.aliases) < len(merged.aliases)  # parameters' and locals' bindings go
    assert exported(closure([pruned])) == exported(closure(facts))
    assert protocol_members([pruned], closure([pruned])) == protocol_members(facts, closure(facts))

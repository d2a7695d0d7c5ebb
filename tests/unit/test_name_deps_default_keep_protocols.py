"""Default-keep: the planner widens wherever a rule would recognise its case by spelling only.

One test per way issue 19's adversarial probes found the planner pruning a file whose pyright
diagnostics changed (the truth for each is checked against cold pyright by
tests/e2e/test_planner_catalogue.py); here, on the graph alone, each such file must be kept. This
module: Protocols under another name, in any spelling, or defined in a function make their members
structural.
"""

from __future__ import annotations

import pytest

from tests.unit.name_deps_helpers import affected

_PROTO_USER = """
    from proto import Proto
    from impl import Impl
    def take(p: Proto) -> None: ...
    take(Impl())
"""
_IMPL = "class Impl:\n    def m(self) -> int: ...\n"
_IMPL_STR = "class Impl:\n    def m(self) -> str: ...\n"


@pytest.mark.parametrize(
    "proto",
    [
        "from typing import Protocol as P\nclass Proto(P):\n    def m(self) -> int: ...\n",
        "import typing as t\nclass Proto(t.Protocol):\n    def m(self) -> int: ...\n",
        "import typing_extensions\n"
        "class Proto(typing_extensions.Protocol):\n    def m(self) -> int: ...\n",
    ],
    ids=["imported-as", "module-alias", "typing_extensions"],
)
def test_a_protocol_under_another_name_makes_its_members_structural(proto: str) -> None:
    files = {"proto.py": proto, "impl.py": _IMPL, "user.py": _PROTO_USER}
    assert "user.py" in affected(files, {"impl.py": _IMPL_STR})


@pytest.mark.parametrize(
    ("proto", "annotation"),
    [
        ("from typing import *\nclass Proto(Protocol):\n    def m(self) -> int: ...\n", "Proto"),
        (
            "import typing\nBase = typing.Protocol\n"
            "class Proto(Base):\n    def m(self) -> int: ...\n",
            "Proto",
        ),
        (
            "from typing import Protocol\nclass Holder:\n    class Proto(Protocol):\n"
            "        def m(self) -> int: ...\n",
            "Holder.Proto",
        ),
    ],
    ids=["star-typing", "bound-to-a-variable", "nested-in-a-class"],
)
def test_a_protocol_in_any_spelling_makes_its_members_structural(
    proto: str, annotation: str
) -> None:
    user = f"import proto\nfrom impl import Impl\np: proto.{annotation} = Impl()\n"
    files = {"proto.py": proto, "impl.py": _IMPL, "user.py": user}
    assert "user.py" in affected(files, {"impl.py": _IMPL_STR})


def test_a_protocol_defined_in_a_function_makes_its_members_structural() -> None:
    user = """
        from typing import Protocol
        from impl import Impl
        def f() -> None:
            class Proto(Protocol):
                def m(self) -> int: ...
            p: Proto = Impl()
    """
    files = {"impl.py": _IMPL, "user.py": user}
    assert "user.py" in affected(files, {"impl.py": _IMPL_STR})

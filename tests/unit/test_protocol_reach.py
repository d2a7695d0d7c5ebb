"""Which bundled stubs a plan can reach (``protocols.names.reachable_protocols``), what each
library file imports (``protocols.imports``), and the answer's split and JSON
(``protocols.answer``): pure functions on small inputs."""

from __future__ import annotations

import ast

import pytest

from prewrite_daemon.languages.python.protocols.answer import (
    CORE,
    answer,
    answer_from_json,
    answer_to_json,
)
from prewrite_daemon.languages.python.protocols.imports import imported_top_levels, stub_module
from prewrite_daemon.languages.python.protocols.names import (
    LibraryProtocolSet,
    ProtocolGroup,
    closure,
    facts_of,
    reachable_protocols,
)

pytestmark = pytest.mark.timeout(30)


def group(members: str = "", aliases: str = "", imports: str = "") -> ProtocolGroup:
    return ProtocolGroup(*(frozenset(s.split()) for s in (members, aliases, imports)))


LIBRARY = LibraryProtocolSet(
    members=frozenset({"fileno", "site_member", "a_member", "b_member", "c_member", "d_member"}),
    aliases=frozenset({"Protocol", "AProto", "DProto"}),
    core=group("fileno site_member", "Protocol", "os cmod"),
    stubs={
        "amod": group("a_member", "AProto", "bmod"),  # imports bmod
        "bmod": group("b_member", "", "amod"),  # and back: a cycle
        "cmod": group("c_member"),  # imported by a site-package (core's imports)
        "dmod": group("d_member", "DProto"),  # imported by nobody
    },
)


def test_a_stub_counts_when_the_workspace_imports_its_module() -> None:
    found = reachable_protocols(LIBRARY, ["amod.sub.deeper", "json"])
    assert found.members == {"fileno", "site_member", "a_member", "b_member", "c_member"}
    assert found.aliases == {"Protocol", "AProto"}
    assert found.core is None  # the narrowed answer has nothing left to narrow


def test_a_stub_nothing_imports_does_not_count() -> None:
    found = reachable_protocols(LIBRARY, ["json", "httpx._models"])
    assert found.members == {"fileno", "site_member", "c_member"}
    assert found.aliases == {"Protocol"}


def test_a_stub_reached_only_through_another_stub_counts() -> None:
    assert "b_member" not in reachable_protocols(LIBRARY, []).members
    assert "b_member" in reachable_protocols(LIBRARY, ["amod"]).members
    assert "a_member" in reachable_protocols(LIBRARY, ["bmod"]).members  # the cycle, backwards


def test_a_stub_a_site_package_imports_counts() -> None:
    assert "c_member" in reachable_protocols(LIBRARY, []).members


def test_an_answer_without_a_split_is_all_reachable() -> None:
    whole = LibraryProtocolSet(frozenset({"x", "y"}), frozenset({"Protocol"}))
    assert reachable_protocols(whole, []) is whole


def test_imports_are_read_in_every_spelling() -> None:
    source = b"""
import a
import b.c as d, e . f as g,  h
from i.j import (k,
    l)
from . import m
from .n import o
try: import p
except ImportError: pass
if TYPE_CHECKING: from q import r
x = 1; import s
import t \\
    , u
def f():
    import v  # w
    \"\"\"text
    import x; from y import z
    \"\"\"
with_import = 3  # not an import statement
print("from the start")
"""
    found = imported_top_levels(source)
    assert {"a", "b", "e", "h", "i", "p", "q", "s", "t", "u", "v", "x", "y"} <= found
    assert not {"d", "g", "k", "l", "m", "n", "o", "r", "w", "z", "with_import"} & found
    assert imported_top_levels(b"x = 1\n") == set()
    assert imported_top_levels(b"x = 1\rimport cr\r\x0cfrom ff import y\r\n") == {"cr", "ff"}


def test_a_stub_file_belongs_to_its_top_level_module() -> None:
    assert stub_module("yaml/nodes.pyi") == "yaml"
    assert stub_module("six.pyi") == "six"
    assert stub_module("google/protobuf/message.pyi") == "google"
    assert stub_module("foo-stubs/bar.pyi") == "foo"


def test_the_answer_splits_by_group_and_closes_over_all_of_them() -> None:
    core = facts_of(ast.parse("import typing\nclass S(typing.Protocol):\n    s: int\n"), "s")
    alias = facts_of(ast.parse("from typing import Protocol as P\n"), "p")
    user = facts_of(ast.parse("from pmod import P\nclass U(P):\n    u: int\n"), "u")
    plain = facts_of(ast.parse("class N:\n    n: int\n"), "n")
    groups = {CORE: [core], "pmod": [alias], "umod": [user], "nmod": [plain]}
    imports = {CORE: {"umod"}, "umod": {"pmod"}, "empty": set[str]()}
    full = closure([core, alias, user, plain])
    found = answer(groups, imports, full)
    assert found.members == {"s", "u"}
    assert found.aliases == {"Protocol", "P"}
    assert found.core == group("s", "Protocol", "umod")
    assert found.stubs == {"pmod": group("", "P"), "umod": group("u", "", "pmod")}
    assert reachable_protocols(found, []).aliases == {"Protocol", "P"}  # core imports umod
    assert answer_from_json(answer_to_json(found)) == found
    whole = LibraryProtocolSet(frozenset({"m"}), frozenset({"Protocol"}))
    assert answer_from_json(answer_to_json(whole)) == whole


@pytest.mark.parametrize(
    "data",
    [{}, {"members": [], "aliases": [], "core": []}, {"members": [], "aliases": {}}],
)
def test_an_answer_that_is_not_one_raises(data: dict[str, object]) -> None:
    with pytest.raises((KeyError, TypeError, ValueError)):
        answer_from_json(data)

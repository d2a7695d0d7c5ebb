"""What ``protocols.names`` reads from a module without pyright: the exported aliases (the names
other modules can spell), a class body's members (every name it binds and ``self`` stores), and a
text no grammar reads (every word may be declared, bound to every other in linear size).
"""

from __future__ import annotations

import ast

import pytest

from prewrite_daemon.languages.python.protocols.names import (
    alias_closure,
    closure,
    exported,
    facts_of,
    opaque_facts,
    protocol_members,
)

pytestmark = pytest.mark.timeout(180)


def test_exported_aliases_are_the_names_other_modules_can_spell() -> None:
    tree = ast.parse(
        "from typing import Protocol as P\nclass NS:\n    Q = P\ndef f():\n    L = P\n"
    )
    aliases = exported(closure([facts_of(tree, "m")]))
    assert aliases == {"Protocol", "P", ".Q"}  # the local L is no other module's


MEMBERS = """
from typing import Protocol
import sys
class K(Protocol):
    plain: int
    assigned = 1
    a, (b, *c) = 1, (2, 3)
    def method(self) -> None:
        self.stored = 1
        self.declared: int
        if sys:
            self.nested_store = 2
    @classmethod
    def make(cls) -> None:
        cls.class_store = 1
    @property
    def prop(self) -> int: ...
    class Inner: ...
    if sys.version_info >= (3, 12):
        versioned: int
    else:
        older: int
    try:
        tried: int
    except ImportError as handler_name:
        excepted: int
    def __len__(self) -> int: ...
    __slots__ = ()
class NotK:
    not_a_member: int
"""


def test_members_are_every_name_the_body_binds_and_self_stores() -> None:
    facts = [facts_of(ast.parse(MEMBERS), "m")]
    found = protocol_members(facts, closure(facts))
    expected = {"plain", "assigned", "a", "b", "c", "method", "stored", "declared"}
    expected |= {"nested_store", "make", "class_store", "prop", "Inner", "versioned", "older"}
    expected |= {"tried", "excepted", "handler_name"}
    assert found == expected  # dunders are used by syntax, not by name; NotK is no Protocol


def test_an_opaque_text_binds_every_word_to_every_other_in_linear_size() -> None:
    """A set per word was quadratic: a 35 kB broken file of 5,000 distinct words took 5 GB."""
    text = " ".join(f"w{i}" for i in range(1_000)) + " ("
    facts = opaque_facts(text)
    assert sum(len(bound) for _, bound in facts.aliases) <= 3 * 2 * 1_000
    bound_to_w7 = {"w7"}
    reached = alias_closure([facts], frozenset(bound_to_w7))
    assert {"w0", "w999"} <= reached  # any word may be bound to any other
    other = opaque_facts("v1 v2 (")
    assert "v1" not in alias_closure([facts, other], frozenset(bound_to_w7))  # texts not joined


def test_a_text_no_grammar_reads_may_declare_any_of_its_words() -> None:
    text = "class K(Protocol):\n    def m(self) -> int: ...\n    print 'py2'\n"
    facts = [opaque_facts(text)]
    members = protocol_members(facts, closure(facts))
    assert {"m", "K", "print"} <= members
    assert opaque_facts("class K(Other):\n    x = 1\n    print 'py2'\n").classes
    unrelated = [opaque_facts("x = 1\nprint 'py2'\n")]
    assert protocol_members(unrelated, closure(unrelated)) == frozenset()

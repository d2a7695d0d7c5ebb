"""Variance annotations (``in``/``out`` on type parameters), which tree-sitter rejects, read
through a text with them blanked that prewrite's pinned TypeScript proves the same program but
for exactly those modifiers; the skeleton puts each back at its place. With real node and the
real TypeScript, every rejection is TypeScript's (or tree-sitter's) answer."""

from __future__ import annotations

import pytest

from prewrite_daemon.backends.node import find_node
from prewrite_daemon.languages.typescript import repair
from prewrite_daemon.languages.typescript.interface import interface_changed, skeleton
from prewrite_daemon.languages.typescript.pinned import pinned_typescript
from prewrite_daemon.languages.typescript.syntax import read_module
from prewrite_daemon.languages.typescript.trees import parse
from tests.unit.test_ts_repair import DUAL

pytestmark = pytest.mark.skipif(
    pinned_typescript() is None or find_node() is None,
    reason="needs node and prewrite's pinned TypeScript (make install)",
)

# effect's shapes: variance on interfaces, classes and aliases, modifiers on their own lines
VARIANT = """\
import type { Pipeable } from "./Pipeable.js"
import * as Equal from "./Equal.js"

/**
 * A value of `A`, in order (the words in, out and <out A> in a comment stay).
 */
export interface Chunk<out A> extends Iterable<A>, Pipeable {
  readonly length: number
}

export interface Variance<in out K, out V> {
  readonly _K: (_: K) => K
  readonly _V: (_: never) => V
}

export type Kind<
  in out F,
  out A
> = { readonly F: F; readonly A: () => A }

export class Pair<in A, out B> implements Equal.Equal {
  constructor(readonly f: (a: A) => void, readonly b: B) {}
  [Equal.symbol](that: unknown): boolean {
    return that === this
  }
}

export const label = "<out A>, in"

export const make = <A>(a: A): Chunk<A> => {
  for (const key in { a }) {
    void key
  }
  return [a] as unknown as Chunk<A>
}
"""


WORDS = ["out", "in", "out", "out", "in", "out", "out", "in", "out"]  # VARIANT's, in order


def misread(text: str) -> bool:
    """tree-sitter's tree of ``text`` has an error (before any repair)."""
    return parse(text, False)[1].root_node.has_error


def changed(old: str, new: str) -> bool:
    return interface_changed("src/a.ts", old, new)


def test_variance_is_misread_without_the_repair_and_const_is_not() -> None:
    assert misread(VARIANT)
    assert skeleton(VARIANT) is None
    assert not read_module("src/a.tsx", VARIANT).complete  # no repair for .tsx
    assert not misread("export const f = <const T>(t: T): T => t\nclass C<const T> {}\n")


@pytest.mark.parametrize("text", [VARIANT, VARIANT + DUAL.replace("import", "import type")])
def test_a_file_with_variance_annotations_is_read(text: str) -> None:
    facts = read_module("src/a.ts", text)
    assert facts.complete
    assert not facts.reaches_everything
    names = {"./Pipeable.js", "./Equal.js"} | ({"./Function.js"} if "Dual" in text else set[str]())
    assert set(facts.specifiers) == {("module", name) for name in names}
    shape = skeleton(text, repair_as=".ts")
    assert shape is not None
    assert [e for e in shape if isinstance(e, tuple)] == [("variance", w) for w in WORDS]


def test_the_blanking_keeps_positions_and_skips_comments_strings_and_names() -> None:
    fixed, blanked = repair.blank_variance(VARIANT)
    assert len(fixed) == len(VARIANT)
    assert [w for _, _, w in blanked] == WORDS
    for start, end, word in blanked:
        assert VARIANT[start:end] == word
        assert fixed[start:end] == " " * len(word)
    assert "the words in, out and <out A> in a comment" in fixed
    assert 'label = "<out A>, in"' in fixed
    assert "for (const key in { a })" in fixed


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("interface X<out A> {}", ["out"]),
        ("interface X<in out> {}", ["in"]),  # a type parameter named ``out``
        ("interface X<out> {}", []),
        ("interface X<out extends string> {}", []),
        ("interface X<out = string> {}", []),
        ("interface X<A, out, B> {}", []),
        ("function f(out: number) {}", []),
        ("f(a, out as any)", []),
        ("f(a, out)", []),
        ("a < in_, out$ b", []),
        ("interface X</* c */ out /* d */ A> {}", ["out"]),
        ("interface X<\n  // c\n  in out K,\n  out V\n> {}", ["in", "out", "out"]),
    ],
)
def test_the_blanking(text: str, words: list[str]) -> None:
    assert [w for _, _, w in repair.blank_variance(text)[1]] == words


IFACE = """\
export interface Queue<in out A, out E = never> {
  readonly offer: (a: A) => boolean
  readonly error: E
}

export const size = <A>(self: Queue<A>): number => {
  return self ? 1 : 0
}
"""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<in out A, out E = never>", "<in out A, in E = never>"),  # out -> in
        ("<in out A, out E = never>", "<in out A, E = never>"),  # out -> nothing
        ("<in out A, out E = never>", "<out A, out E = never>"),  # in out -> out
        ("<in out A, out E = never>", "<in A, out out E = never>"),  # moved to another
        ("<in out A, out E = never>", "<out in A, out E = never>"),  # the order (a checker error)
    ],
)
def test_a_changed_modifier_is_an_interface_change(old: str, new: str) -> None:
    edited = IFACE.replace(old, new)
    assert edited != IFACE
    assert read_module("src/a.ts", edited).complete
    assert skeleton(edited, repair_as=".ts") is not None
    assert changed(IFACE, edited)
    assert changed(edited, IFACE)


def test_a_modifier_moved_between_parameters_is_a_change() -> None:
    a = "export interface P<out A, B> { a: A; b: B }\n"
    b = "export interface P<A, out B> { a: A; b: B }\n"
    assert skeleton(a, repair_as=".ts") is not None
    assert skeleton(b, repair_as=".ts") is not None
    assert changed(a, b)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<in out A, out E = never>", "<in  out A,\n  out /* covariant */ E = never>"),
        ("<in out A, out E = never>", "<\n  // invariant\n  in out A,\n  out E = never\n>"),
        ("return self ? 1 : 0", "return self ? 2 : 0"),  # an annotated body
    ],
)
def test_whitespace_comments_and_annotated_bodies_are_no_change(old: str, new: str) -> None:
    edited = IFACE.replace(old, new)
    assert edited != IFACE
    assert not changed(IFACE, edited)


SKIPPED = """\
export function local(): number {
  interface L<out X> { x: X }
  const l: L<number> = { x: 1 }
  return l.x
}

export interface P<T> { t: T }
"""


def test_a_modifier_in_a_skipped_body_is_not_one_outside_it() -> None:
    """The modifiers are entries of the sequence, at their places: one inside a skipped body is
    dropped with the body, so it never stands for one outside (a list of modifiers beside the
    sequence would hold ``out`` for both texts, and the stripped trees are equal)."""
    moved = SKIPPED.replace("interface L<out X> { x: X }\n  const l: L<number> = { x: 1 }", "")
    moved = moved.replace("return l.x", "return 1").replace("P<T>", "P<out T>")
    assert skeleton(SKIPPED, repair_as=".ts") is not None
    assert skeleton(moved, repair_as=".ts") is not None
    assert changed(SKIPPED, moved)
    assert changed(moved, SKIPPED)
    # inside the body it is no change: importers do not see it
    assert not changed(SKIPPED, SKIPPED.replace("L<out X>", "L<in X>"))


def test_a_name_blanked_across_a_line_break_is_rejected() -> None:
    """``let a = 1, out`` then ``b = 2`` on the next line: the heuristic blanks ``out`` (after
    ``,``, before a name), which declares ``b`` instead; TypeScript's tree differs."""
    text = IFACE + "export let a = 1, out\nb = 2\n"
    fixed, blanked = repair.blank_variance(text)
    assert [w for _, _, w in blanked] == ["in", "out", "out", "out"]
    assert not misread(fixed)
    assert not repair.same_program(text, fixed, ".ts", blanked)
    assert not read_module("src/a.ts", text).complete
    assert skeleton(text, repair_as=".ts") is None
    assert changed(text, text + "\n")


@pytest.mark.parametrize(
    ("original", "fixed", "blanked"),
    [
        # a parameter named ``out``, a for-in's ``in``, a property's ``in`` modifier
        ("function f(out: number) {}", "function f(   : number) {}", [(11, 14, "out")]),
        ("const f = <T,>(o: T) => { for (const k in o) {} }", None, [(39, 41, "in")]),
        ("class C { in x = 1 }", "class C {    x = 1 }", [(10, 12, "in")]),
        # a type parameter named ``out``
        ("interface X<out> {}", "interface X<   > {}", [(12, 15, "out")]),
        ("interface X<out extends Y> {}", "interface X<    extends Y> {}", [(12, 15, "out")]),
        ("interface X<in out> {}", "interface X<      > {}", [(12, 14, "in"), (15, 18, "out")]),
    ],
)
def test_a_blanked_word_that_is_no_variance_modifier_is_not_the_same(
    original: str, fixed: str | None, blanked: list[tuple[int, int, str]]
) -> None:
    if fixed is None:
        fixed = original
        for start, end, _ in blanked:
            fixed = fixed[:start] + " " * (end - start) + fixed[end:]
    assert all(original[s:e] == w for s, e, w in blanked)
    assert not repair.same_program(original, fixed, ".ts", blanked)


GOOD = "interface X<in out K, out V> {}"
GOOD_FIXED = "interface X<       K,     V> {}"
GOOD_BLANKED = [(12, 14, "in"), (15, 18, "out"), (22, 25, "out")]


def test_the_proof_accepts_exactly_the_modifiers() -> None:
    assert repair.same_program(GOOD, GOOD_FIXED, ".ts", GOOD_BLANKED)
    assert repair.same_program(GOOD, GOOD_FIXED, ".ts", GOOD_BLANKED[::-1])  # any order


@pytest.mark.parametrize(
    "blanked",
    [
        [],  # no range: a modifier without one
        GOOD_BLANKED[:2],  # one missing
        [*GOOD_BLANKED, (11, 12, "out")],  # one too many
        [*GOOD_BLANKED, GOOD_BLANKED[0]],  # twice the same
        [(12, 14, "in"), (15, 18, "in"), (22, 25, "out")],  # a wrong word
        [(12, 14, "in"), (16, 19, "out"), (22, 25, "out")],  # a wrong place
        [(12, 14, "in"), (15, 18, "out"), (21, 24, "out")],
        [(12, 18, "in out"), (22, 25, "out")],  # two as one
    ],
)
def test_the_proof_rejects_ranges_that_are_not_the_modifiers(
    blanked: list[tuple[int, int, str]],
) -> None:
    assert not repair.same_program(GOOD, GOOD_FIXED, ".ts", blanked)


def test_a_modifier_left_in_or_a_text_changed_elsewhere_is_not_the_same() -> None:
    assert not repair.same_program(GOOD, "interface X<in     K,     V> {}", ".ts", GOOD_BLANKED[1:])
    assert not repair.same_program(GOOD, GOOD, ".ts", [])
    moved = "interface X<       K,    V > {}"  # the same tree, but not the text blanked
    assert len(moved) == len(GOOD)
    assert not repair.same_program(GOOD, moved, ".ts", GOOD_BLANKED)


@pytest.mark.parametrize("before", ["é", "😀 ", "\u2028", "日本語"])
def test_offsets_past_non_ascii_text(before: str) -> None:
    """Ranges are code points in Python, UTF-16 units to TypeScript, bytes to tree-sitter."""
    text = f'export const s = "{before}" // {before}\n' + IFACE
    assert read_module("src/a.ts", text).complete
    assert skeleton(text, repair_as=".ts") is not None
    assert changed(text, text.replace("out E", "in E"))
    assert changed(text, text.replace("<in out A, out E", "<in out A, E"))
    assert not changed(text, text.replace("out E", "out  E"))

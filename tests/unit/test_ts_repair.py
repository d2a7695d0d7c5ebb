"""The repair of a TypeScript text tree-sitter misreads (generic call signatures on their own
lines), kept only when prewrite's pinned TypeScript parses it as the same program: with real
node and the real TypeScript, every rejection is TypeScript's (or tree-sitter's) answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.backends.node import find_node
from prewrite_daemon.languages.typescript import judge, repair
from prewrite_daemon.languages.typescript.interface import interface_changed, skeleton
from prewrite_daemon.languages.typescript.pinned import pinned_typescript
from prewrite_daemon.languages.typescript.syntax import read_module
from prewrite_daemon.languages.typescript.trees import parse
from tests.unit.ts_graph_helpers import graph_of

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.skipif(
    pinned_typescript() is None or find_node() is None,
    reason="needs node and prewrite's pinned TypeScript (make install)",
)

# effect's shape: a dual API's call signatures, separated by line breaks only
DUAL = """\
import { pipe } from "./Function.js"

/**
 * A function callable data-first or data-last.
 */
export interface Dual {
  /**
   * data-last
   */
  <A, B>(f: (a: A) => B): (self: A) => B // trailing
  /** data-first */
  <A, B>(self: A, f: (a: A) => B): B
  // a comment before the closing brace
}

type F = {
  <A>(a: A): string
  <A>(s: A): number
}

export const apply = (n: number): number => {
  return pipe(n)
}
"""


def misread(text: str) -> bool:
    """tree-sitter's tree of ``text`` has an error (before any repair)."""
    return parse(text, False)[1].root_node.has_error


def test_the_effect_shape_is_misread_without_the_repair() -> None:
    assert misread(DUAL)
    assert not read_module("src/a.tsx", DUAL).complete  # no repair for .tsx
    assert skeleton(DUAL) is None  # nor without a suffix


@pytest.mark.parametrize("rel", ["src/a.ts", "src/a.mts", "src/a.cts"])
def test_a_repaired_file_is_read(rel: str) -> None:
    facts = read_module(rel, DUAL)
    assert facts.complete
    assert facts.is_module
    assert not facts.reaches_everything
    assert facts.specifiers == (("module", "./Function.js"),)
    assert skeleton(DUAL, repair_as=".ts") is not None


def test_the_repair_inserts_only_where_a_type_can_end() -> None:
    fixed = repair.candidate(DUAL)
    assert fixed is not None
    assert fixed.count(";<") == 2  # not after "{" (the first member), both second members
    assert "// trailing\n  /** data-first */\n  ;<A, B>(self" in fixed
    assert "<A>(a: A): string\n  ;<A>(s: A)" in fixed


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("/* a */\n< */", None),  # a comment to the end: the look-back reaches the start
        ("*/\n<A>", None),
        ("x\n<A>", "x\n;<A>"),
        ("x // c\n  // d\n\t<A>", "x // c\n  // d\n\t;<A>"),
        ("x /* c\n */\n<A>", "x /* c\n */\n;<A>"),
        ("{\n<A>", None),
        ("a,\n<A>", None),
        ("<A>", None),  # not after a line break
        ("x =>\n<A>", None),  # a generic arrow function's own type parameters
        ("x => /* c */\n  <A>", None),
    ],
)
def test_the_candidate(text: str, fixed: str | None) -> None:
    assert repair.candidate(text) == fixed


# a generic arrow function returning one on the next line (effect's FiberHandle): a ";" after
# "=>" would end the arrow's body, which TypeScript rejects, and the file would stay unknown
CURRIED = (
    DUAL
    + """
export const run: <A>() => <R>(r: R) => R = <A>() =>
  <R>(r: R): R => r
"""
)


def test_a_generic_arrow_on_the_next_line_is_left_alone() -> None:
    fixed = repair.candidate(CURRIED)
    assert fixed is not None
    assert "=>\n  <R>(r: R): R => r" in fixed
    assert read_module("src/a.ts", CURRIED).complete
    assert skeleton(CURRIED, repair_as=".ts") is not None


def test_in_the_graph_a_repaired_file_imports_what_it_names_and_no_more(tmp_path: Path) -> None:
    sources = {"src/Function.ts": "export const pipe = (n: number): number => n\n"}
    sources |= {"src/a.ts": DUAL, "src/b.ts": "export const b = 1\n"}
    sources["src/bad.tsx"] = DUAL  # not repaired: depends on every file
    graph = graph_of(tmp_path, sources)
    assert graph.importers(["src/Function.ts"], transitive=False) == {"src/a.ts", "src/bad.tsx"}
    assert graph.importers(["src/b.ts"], transitive=False) == {"src/bad.tsx"}


def test_an_import_inside_a_repaired_file_is_found() -> None:
    text = DUAL.replace("type F = {", 'import type { Other } from "./Other.js"\n\ntype F = {')
    text += 'export type Lazy = typeof import("./Lazy.js")\n'
    facts = read_module("src/a.ts", text)
    assert facts.complete
    assert set(facts.specifiers) == {
        ("module", "./Function.js"),
        ("module", "./Other.js"),
        ("module", "./Lazy.js"),
    }


REJECTED = {
    # the ";" would land in a JSDoc comment whose line starts with "<"
    "jsdoc": DUAL.replace(
        "/**\n * A function", "/**\n * For example\n<p>an example</p>\n * A function"
    ),
    # ... in a block comment between the last member and "}", or at the end of the file
    "comment-before-brace": DUAL.replace(
        "  // a comment before the closing brace\n", "  /* see\n  <b>this</b> */\n"
    ),
    "comment-at-end": DUAL + "/* the end\n<i>really</i> */\n",
    # ... in a multi-line template literal
    "template": DUAL + "export const html = `a\n  <b>bold</b>`\n",
    # an expression continued on the next line: (a < b) > c, not a statement and an assertion
    "continued": DUAL
    + "declare const a: number, b: number, c: number\nexport const x = a\n  <b>c\n",
    "continued-lt": DUAL + "declare const a: number, b: number\nexport const y = a\n  < b\n",
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_a_repair_that_changes_the_program_is_rejected(name: str) -> None:
    text = REJECTED[name]
    assert misread(text)
    assert not read_module("src/a.ts", text).complete
    assert skeleton(text, repair_as=".ts") is None
    assert interface_changed("src/a.ts", text, text + "\n")


@pytest.mark.parametrize(
    "name", ["jsdoc", "comment-before-brace", "comment-at-end", "template", "continued"]
)
def test_typescript_itself_rejects_what_tree_sitter_accepts(name: str) -> None:
    """The candidates tree-sitter reads cleanly: TypeScript's answer is what rejects them."""
    fixed = repair.candidate(REJECTED[name])
    assert fixed is not None
    assert not misread(fixed)
    assert not repair.same_program(REJECTED[name], fixed, ".ts")
    assert repair.same_program(DUAL, repair.candidate(DUAL) or "", ".ts")


def test_a_genuine_syntax_error_stays_unknown() -> None:
    text = DUAL + "export const = ;\n"
    assert not read_module("src/a.ts", text).complete
    assert skeleton(text, repair_as=".ts") is None


def test_a_typescript_parse_error_tree_sitter_accepts_is_not_the_same() -> None:
    """Both texts must parse without a diagnostic: ``1_`` is one to TypeScript."""
    text = DUAL + "export const n = 1_\n"
    fixed = repair.candidate(text)
    assert fixed is not None
    assert not repair.same_program(text, fixed, ".ts")


def test_a_body_is_no_interface_change_and_a_signature_is() -> None:
    body = DUAL.replace("return pipe(n)", "return pipe(n + 1)")
    assert not interface_changed("src/a.ts", DUAL, body)
    assert not interface_changed("src/a.ts", DUAL, DUAL.replace("data-first", "first"))
    signature = DUAL.replace("f: (a: A) => B): B", "f: (a: A) => B): A")
    assert misread(signature)
    assert interface_changed("src/a.ts", DUAL, signature)
    assert interface_changed("src/a.ts", DUAL, DUAL.replace("string\n", "boolean\n"))


def test_tsx_and_javascript_are_not_repaired() -> None:
    assert repair.repair_suffix("a.tsx") is None
    assert repair.repair_suffix("a.js") is None
    assert repair.repair_suffix("a.d.ts") == ".d.ts"
    assert interface_changed("src/a.tsx", DUAL, DUAL.replace("pipe(n)", "pipe(n + 1)"))


def test_a_timeout_answers_not_the_same_and_the_next_request_starts_a_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fixed = repair.candidate(DUAL)
    assert fixed is not None
    monkeypatch.setattr(judge, "TIMEOUT_S", 0.0)
    assert not repair.same_program(DUAL, fixed, ".ts")
    monkeypatch.setattr(judge, "TIMEOUT_S", 10.0)
    assert repair.same_program(DUAL, fixed, ".ts")


def test_a_text_over_the_cap_is_not_repaired(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repair, "MAX_CHARS", len(DUAL) - 1)
    assert repair.repaired(DUAL, ".ts", lambda _: True) is None


def test_no_node_no_repair(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PREWRITE_NODE", raising=False)
    monkeypatch.setenv("PATH", "")
    worker = judge.Judge()
    assert not worker.same(DUAL, repair.candidate(DUAL) or "", ".ts")
    worker.stop()

"""TypeScript's "interface unchanged" test: only bodies behind a declared return type are free."""

from __future__ import annotations

import pytest

from prewrite_daemon.languages.typescript.interface import interface_changed, skeleton

BASE = """\
import { helper } from "./helper.js";

export function annotated(a: number): number {
  return helper(a) + 1;
}

export function inferred(a: number) {
  return a + 1;
}

export const arrow = (s: string): string => s.trim();

export class Box {
  value;
  constructor(v: number) {
    this.value = v;
  }
  get size(): number {
    return 1;
  }
  twice(): number {
    return this.size * 2;
  }
}
"""


def edit(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new)


@pytest.mark.parametrize(
    "new",
    [
        edit("return helper(a) + 1;", "const b = helper(a);\n  return b + 2;"),
        edit("s.trim()", "s.trim().toLowerCase()"),
        edit("return 1;", "return 2;"),
        edit("return this.size * 2;", "return this.size + this.size;"),
        edit("export class Box", "// a comment\n\nexport   class Box"),
        BASE + "\n// trailing comment\n",
    ],
    ids=["function", "arrow", "getter", "method", "comment-whitespace", "trailing-comment"],
)
def test_a_body_behind_a_declared_return_type_is_not_an_interface_change(new: str) -> None:
    assert not interface_changed("src/a.ts", BASE, new)


@pytest.mark.parametrize(
    "new",
    [
        edit("return a + 1;", "return String(a);"),  # an inferred return type moves
        edit("this.value = v;", "this.value = String(v);"),  # constructor inference
        edit("a: number): number {", "a: number, b = 0): number {"),
        edit("): number {\n    return 1;", "): string {\n    return '1';"),
        edit('"./helper.js"', '"./other.js"'),
        BASE + "export const added = 1;\n",
        edit("return helper(a) + 1;", "return helper(a) +;"),  # unparsable: count as changed
    ],
    ids=["inferred", "constructor", "param", "return-type", "import", "added", "error"],
)
def test_anything_else_is(new: str) -> None:
    assert interface_changed("src/a.ts", BASE, new)


def test_a_triple_slash_directive_counts() -> None:
    assert interface_changed("src/a.ts", BASE, '/// <reference types="node" />\n' + BASE)


def test_new_deleted_javascript_and_declarations_always_count() -> None:
    body = edit("return helper(a) + 1;", "return helper(a) + 2;")
    assert interface_changed("src/a.ts", None, BASE)
    assert interface_changed("src/a.ts", BASE, None)
    assert interface_changed("src/a.js", BASE, body)
    assert interface_changed("src/a.d.ts", BASE, body)
    assert not interface_changed("src/a.ts", BASE, BASE)


def test_tsx_is_parsed_as_tsx() -> None:
    old = "export function View(): JSX.Element {\n  return <div>a</div>;\n}\n"
    new = old.replace("<div>a</div>", "<span>b</span>")
    assert skeleton(old, tsx=True) is not None
    assert not interface_changed("src/view.tsx", old, new)
    assert interface_changed("src/view.ts", old, new)  # as .ts, the JSX does not parse

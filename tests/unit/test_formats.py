"""The parse rung's format checks: provable breakage refused at its line, the rest left alone.

Each format has the three cases of the issue's bar — a patch that breaks the file is refused
with the line named, a file already broken the same way stays editable (with what was wrong in
the receipt), a correct edit passes — and the tempting non-breakages a naive check gets wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.formats import check_for
from prewrite_daemon.ladder.parse import parse_error, parse_patch


def _judge(
    path: str, old: str | None, new: str, root: Path = Path("/ws")
) -> tuple[list[int], list[str]]:
    """(lines of the errors the patch introduced, notes on files already broken)."""
    introduced, already = parse_patch(PreparedPatch(root, (FileEdit(path, old, new),)))
    return [d.line for d in introduced], already


def _line(path: str, text: str) -> int:
    found = parse_error(path, text)
    assert found is not None, f"{path} should be refused"
    assert f"line {found.line}" in found.message  # the message names the line
    return found.line


# --- the three cases, per format ---------------------------------------------------------
BREAKS = [
    # (path, before, after it broke, the line named)
    ("conf.yaml", "a: 1\nb:\n  c: 2\n", "a: 1\nb:\n  c: 2\n d: 3\n", 4),  # bad indentation
    ("conf.yml", "a: 1\nb: 2\n", "a: 1\nb: 2\na: 3\n", 3),  # a repeated key, at its repeat
    ("doc.md", "# t\n\n```py\nx = 1\n```\n", "# t\n\n```py\nx = 1\n", 3),  # the opening fence
    ("site.css", "a { color: red; }\nb { c: d }\n", "a { color: red;\nb { c: d }\n", 1),
    ("app.js", "function f() {\n  return 1;\n}\n", "function f() {\n  return 1;\n", 2),
    ("app.ts", "const n: number = 1;\n", "const n: number = ;\n", 1),
]


@pytest.mark.parametrize(("path", "before", "after", "line"), BREAKS)
def test_a_patch_that_breaks_the_file_is_refused_at_the_line(
    path: str, before: str, after: str, line: int
) -> None:
    assert _judge(path, before, after) == ([line], [])
    assert _line(path, after) == line


@pytest.mark.parametrize(("path", "before", "after", "line"), BREAKS)
def test_a_file_already_broken_the_same_way_stays_editable_with_a_note(
    path: str, before: str, after: str, line: int
) -> None:
    del before
    edited = "\n" + after  # an edit elsewhere: one more line at the top
    introduced, already = _judge(path, after, edited)
    assert introduced == []
    assert len(already) == 1
    assert already[0].startswith(f"{path} (")
    was, now = already[0].split("; after the patch: ")
    assert f"line {line}" in was  # what was wrong, and where
    assert f"line {line + 1}" in now  # and where it is now


@pytest.mark.parametrize(("path", "before", "after", "line"), BREAKS)
def test_a_correct_edit_passes(path: str, before: str, after: str, line: int) -> None:
    del after, line
    assert _judge(path, before, before + "\n") == ([], [])
    assert _judge(path, None, before) == ([], [])  # and as a new file


def test_a_new_broken_file_is_refused() -> None:
    assert _judge("new.yaml", None, "a: [1\n") == ([2], [])


# --- YAML --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        # CloudFormation's short-form intrinsic functions
        "Resources:\n  B:\n    Properties:\n      Name: !Ref Foo\n      Arn: !GetAtt [A, Arn]\n"
        "      S: !Sub |\n        x-${A}\n      J: !Join ['', [!Ref A, b]]\n",
        "sensor: !include sensors.yaml\npassword: !secret pw\n",  # Home Assistant
        "a: !!binary aGVsbG8=\nb: !custom {x: 1}\nc: !<tag:x.org,2000:y> 1\nd: !!set {a, b}\n",
        "base: &b {x: 1}\none:\n  <<: *b\n  y: 2\ntwo:\n  <<: [*b]\n  <<: *b\n",  # merge keys
        "a: 1\n---\na: 2\n...\n---\n- a\n- a\n",  # one key per document, not per stream
        "1: a\n'1': b\ntrue: c\n'true': d\n",  # different tags: different keys
        "%YAML 1.2\n---\nk: v\n",
        "\ufeffk: v\n",
        "",
    ],
)
def test_yaml_that_is_valid(text: str) -> None:
    assert parse_error("x.yaml", text) is None


def test_yaml_tags_are_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f"x: !!python/object/apply:os.system ['touch {marker}']\n"
    assert parse_error("x.yaml", text) is None
    assert not marker.exists()


@pytest.mark.parametrize(
    ("text", "line", "rule"),
    [
        ('a: 1\n"a": 2\n', 2, "duplicate-key"),  # quoted or plain, one key
        ("a: 1\n---\nb: 1\nc:\n  d: 1\n  d: 2\n", 6, "duplicate-key"),  # in the 2nd document
        ("a: 1\n---\nb: [1\n", 4, "syntax"),
        ("a:\n\tb: 1\n", 2, "syntax"),  # a tab cannot indent
        ("a: *nowhere\n", 1, "syntax"),  # an alias to no anchor
    ],
)
def test_yaml_breakage(text: str, line: int, rule: str) -> None:
    found = parse_error("x.yaml", text)
    assert found is not None
    assert (found.line, found.rule, found.source) == (line, rule, "yaml")


def test_a_helm_template_that_is_not_yaml_until_rendered_proves_nothing() -> None:
    text = "apiVersion: v1\n{{- if .Values.on }}\nkind: ConfigMap\n{{- end }}\n"
    assert parse_error("templates/cm.yaml", text) is None


# --- Markdown ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "1. step\n   ```bash\n   run\n   ```\n2. next\n",  # a fence in a list, closed indented
        "> ```\n> code\n> ```\n\ntext\n",  # in a block quote
        "- a\n  - b\n    ~~~\n    x\n    ~~~\n",  # nested lists, tildes
        "````md\n```py\nx\n```\n````\n",  # a shorter fence inside a longer one is content
        "~~~\n```\n~~~\n",  # the other character is content
        "    ```\n    indented code, not a fence\n",
        "1. step\n   ```bash\n   run\n2. next\n",  # closed by its list item: renders as written
        "<div>\n```\n</div>\n",  # inside an HTML block
        "```py\nx\n```   \n",  # trailing spaces after the closing fence
        "---\nthis is a thematic break, never closed as front matter\n",
        "---\ntitle: T\ntags: [a, b]\nwhen: !!timestamp 2024-01-01\n---\n# T\n",
        "+++\ntitle = 'T'\n+++\n# T\n",
        "text with `` ` `` and ``` inline ``` code spans\n",
    ],
)
def test_markdown_that_renders_as_written(text: str) -> None:
    assert parse_error("doc.md", text) is None


@pytest.mark.parametrize(
    ("text", "line", "rule"),
    [
        ("````\nx\n```\n", 1, "unclosed-fence"),  # a shorter fence does not close it
        ("~~~\nx\n```\n", 1, "unclosed-fence"),  # nor one of the other character
        ("- item\n  ```\n  code\n```\nmore\n", 4, "unclosed-fence"),  # dedented: a new fence
        ("text\n\n```", 3, "unclosed-fence"),
        ("---\ntitle: [T\n---\n# T\n", 3, "syntax"),  # front matter
        ("---\na: 1\na: 2\n---\n", 3, "duplicate-key"),
        ("+++\ntitle = \n+++\n", 1, "front-matter"),
        ("# T\n\ncaf\ufffd\n", 3, "encoding"),
        ("# T\n\n\ud800\n", 3, "encoding"),
    ],
)
def test_markdown_breakage(text: str, line: int, rule: str) -> None:
    found = parse_error("doc.md", text)
    assert found is not None
    assert (found.line, found.rule) == (line, rule)


# --- CSS ---------------------------------------------------------------------------------
MODERN_CSS = """@layer reset, base;
@import url("theme.css") layer(base) supports(display: grid);
:root { --gap: 4px; --empty:; --json: {"a": [1, 2]}; --fn: calc(1px+2px); }
.card {
  color: red;
  & .title { font-weight: bold; }
  &:hover { color: blue; }
  .dark & { color: white; }
  h1 { margin: 0 }
}
@container sidebar (width > 400px) and (height > 400px) { .a { b: c } }
@media (400px <= width <= 700px) { a { grid-template-areas: "a b" "c d"; } }
@scope (.card) to (.content) { img { border: 1px solid } }
@property --x { syntax: '<length>'; inherits: false; initial-value: 0px; }
@supports selector(:has(a)) { a:has(> img) { b: c } }
@font-face { font-family: X; src: url(x.woff2) format("woff2"); unicode-range: U+0000-00FF; }
a { *zoom: 1; _height: 1px; filter: progid:DXImageTransform.Microsoft.gradient(enabled=false); }
a::after { content: "}" '{' "\\"" ; background: url(data:image/png;base64,iVBOR=) }
/* a comment with { and " inside */
"""


def test_modern_css_is_never_a_false_red() -> None:
    assert parse_error("site.css", MODERN_CSS) is None


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("a { b: c }\n/* never closed\nd { e: f }\n", 2, "comment never closes"),
        ('a { content: "never closed; }\nb { c: d }\n', 1, "string"),
        ("a { b: c }\n}\nb { c: d }\n", 2, "'}' closes nothing"),
        ("@media (min-width: 1px) {\n  a { b: c }\n", 1, "'{' never closes"),
        ("a { b: calc(1px + 2px; }\n", 1, "closes nothing"),
        ("a { background: url(x y.png) }\n", 1, "url"),
    ],
)
def test_css_breakage(text: str, line: int, says: str) -> None:
    found = parse_error("site.css", text)
    assert found is not None
    assert found.line == line
    assert says in found.message


def test_scss_and_less_are_not_css() -> None:
    assert check_for("a.scss") is None
    assert check_for("a.less") is None


# --- the JavaScript / TypeScript family --------------------------------------------------
@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("a.js", "#!/usr/bin/env node\nimport d from './d.json' with { type: 'json' };\n"),
        ("a.js", "class A { #x = 1; static { init(); } m() { return this.#x ?? a?.b?.[c]; } }\n"),
        ("a.js", "const r = /[/]\\//g, d = a / b / c; a ||= b; 1_000n;\n"),
        ("a.js", "const A = () => <div className='x'>{a}</div>;\n"),  # JSX in .js, as React does
        ("a.jsx", "export default function A() { return <><B {...p} /></>; }\n"),
        ("a.mjs", "export const x = await import('./y.mjs');\n"),
        ("a.cjs", "module.exports = { a: require('a') };\n"),
        ("a.ts", "function f<const T>(x: T): T { return <T>x; }\nconst y = {} satisfies object;\n"),
        ("a.ts", "@C() export class A { constructor(private readonly x: number) {} }\n"),
        ("a.mts", "export type X = { readonly [K in keyof Y]?: Y[K] };\n"),
        ("a.tsx", "const A = <T,>(x: T) => <div>{String(x)}</div>;\n"),
        ("a.js", "// @flow\ntype T = {| a: number |};\nfunction f(x: T): void {}\n"),  # Flow
    ],
)
def test_javascript_and_typescript_that_parse(path: str, text: str) -> None:
    assert parse_error(path, text) is None


def test_jsx_only_where_the_suffix_allows_it() -> None:
    assert _line("a.ts", "const a = 1;\nconst b = <div/>;\n") == 2
    assert parse_error("a.tsx", "const a = 1;\nconst b = <div/>;\n") is None


def test_a_column_counts_characters_not_bytes() -> None:
    found = parse_error("a.js", "const é = 'é' + ;\n")
    assert found is not None
    assert (found.line, found.column) == (1, 15)


def test_a_typescript_workspace_leaves_the_family_to_typescript(tmp_path: Path) -> None:
    broken = "const n: number = ;\n"
    assert _judge("a.ts", None, broken, tmp_path) == ([1], [])
    (tmp_path / "tsconfig.json").write_text("{}\n")
    assert _judge("a.ts", None, broken, tmp_path) == ([], [])
    assert _judge("a.md", None, "```\n", tmp_path) == ([1], [])  # other formats still checked


# --- the registry ------------------------------------------------------------------------
def test_the_registry_by_suffix_and_by_name() -> None:
    assert check_for("docs/README.MD") is check_for("x.markdown")
    assert check_for(".clang-format") is check_for("x.yml")
    assert check_for("Makefile") is None
    assert check_for("a.py") is None  # parse.py's own

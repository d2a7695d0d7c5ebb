"""The parser of ``tsc --noEmit --pretty false`` output, on output captured from TS 5.9.3 and 7.0.2.

The two compilers printed these texts byte for byte the same (exit codes differ: 2 and 1). The
chained messages below are also what tsserver 5.9.3 (``semanticDiagnosticsSync``) and
``tsc --lsp`` 7.0.2 (``textDocument/diagnostic``) answered for the same file: a chain's lines
joined by ``\\n``, indented two spaces per level.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.backends.tsc_output import GLOBAL_KEY, parse_tsc_output

TREE = Path("/work/ws")

# A small project with a library in node_modules that has errors of its own (5.9.3 and 7.0.2).
CAPTURED_PROJECT = """\
node_modules/badlib/index.d.ts(1,22): error TS2322: Type 'string' is not assignable to type 'number'.
node_modules/badlib/index.d.ts(1,34): error TS1039: Initializers are not allowed in ambient contexts.
src/a.ts(3,55): error TS2322: Type 'string' is not assignable to type 'number'.
src/a.ts(4,40): error TS2322: Type 'number' is not assignable to type 'string'.
src/a.ts(5,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.
src/a.ts(6,27): error TS2322: Type 'number' is not assignable to type 'string'.
src/a.ts(8,14): error TS2322: Type '{ name: string; inner: { deep: { value: string; }; }; }' is not assignable to type 'Outer'.
  The types of 'inner.deep.value' are incompatible between these types.
    Type 'string' is not assignable to type 'number'.
src/a.ts(9,14): error TS2322: Type '(x: { a: string; }) => void' is not assignable to type '(x: { a: number; }) => void'.
  Types of parameters 'x' and 'x' are incompatible.
    Type '{ a: number; }' is not assignable to type '{ a: string; }'.
      Types of property 'a' are incompatible.
        Type 'number' is not assignable to type 'string'.
src/sub/b.ts(1,10): error TS2305: Module '"../a"' has no exported member 'missing'.
src/sub/b.ts(3,17): error TS2304: Cannot find name 'Outer'.
"""  # noqa: E501  (captured output, kept verbatim)

# As tsserver 5.9.3 and tsc --lsp 7.0.2 flattened the two chains of src/a.ts.
LSP_CHAIN_8 = (
    "Type '{ name: string; inner: { deep: { value: string; }; }; }' is not assignable to type"
    " 'Outer'.\n  The types of 'inner.deep.value' are incompatible between these types.\n"
    "    Type 'string' is not assignable to type 'number'."
)
LSP_CHAIN_9 = (
    "Type '(x: { a: string; }) => void' is not assignable to type '(x: { a: number; }) => void'.\n"
    "  Types of parameters 'x' and 'x' are incompatible.\n"
    "    Type '{ a: number; }' is not assignable to type '{ a: string; }'.\n"
    "      Types of property 'a' are incompatible.\n"
    "        Type 'number' is not assignable to type 'string'."
)

# rxjs 7.8.2's sources under TS 7.0.2 (lib.dom's BufferSource narrowed); 5.9.3 prints nothing.
CAPTURED_RXJS_TS7 = """\
src/internal/observable/dom/WebSocketSubject.ts(304,28): error TS2345: Argument of type 'WebSocketMessage' is not assignable to parameter of type 'string | Blob | BufferSource'.
  Type 'ArrayBufferView<ArrayBufferLike>' is not assignable to type 'string | Blob | BufferSource'.
    Type 'ArrayBufferView<ArrayBufferLike>' is not assignable to type 'ArrayBufferView<ArrayBuffer>'.
      Type 'ArrayBufferLike' is not assignable to type 'ArrayBuffer'.
        Type 'SharedArrayBuffer' is not assignable to type 'ArrayBuffer'.
          Types of property '[Symbol.toStringTag]' are incompatible.
            Type '"SharedArrayBuffer"' is not assignable to type '"ArrayBuffer"'.
"""  # noqa: E501

CAPTURED_GLOBAL = "error TS5023: Unknown compiler option '--foo'.\n"
CAPTURED_CONFIG = "tsconfig.json(2,40): error TS5023: Unknown compiler option 'bogusOption'.\n"


def raw(line: int, column: int, rule: str, message: str, severity: str = "error") -> RawDiagnostic:
    return RawDiagnostic(line, column, line, column, severity, rule, message, "ts")


def test_parses_a_project_keyed_by_relative_path_with_zero_based_starts() -> None:
    found = parse_tsc_output(CAPTURED_PROJECT, TREE)
    assert sorted(found) == ["src/a.ts", "src/sub/b.ts"]
    assert found["src/sub/b.ts"] == [
        raw(0, 9, "TS2305", "Module '\"../a\"' has no exported member 'missing'."),
        raw(2, 16, "TS2304", "Cannot find name 'Outer'."),
    ]
    assert found["src/a.ts"][2] == raw(
        4, 2, "TS2345", "Argument of type 'string' is not assignable to parameter of type 'number'."
    )


def test_continuation_lines_make_the_message_the_language_server_sends() -> None:
    a = parse_tsc_output(CAPTURED_PROJECT, TREE)["src/a.ts"]
    assert [d.line for d in a] == [2, 3, 4, 5, 7, 8]
    assert a[4].message == LSP_CHAIN_8
    assert a[5].message == LSP_CHAIN_9


def test_a_deep_chain_from_a_real_package() -> None:
    found = parse_tsc_output(CAPTURED_RXJS_TS7, TREE)
    (d,) = found["src/internal/observable/dom/WebSocketSubject.ts"]
    assert (d.line, d.column, d.rule) == (303, 27, "TS2345")
    assert d.message.count("\n") == 6
    assert d.message.splitlines()[-1] == (
        "            Type '\"SharedArrayBuffer\"' is not assignable to type '\"ArrayBuffer\"'."
    )


def test_library_diagnostics_are_dropped_with_their_continuations() -> None:
    text = (
        "node_modules/lib/index.d.ts(1,1): error TS2322: Outer.\n  Inner.\n"
        "../elsewhere/x.ts(2,2): error TS2322: Outside.\n  Outside inner.\n"
        "src/a.ts(1,1): error TS2304: Cannot find name 'x'.\n"
    )
    assert parse_tsc_output(text, TREE) == {
        "src/a.ts": [raw(0, 0, "TS2304", "Cannot find name 'x'.")]
    }


def test_global_diagnostics_go_under_the_empty_key() -> None:
    assert parse_tsc_output(CAPTURED_GLOBAL, TREE) == {
        GLOBAL_KEY: [raw(0, 0, "TS5023", "Unknown compiler option '--foo'.")]
    }


def test_config_file_diagnostics_keep_their_file() -> None:
    assert parse_tsc_output(CAPTURED_CONFIG, TREE) == {
        "tsconfig.json": [raw(1, 39, "TS5023", "Unknown compiler option 'bogusOption'.")]
    }


def test_absolute_paths_inside_the_tree_become_relative(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "src").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real)
    text = f"{real}/src/a.ts(1,2): error TS1005: ';' expected.\n"
    assert parse_tsc_output(text, link) == {"src/a.ts": [raw(0, 1, "TS1005", "';' expected.")]}


@pytest.mark.parametrize(
    ("word", "severity"),
    [("error", "error"), ("warning", "warning"), ("message", "information")],
)
def test_severity_follows_the_category_word(word: str, severity: str) -> None:
    found = parse_tsc_output(f"a.ts(1,1): {word} TS6133: 'x' is declared.\n", TREE)
    assert found["a.ts"][0].severity == severity


def test_summary_lines_and_crlf_are_ignored() -> None:
    text = "a.ts(1,1): error TS2304: Cannot find name 'x'.\r\n\r\nFound 1 error in a.ts:1\r\n"
    assert parse_tsc_output(text, TREE) == {"a.ts": [raw(0, 0, "TS2304", "Cannot find name 'x'.")]}


def test_empty_output_means_no_diagnostics() -> None:
    assert parse_tsc_output("", TREE) == {}

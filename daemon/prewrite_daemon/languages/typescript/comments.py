"""What TypeScript reads from comments: triple-slash references, the JSX pragma, JSDoc imports.

A syntax tree leaves comments as opaque text, and TypeScript itself reads these three with
regular expressions (``extractPragmas``) or a separate JSDoc parser, so this module reads the
comment texts the tree hands it — never the source around them. Each reader over-approximates:

- ``/// <reference path|types|lib="..." />`` (TypeScript's own attribute pattern, any case, no
  escapes), honoured anywhere in the file, not only at its top as TypeScript does. Any comment
  that mentions ``<reference`` reaches the whole program (it may add files or globals to it).
- ``@jsxImportSource x``: the file imports ``x/jsx-runtime`` and ``x/jsx-dev-runtime``.
- JSDoc in JavaScript files (``@type {import("./a").A}``, ``@import { A } from "./a"``): every
  quoted literal in a comment that mentions ``import`` is a specifier (escapes cooked as in a
  string; one TypeScript would reject makes the file unknown). In TypeScript files JSDoc
  declares no types and its examples import nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from prewrite_daemon.languages.typescript.literals import cook

# TypeScript's tripleSlashXMLCommentStartRegEx and getNamedArgRegEx
_TRIPLE_SLASH = re.compile(r"^///\s*<(\S+)\s.*?/>", re.MULTILINE)
_ARGUMENT = re.compile(r"""(\s(path|types|lib)\s*=\s*)(?:(?:'([^']*)')|(?:"([^"]*)"))""", re.I)
_JSX_IMPORT_SOURCE = re.compile(r"@jsximportsource\s+(\S+)", re.IGNORECASE)
# one pattern per quote, each run on its own: an apostrophe in prose ("don't") must not
# swallow a real literal after it
_QUOTED = tuple(re.compile(f"{q}((?:[^{q}\\\\\\n]|\\\\.)*){q}") for q in "\"'`")


@dataclass
class CommentFacts:
    """What the comments of one file add to its dependencies."""

    specifiers: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    references: bool = False  # a triple-slash reference: the file acts on the whole program
    unknown: bool = False  # a literal TypeScript would reject: assume the worst


def read_comment(text: str, javascript: bool, facts: CommentFacts) -> None:
    """Add what the comment ``text`` (its whole source, delimiters included) declares."""
    if "<reference" in text.lower():
        facts.references = True
        start = _TRIPLE_SLASH.match(text)
        if start and start.group(1).lower() == "reference":
            for match in _ARGUMENT.finditer(text):
                kind = match.group(2).lower()
                value = match.group(3) if match.group(3) is not None else match.group(4)
                if kind != "lib":  # lib.*.d.ts belong to the compiler, not the project
                    facts.specifiers.append((kind, value))
    for match in _JSX_IMPORT_SOURCE.finditer(text):
        for source in {match.group(1), match.group(1).removesuffix("*/")} - {""}:
            facts.specifiers += [("module", f"{source}/jsx-runtime")]
            facts.specifiers += [("module", f"{source}/jsx-dev-runtime")]
    if javascript and "import" in text:
        for match in (m for pattern in _QUOTED for m in pattern.finditer(text)):
            cooked = cook(match.group(1))
            if cooked is None:
                facts.unknown = True
            else:
                facts.specifiers.append(("module", cooked))

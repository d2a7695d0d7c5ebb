"""A TypeScript text tree-sitter misreads, repaired when TypeScript's parser proves it the same.

tree-sitter-typescript (0.23.2) misreads two things TypeScript accepts. (1) A type literal's
generic call signatures separated by line breaks only — ``<A, B>(a: A): B`` then, on the next
line, ``<A>(self: A): A`` — read as ``B<A>`` (type arguments; TypeScript does not attempt
``parseTypeArguments`` there). (2) Variance annotations: the ``in``/``out`` modifiers of a type
parameter (``interface X<out A>``, ``<in out K>``, ``class C<in A, out B>``; ``<const T>`` it
reads). The file gets an ERROR node and is UNKNOWN (it "reaches everything"): sound, but every
check touching it re-checks the whole program. The modelled fragment:

- **Repair** (``repaired``): only for ``.ts``/``.mts``/``.cts`` (and their declaration forms) —
  never ``.tsx`` or JavaScript, whose grammar is another — whose tree has an error, under
  ``MAX_CHARS``. First (``candidate``) a ``;`` inserted before every ``<`` that is the first
  non-blank character of a line and follows (past blanks, block comments and whole-line ``//``
  comments, a heuristic) something that can end a type: a name, a literal, ``)``, ``]``, ``}`` or
  ``>`` (not ``=>``: a generic arrow function's). If tree-sitter still finds an error, then
  (``blank_variance``) each ``in``/``out`` word that looks like a type parameter's modifier —
  outside comments, strings and templates, after ``<``, ``,`` or another such word, before a name
  that is no operator (``extends``, ``as``...), past blanks and comments: a heuristic — is replaced
  by as many spaces, so that nothing after it moves; the blanked ranges and words are kept with the
  text (``Repaired``). The repaired text is kept only if tree-sitter parses it without an error.
- **Proof** (``same_program``): prewrite's pinned TypeScript (``typescript/pinned.py``: its own
  copy, never the workspace's; ``judge.py``, ``same_program.cjs``) parses both texts; they are
  the same program only if neither has a parse diagnostic, the two trees are equal node by node
  (kind, flags, every non-positional primitive property, leaf source text, shape; the
  end-of-file token included) once the ``in``/``out`` modifiers of the original's type
  parameters are left out, the comments are equal in text and order, and the blanked ranges are
  exactly those modifiers: each range one modifier, at its place in the repaired text (from the
  type parameter's start to its name the repaired text is the original's with the modifiers as
  spaces), each modifier one range. A separator ``;`` in a type literal is no node, so a right
  repair changes nothing; one landing in a comment, a string or template, or changing how an
  expression continues (``a\\n< b``) changes a comment, a leaf or the shape; a blanked ``in``
  or ``out`` that was a name, an operator or any other modifier changes the tree or is no
  modifier of a type parameter.
- **Why sound**: the repaired text is used only to read the file's facts and its skeleton with
  tree-sitter (``syntax.read_module``, ``interface.skeleton``), never to type-check (the original
  is what is checked); TypeScript reads it as the same tree and the same comments as the
  original but for the variance modifiers, which no fact reads (they name no module and declare
  nothing) and which the skeleton puts back, each word at its range's place (before the type
  parameter it modifies). JSDoc is not parsed: a ``;`` after a JSDoc block moves which node it
  documents, which no fact or skeleton of a ``.ts`` file reads (in TypeScript files JSDoc
  declares no type). Skeletons are compared as any two, repaired or not: an inserted ``;`` is a
  token of the sequence, and a variance modifier an entry no node type or leaf text can equal,
  so two agree only where the trees and the modifiers do, or where all that differs lies in
  bodies the skeleton skips (which importers do not see). Anything else — no node, no pinned
  TypeScript, a worker that fails, times out (``judge.TIMEOUT_S``) or answers anything but
  "same" — leaves the file UNKNOWN, as without the repair.

Verdicts are cached by a digest of the suffix and the text (``_VERDICTS`` entries, least
recently used out): the repaired text and its ranges are a function of the text alone.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.languages.typescript.judge import JUDGE, Blank

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

MAX_CHARS = 1024 * 1024  # larger texts are not repaired
_VERDICTS = 1024
_REPAIRABLE = (".d.ts", ".d.mts", ".d.cts", ".ts", ".mts", ".cts")
_LEADING_LT = re.compile(r"\n[ \t]*<")
_ENDS_TYPE = re.compile(r"[\w$)\]}>'\"`]")
# a comment, a string (on one line) or a template literal (without nesting), skipped; else a word
_VARIANCE = re.compile(
    r"//[^\n]*|/\*.*?\*/|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`(?:[^`\\]|\\.)*`"
    r"|(?<![\w$])(in|out)(?![\w$])",
    re.DOTALL,
)
_WORD = re.compile(r"[\w$]+")
_NOT_A_NAME = frozenset({"extends", "as", "satisfies", "instanceof"})  # ``out as T``: a name


@dataclass(frozen=True)
class Repaired:
    """A repaired text TypeScript proved the same program as the original, and the ranges of it
    (code points, in order) that were ``in``/``out`` modifiers of type parameters there."""

    text: str
    blanked: tuple[Blank, ...] = ()


def repair_suffix(rel: str) -> str | None:
    """The suffix ``rel`` is parsed as when it may be repaired; None for ``.tsx``, JavaScript
    and anything else."""
    return next((s for s in _REPAIRABLE if rel.endswith(s)), None)


def repaired(text: str, suffix: str, parses: Callable[[str], bool]) -> Repaired | None:
    """The repaired ``text`` of a file with ``suffix`` whose tree-sitter tree has an error, if
    ``parses`` (tree-sitter reads it without an error) and TypeScript proves it the same
    program; else None (the caller keeps the original and its error)."""
    if len(text) > MAX_CHARS or suffix not in _REPAIRABLE:
        return None
    fixed, blanked = candidate(text), ()
    if fixed is None or not parses(fixed):  # then variance annotations, if any, are blanked
        fixed, blanked = blank_variance(fixed or text)
        if not blanked or not parses(fixed):
            return None
    # The candidate (text and ranges) is a function of the text (``parses``: tree-sitter, pinned),
    # so the suffix and the text key the verdict on it.
    key = hashlib.blake2b(f"{suffix}\0{text}".encode("utf-8", "surrogatepass")).digest()
    with _CACHE_LOCK:
        verdict = _CACHE.get(key)
        if verdict is not None:
            _CACHE.move_to_end(key)
    if verdict is None:
        verdict = JUDGE.same(text, fixed, suffix, blanked)
        with _CACHE_LOCK:
            _CACHE[key] = verdict
            while len(_CACHE) > _VERDICTS:
                _CACHE.popitem(last=False)
    return Repaired(fixed, blanked) if verdict else None


def candidate(text: str) -> str | None:
    """``text`` with ``;`` before each line-leading ``<`` that follows what can end a type;
    None when there is none."""
    parts: list[str] = []
    last = 0
    for match in _LEADING_LT.finditer(text):
        at = match.end() - 1
        if _ENDS_TYPE.fullmatch(_previous_code_char(text, match.start()) or " "):
            parts += [text[last:at], ";"]
            last = at
    return "".join([*parts, text[last:]]) if parts else None


def blank_variance(text: str) -> tuple[str, tuple[Blank, ...]]:
    """``text`` with each ``in``/``out`` word that looks like a type parameter's modifier as
    spaces — outside comments, strings and templates, after ``<``, ``,`` or another such word,
    before a name that is no operator, past blanks and comments — and those ranges, in order
    (a heuristic, a rough lexer: the proof decides)."""
    blanked: list[Blank] = []
    for match in _VARIANCE.finditer(text):
        start, end = match.span(1)
        if start >= 0 and _looks_like_modifier(text, start, end, blanked[-1][1] if blanked else -1):
            blanked.append((start, end, match.group(1)))
    parts: list[str] = []
    last = 0
    for start, end, _ in blanked:
        parts += [text[last:start], " " * (end - start)]
        last = end
    return "".join([*parts, text[last:]]), tuple(blanked)


def _looks_like_modifier(text: str, start: int, end: int, blanked_end: int) -> bool:
    """Whether the word at ``start:end`` follows ``<``, ``,`` or a word blanked before (ending at
    ``blanked_end``) and precedes a name (not an operator: ``extends``, ``as``...), past blanks
    and comments."""
    before = _previous_code_end(text, start)
    if text[before - 1 : before] not in ("<", ",") and before != blanked_end:
        return False
    name = _WORD.match(text, _next_code_start(text, end))
    word = name.group() if name is not None else ""
    return (word[:1].isidentifier() or word[:1] == "$") and word not in _NOT_A_NAME


def _previous_code_char(text: str, end: int) -> str:
    """The last code character before ``end``; none after ``=>`` (a ``<`` there opens a
    generic arrow function, no type argument list: effect's ``> =>`` then ``<R>() =>``)."""
    end = _previous_code_end(text, end)
    return "" if end < 1 or text[end - 2 : end] == "=>" else text[end - 1]


def _previous_code_end(text: str, end: int) -> int:
    """Where the last character before ``end`` past blanks, block comments ending there and
    whole-line ``//`` comments ends; 0 if none (a heuristic: the proof, not this, decides)."""
    while True:
        while end > 0 and text[end - 1] in " \t\r\n":
            end -= 1
        if end >= 2 and text.startswith("*/", end - 2):  # ``end`` only ever decreases
            end = text.rfind("/*", 0, end - 2)
            if end < 0:
                return 0
            continue
        line = text.rfind("\n", 0, end) + 1
        if text[line:end].lstrip().startswith("//"):
            end = line
            continue
        return end


def _next_code_start(text: str, start: int) -> int:
    """Where the first character from ``start`` past blanks and comments is (a heuristic)."""
    while True:
        while start < len(text) and text[start] in " \t\r\n":
            start += 1
        if text.startswith("/*", start):
            close = text.find("*/", start + 2)
            start = len(text) if close < 0 else close + 2
        elif text.startswith("//", start):
            close = text.find("\n", start)
            start = len(text) if close < 0 else close
        else:
            return start


def same_program(original: str, fixed: str, suffix: str, blanked: Sequence[Blank] = ()) -> bool:
    """Whether prewrite's pinned TypeScript parses both texts to the same tree and comments, but
    for the type parameter modifiers ``blanked`` in ``fixed`` (uncached; False on any failure)."""
    return JUDGE.same(original, fixed, suffix, blanked)


_CACHE: OrderedDict[bytes, bool] = OrderedDict()
_CACHE_LOCK = threading.Lock()

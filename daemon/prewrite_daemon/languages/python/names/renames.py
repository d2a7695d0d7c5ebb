"""Renamed functions: a region whose text differs only by a rename has not changed.

An agent renaming a function edits its ``def`` and every call of it, often in a module whose
other regions call it (``headers, stream = encode_request(...)`` in ``Request.__init__``, which
types ``Request.stream``). Compared as text, each of those regions changed, and a change that
reaches a class's ``__init__`` reaches every holder of the class. But a call's result does not
depend on the callee's name: if the function is the same under its new name, every region that
only *calls* it has the same type as before. So ``find_renames`` compares the patched files' old
versions with the rename applied (``o`` spelled ``n``: "R(old)") against their new versions, and
reports the renamed names themselves as changed: ``o`` removed, ``n`` added, in the defining
module and in every patched file that imports it. Files outside the patch that spell ``o`` (now
broken) or ``n`` are reached through those names as usual; files that spell neither, through
no import, star import or module object, cannot see the difference.

A pair ``(module m, o -> n)`` is a rename when all of this holds, with the reason:

- ``o`` is a function defined once, by a ``def`` at the top level of ``m`` (not under ``if`` or
  ``try``, not overloaded), and ``n`` likewise in the new ``m``; ``m`` is not a package's
  ``__init__`` (``from m import n`` could then mean a submodule ``n``), has no ``.pyi`` beside it
  and is the only file of its dotted names (an import of them means ``m``). Classes and
  variables are not renamed here: a class's name is part of every type its values carry (and of
  error messages), a variable may be a ``TypeVar`` or alias that pyright prints by name.
- In every patched file (before the patch), every occurrence of the word ``o`` — identifiers of
  every kind, attribute names, keyword names, strings, type comments; not docstrings, which
  reference nothing — is one of: the ``def`` in ``m``; a name being *called* (``o(...)``); one
  top-level ``from <m> import o`` (``as o`` at most), by a relative import or by an absolute
  dotted name; the string ``"o"`` in a top-level ``__all__`` statement. A file that calls ``o``
  binds it exactly once (the ``def``, or the import), has no star import and no other binding
  of ``o`` (parameter, local, ``global``, class member, loop or ``except`` target): every call
  then resolves to the module-level binding, that is to ``m``'s function. Anything else (``o``
  passed as a value, ``m.o``, ``"o"`` in a string annotation or ``getattr``, a decorator, an
  alias ``as p`` whose value carries the function, and its name, on) rejects the rename. An
  absolute import of one of ``m``'s dotted names is taken to mean ``m``, as everywhere in the
  graph; were it resolved elsewhere (an installed copy), ``from ... import n`` would fail in
  the patched file itself, which is always checked.
- The same holds for ``n`` after the patch, ``n`` occurs nowhere before it and ``o`` nowhere
  after it, in every patched file: no capture, no collision with an existing name, every
  mention moved with the rename.
- R(old)'s region of ``n`` equals the new one in every patched file that binds it (the ``def``:
  decorators, signature, and the body when the return type is inferred, with recursive calls
  renamed; an import: the same target and guards), and no name that region mentions changes
  in the patch (an alias in its return annotation, a helper its inferred return type comes
  from): calls return what they returned. The last is known only after the propagation, which
  records the regions it reaches in these files (``Propagation.touched``); ``NameGraph.narrow``
  then judges the patch again without the renames.

Then the patched files are diffed as R(old) against new (``old_views``), the renamed names are
changed names of every patched file binding them (``names``), and the tags of ``o`` and ``n``
are hidden inside the patched files (``hidden``): the diff has already decided which of their
regions changed, and the rest only call the function. Added and deleted files are left to the
module rules. A pair that fails a condition is dropped (the patch is then judged as before).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.names.imports import module_names
from prewrite_daemon.languages.python.names.rename_census import renamed_view, take_census
from prewrite_daemon.languages.python.names.symbol_changes import fingerprints
from prewrite_daemon.languages.python.names.symbols import Collected

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from prewrite_daemon.languages.python.names.rename_census import Census

_MAX_CANDIDATES = 8  # pairs tried one by one (a rename patch has one or two)


@dataclass(frozen=True)
class Rename:
    rel: str  # the module defining the function
    old: str
    new: str


@dataclass
class Renames:
    """What ``NameGraph.narrow`` uses instead of the plain diff (see the module doc)."""

    pairs: tuple[Rename, ...] = ()
    old_views: dict[str, Collected] = field(default_factory=lambda: dict[str, Collected]())
    names: dict[str, set[str]] = field(default_factory=lambda: defaultdict[str, set[str]](set))
    hidden: dict[str, frozenset[str]] = field(default_factory=lambda: dict[str, frozenset[str]]())


def find_renames(
    changes: Sequence[tuple[str, str | None, str | None]],
    files_of: Callable[[str], set[str]],
    views: Mapping[str, Sequence[Collected | None]],
) -> Renames:
    """The renamed functions of a patch. ``files_of(dotted)``: the workspace files that module
    name may denote; ``views``: each patched file's regions, old then new (None: no parse)."""
    changed = {rel for rel, _, _ in changes}
    candidates: list[Rename] = []
    for rel, old, new in changes:
        cols = views.get(rel, ())
        if old is None or new is None or len(cols) != 2 or not rel.endswith(".py"):
            continue
        before, after = cols
        if before is None or after is None or not _definable(rel, files_of, changed):
            continue
        removed, added = _top_functions(before), _top_functions(after)
        candidates += [Rename(rel, o, n) for o in sorted(removed - added)
                       for n in sorted(added - removed)]  # fmt: skip
    if not candidates or len(candidates) > _MAX_CANDIDATES:
        return Renames()
    sides: dict[str, tuple[str, str]] = {}
    new_views: dict[str, Collected] = {}
    for rel, old, new in changes:
        cols = views.get(rel, ())
        if old is None or new is None or len(cols) != 2 or None in cols:
            continue  # added, deleted or unparsable: the module rules judge it
        sides[rel] = (old, new)
        if cols[1] is not None:
            new_views[rel] = cols[1]
    verified = [(c, _verify(sides, (c,), new_views)) for c in candidates]
    accepted = [(c, found) for c, found in verified if found is not None]
    olds, news = [c.old for c, _ in accepted], [c.new for c, _ in accepted]
    if len(set(olds)) != len(olds) or len(set(news)) != len(news):
        return Renames()  # one name renamed two ways (or two names to one): not a renaming
    if len(accepted) == 1:
        return accepted[0][1] or Renames()
    found = _verify(sides, [c for c, _ in accepted], new_views) if accepted else None
    return found or Renames()


def _top_functions(col: Collected) -> set[str]:
    """Module-level names declared once, by a ``def`` outside any ``if``/``try``."""
    return {
        owner
        for (owner, member), region in col.regions.items()
        if not member
        and len(region.declarations) == 1
        and region.declarations[0].role == "def"
        and region.declarations[0].pieces[0][0].startswith(("def ", "async def "))
    }


def _definable(rel: str, files_of: Callable[[str], set[str]], changed: set[str]) -> bool:
    """Not a package (``n`` could be a submodule), and the only file its dotted names denote
    (no stub beside it, in the workspace or the patch)."""
    if rel.rsplit("/", 1)[-1] == "__init__.py":
        return False
    names = {name for name in module_names(rel) if "." in name}
    if any(module_names(other) & names for other in changed - {rel}):
        return False
    return all(files_of(name) <= {rel} for name in names)


def _verify(
    sides: Mapping[str, tuple[str, str]],
    pairs: Sequence[Rename],
    new_views: Mapping[str, Collected],
) -> Renames | None:
    """The renames ``pairs`` make, or None when a condition of the module doc fails."""
    words = frozenset(p.old for p in pairs) | frozenset(p.new for p in pairs)
    out = Renames(pairs=tuple(pairs))
    for rel, (old_text, new_text) in sorted(sides.items()):
        old, new = take_census(rel, old_text, words), take_census(rel, new_text, words)
        if old is None or new is None:
            return None  # (it parsed for the views: not reached)
        renaming: dict[str, str] = {}
        for p in pairs:
            if p.new in old.found or p.old in new.found:
                return None  # a collision, or a mention left behind
            if not _allowed(rel, p, old, p.old) or not _allowed(rel, p, new, p.new):
                return None
            if p.old in old.found:
                renaming[p.old] = p.new
            kinds = [*old.found.get(p.old, []), *new.found.get(p.new, [])]
            if any(k not in ("call", "all") for k in kinds):
                out.names[rel] |= {p.old, p.new}  # it binds one: removed, added
        if not renaming or old.tree is None:
            continue
        col = renamed_view(rel, old_text, words, tuple(sorted(renaming.items())))
        if col is None:
            return None
        new_col = new_views.get(rel) or Collected(rel, new.tree or ast.Module([], []))
        mine, theirs = fingerprints(col), fingerprints(new_col)
        for n in renaming.values():
            if mine.get((n, "")) != theirs.get((n, "")):
                return None  # the function (or the import) is not the same under its new name
        out.old_views[rel] = col
        out.hidden[rel] = _hidden_tags(rel, [p for p in pairs if p.old in renaming])
    return out


def _hidden_tags(rel: str, pairs: Sequence[Rename]) -> frozenset[str]:
    tags: set[str] = set()
    for p in pairs:
        for name in (p.old, p.new):
            tags |= {f"{k}:{m}.{name}" for m in module_names(p.rel) for k in ("k", "m")}
            if rel == p.rel:
                tags.add(f"l:{name}")
    return frozenset(tags)


def _allowed(rel: str, pair: Rename, census: Census, name: str) -> bool:
    """Whether a file's occurrences of ``name`` (see ``Census``) are a renaming's."""
    kinds = census.found.get(name, [])
    if not kinds:
        return True
    if "other" in kinds or ("call" in kinds and census.star_import):
        return False  # (a star import may bind the name a call resolves to)
    defs = kinds.count("def")
    imports = [k.removeprefix("import ") for k in kinds if k.startswith("import ")]
    if rel == pair.rel:
        return defs == 1 and not imports
    if defs or len(imports) > 1 or any(not _means(m, pair.rel) for m in imports):
        return False
    return bool(imports) or "call" not in kinds


def _means(module: str, rel: str) -> bool:
    """Whether ``from <module> import`` names the file ``rel`` (relative imports resolve exactly;
    an absolute dotted name is one of rel's, which ``_definable`` made unambiguous)."""
    return module in module_names(rel) and "." in module

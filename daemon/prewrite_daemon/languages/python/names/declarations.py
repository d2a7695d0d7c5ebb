"""What a region is made of while ``symbols`` collects a module, and which declarations type a name.

A region (``symbols``) is a list of *declarations*, one per statement that binds its name: a
role (``def``, ``class``, ``ann``, ``assign``, ``store``, ``import``, ``nested``) and *pieces*,
each a marker saying what the piece is (a signature's kind, an ``if`` guard, an ``except``
header) and the units it is made of (``symbols`` scans each unit once). The ``if``/``try``/
``with`` headers a declaration sits under come first among its pieces.

A name or member declared by an annotation, a ``def`` or a ``class`` keeps only those
declarations: pyright types it by them and merely checks other assignments against them (an
error in the file itself). An annotation declares unless it is a bare ``Final``/``ClassVar``/
``TypeAlias``/``InitVar`` (by any name the file gives it), which leaves the type to the value;
so may a bare name or attribute imported from a module outside the standard library (another
module may call ``TypeAlias`` that): default-keep.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field

from prewrite_daemon.languages.python.names.node_facts import TreeIndex, last_name

_NOT_DECLARING = frozenset({"Final", "ClassVar", "TypeAlias", "InitVar"})
_DROPPED_WHEN_DECLARED = frozenset({"assign", "store"})
_DECLARING = frozenset({"ann", "def", "class", "nested"})

Piece = tuple[str, tuple[int, ...]]  # a marker (what the piece is) and the units it is made of


@dataclass
class Declaration:
    role: str  # def, class, ann, assign, store, import, nested
    pieces: list[Piece]
    refs: tuple[tuple[str, str], ...] = ()  # from-import targets the file needs: (module, name)
    module_refs: tuple[str, ...] = ()  # modules only the binding depends on (what it re-exports)
    target: str = ""  # an import: what the name denotes (a module, or a name or submodule)
    abstract: bool = False
    decorators: tuple[str, ...] = ()  # a def's decorators as dotted chains ("?": not a chain)


@dataclass
class RegionBuild:
    kind: str  # bind, class, member
    owner: str
    member: str
    declarations: list[Declaration] = field(default_factory=lambda: list[Declaration]())

    @property
    def data(self) -> bool:
        """Declared other than by ``def``/``class`` (a field, to a dataclass-like class)."""
        return any(d.role in ("ann", "assign", "store", "import") for d in self.declarations)

    @property
    def nested_class(self) -> bool:
        return any(d.role == "nested" for d in self.declarations)

    @property
    def abstract(self) -> bool:
        return any(d.abstract for d in self.declarations)

    @property
    def decorators(self) -> frozenset[str]:
        return frozenset(c for d in self.declarations for c in d.decorators)

    def keep_declared(self) -> None:
        """pyright types a name by its declarations (annotation, def, class) when it has one:
        drop the other bindings (every form of ``__all__`` is read)."""
        declared = any(d.role in _DECLARING for d in self.declarations)
        if declared and self.owner != "__all__":
            self.declarations = [
                d for d in self.declarations if d.role not in _DROPPED_WHEN_DECLARED
            ]


@dataclass
class ClassBuild:
    name: str
    node: ast.ClassDef
    bases: list[ast.expr]


class DeclaringAnnotations:
    """Which annotations of one file declare the type of what they annotate (see the module doc)."""

    def __init__(self, index: TreeIndex) -> None:
        self._not_declaring = _NOT_DECLARING | _special_aliases(index)
        self._foreign = _foreign_names(index)

    def declares(self, annotation: ast.expr) -> bool:
        """A bare ``Final``/``ClassVar``/``TypeAlias`` (by any name the file gives it) leaves
        the type to the value; so may a bare name or attribute imported from a module outside
        the standard library (another module may call ``TypeAlias`` that): default-keep."""
        if last_name(annotation) in self._not_declaring:
            return False
        root: ast.expr = annotation
        while isinstance(root, ast.Attribute):
            root = root.value
        return not (isinstance(root, ast.Name) and root.id in self._foreign)


def _foreign_names(index: TreeIndex) -> frozenset[str]:
    """Names the file binds by importing from a module outside the standard library."""
    names: set[str] = set()
    for node in index.imports:
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or module.partition(".")[0] not in sys.stdlib_module_names:
                names.update(a.asname or a.name for a in node.names)
        else:
            for a in node.names:
                if a.name.partition(".")[0] not in sys.stdlib_module_names:
                    names.add(a.asname or a.name.partition(".")[0])
    return frozenset(names)


def _special_aliases(index: TreeIndex) -> frozenset[str]:
    """Names the file binds to ``Final``, ``ClassVar``, ``TypeAlias`` or ``InitVar`` (``from
    typing import Final as F``, ``F = typing.Final``), to a fixpoint; the spelling of the
    imported or assigned name decides, whatever module it comes from (an over-approximation)."""
    bindings: list[tuple[str, str]] = []  # (bound name, the last name of what it denotes)
    for imported in index.imports:
        if isinstance(imported, ast.ImportFrom):
            bindings += [(a.asname, a.name) for a in imported.names if a.asname]
    for node in index.assigns:
        if node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            last = last_name(node.value)
            bindings += [(t.id, last) for t in targets if isinstance(t, ast.Name) and last]
    found: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, source in bindings:
            if name not in found and (source in _NOT_DECLARING or source in found):
                found.add(name)
                grew = True
    return frozenset(found)

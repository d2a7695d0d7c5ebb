"""What changed between two versions of one module, symbol by symbol (see ``symbols``).

A region's *fingerprint* is the canonical dump (``ast.dump``, no positions, so formatting and
comments never count) of everything in it, with its markers. Two versions of a module differ in
the names whose fingerprints differ (added and removed names included); a class's header and
each member are compared on their own. ``names.deps`` decides what each difference reaches.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite_daemon.languages.python.names.symbols import Collected

_PYRIGHT_COMMENT = re.compile(r"^\s*#\s*pyright:.*$", re.MULTILINE)

# Non-dunder member names of the Protocol classes of typeshed's stdlib (pyright 1.1.414): a value
# of a workspace class may be matched structurally against any of them (``SupportsRead`` and
# ``read``). A floor only: the daemon's answer comes from the scan of pyright's bundled typeshed
# (``protocols.library``), a superset of these
# (tests/unit/library_protocols/test_library_protocols.py).
STDLIB_PROTOCOL_MEMBERS = frozenset(
    """
    _condition _state _waiters aclose adjustable arraysize as_integer_ratio asend athrow
    avoids_symlink_attacks block_size characters close closed commit copy createDocument
    createDocumentType create_default_context cursor decode decompress description detach
    digest digest_size dnd_end encode endDocument endElement endElementNS endPrefixMapping eof
    err_msg error exc_traceback exc_type exc_value execute executemany exists fatalError
    fetchall fetchmany fetchone fileno filter finalize find_spec flush get get_all getbuffer
    handle handleError hasFeature height hexdigest ignorableWhitespace implementation inverse
    is_dir is_file is_symlink isatty items iterdir iteritems joinpath json keys load_module
    max_count mode monotonic name notationDecl object open parent parse processingInstruction
    put_nowait read read1 read_bytes read_text readable readinto readline readlines resolution
    resolveEntity result rowcount run search seek seekable send setDocumentLocator
    setinputsizes setoutputsize skippedEntity startDocument startElement startElementNS
    startPrefixMapping step tell throw timetuple truncate unparsedEntityDecl unused_data update
    value value_parser warning width writable write writelines writeln
    """.split()
)


@dataclass(frozen=True)
class MemberChange:
    """One member of a class whose fingerprint differs (or which was added or removed)."""

    cls: str
    name: str
    added_or_removed: bool
    data: bool  # declared by an assignment in either version (a field, to a dataclass)
    nested_class: bool
    abstract: bool


@dataclass(frozen=True)
class ModuleChange:
    """The differences importers may see; ``fallback`` says why no narrowing is possible."""

    names: frozenset[str] = frozenset()  # module-level names (classes: their header)
    members: tuple[MemberChange, ...] = ()
    fallback: str | None = None
    star_sources: frozenset[str] = frozenset()  # star-imported modules whose names may move


def fingerprints(col: Collected) -> dict[tuple[str, str], str]:
    """(owner, member) -> the canonical text of the region (member "" for module-level names)."""
    if col.fingerprints is not None:
        return col.fingerprints
    dumps: dict[int, str] = {}

    def dump(unit: int) -> str:
        if unit not in dumps:
            nodes = col.units[unit][0]
            dumps[unit] = "\n".join(ast.dump(n, include_attributes=False) for n in nodes)
        return dumps[unit]

    out: dict[tuple[str, str], str] = {}
    for key, region in col.regions.items():
        parts = [region.kind]
        for decl in region.declarations:
            parts.append(f"{decl.role} {decl.refs} {decl.module_refs} {decl.abstract}")
            for marker, units in decl.pieces:
                parts.append(marker)
                parts.extend(dump(u) for u in units)
        out[key] = "\n".join(parts)
    col.fingerprints = out
    return out


def diff_modules(old: Collected, new: Collected, old_text: str, new_text: str) -> ModuleChange:
    """The names and members that differ between two parsed versions of one module."""
    unmodelled = old.unmodelled | new.unmodelled
    if unmodelled:
        return ModuleChange(fallback=f"a statement no rule models: {', '.join(sorted(unmodelled))}")
    if pyright_comments(old_text) != pyright_comments(new_text):
        return ModuleChange(fallback="a file-level '# pyright:' comment changed")
    if _future(old) != _future(new):  # deferred annotations: forward references resolve
        return ModuleChange(fallback="a __future__ import changed")
    before, after = fingerprints(old), fingerprints(new)
    names: set[str] = set()
    members: list[MemberChange] = []
    stars: set[str] = set()
    for key in sorted(before.keys() | after.keys()):
        if before.get(key) == after.get(key):
            continue
        owner, member = key
        if owner == "*":  # every star import of either version: guards may have moved too
            for region in (old.regions.get(key), new.regions.get(key)):
                for decl in region.declarations if region else ():
                    stars.update(decl.module_refs)
            continue
        if not member:
            names.add(owner)
            continue
        regions = [r for r in (old.regions.get(key), new.regions.get(key)) if r is not None]
        members.append(
            MemberChange(
                cls=owner,
                name=member,
                added_or_removed=len(regions) < 2,
                data=any(r.data for r in regions),
                nested_class=any(r.nested_class for r in regions),
                abstract=any(r.abstract for r in regions),
            )
        )
    members += _field_orders(old, new)
    if "__getattr__" in names:
        return ModuleChange(fallback="the module's __getattr__ changed")
    if "__all__" in names:  # star importers gain or lose exactly the names that moved
        star_old, star_new = star_names(old), star_names(new)
        if star_old is None or star_new is None:  # (a star import makes it unknown without it)
            return ModuleChange(fallback="__all__ changed and is not a plain list")
        names |= star_old ^ star_new
    return ModuleChange(frozenset(names), tuple(members), star_sources=frozenset(stars))


# A class whose fields were reordered (and nothing else): its synthesized ``__init__`` and
# ``__match_args__`` (a dataclass's, a NamedTuple's), or an Enum's ``auto()`` values, differ
# though no member's region does. A dunder: the change is its whole class's.
FIELD_ORDER = "__field_order__"


def _field_orders(old: Collected, new: Collected) -> list[MemberChange]:
    before = {c.name: _fields(c.node.body) for c in old.classes}
    out: list[MemberChange] = []
    for c in new.classes:
        fields = _fields(c.node.body)
        if c.name in before and before[c.name] != fields:
            out.append(MemberChange(c.name, FIELD_ORDER, False, True, False, False))
    return out


def _fields(body: list[ast.stmt]) -> list[str]:
    """The names a class body assigns or declares, in order (``if``/``try`` bodies included)."""
    names: list[str] = []
    for stmt in body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names.append(stmt.target.id)
        elif isinstance(stmt, ast.Assign):
            names += [t.id for t in stmt.targets if isinstance(t, ast.Name)]
        elif isinstance(stmt, ast.If | ast.Try | ast.TryStar):
            names += _fields([*stmt.body, *stmt.orelse, *getattr(stmt, "finalbody", [])])
    return names


def _future(col: Collected) -> set[str]:
    return {
        a.name
        for n in col.import_nodes
        if isinstance(n, ast.ImportFrom) and n.module == "__future__"
        for a in n.names
    }


def star_names(col: Collected) -> frozenset[str] | None:
    """What ``from module import *`` binds, or None when it cannot be read off the module."""
    if not col.all_statements:
        if ("*", "") in col.regions:
            return None  # re-exports what other modules export
        return frozenset(o for o, m in col.regions if not m and o != "*" and not o.startswith("_"))
    names: set[str] = set()
    for stmt, guarded in col.all_statements:
        if guarded:
            return None
        found = _all_update(stmt, names)
        if found is None:
            return None
        names = found
    return frozenset(names)


def _all_update(stmt: ast.stmt, names: set[str]) -> set[str] | None:
    """The forms of ``__all__`` pyright understands, with literal strings only."""
    if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
        listed = _strings(stmt.value)
        return None if listed is None else set(listed)
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add):
        listed = _strings(stmt.value)
        return None if listed is None else names | set(listed)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
        if len(call.args) != 1 or call.keywords:
            return None
        arg = call.args[0]
        if method == "extend":
            listed = _strings(arg)
            return None if listed is None else names | set(listed)
        if method in ("append", "remove") and isinstance(arg, ast.Constant):
            if isinstance(arg.value, str):
                return names | {arg.value} if method == "append" else names - {arg.value}
    return None


def _strings(node: ast.expr) -> list[str] | None:
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    out: list[str] = []
    for elt in node.elts:
        if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
            return None
        out.append(elt.value)
    return out


def pyright_comments(source: str) -> list[str]:
    """``# pyright:`` comments change how the file's declarations are inferred (strict list
    inference, for one), so every symbol of the file may look different to importers."""
    return [m.group(0).strip() for m in _PYRIGHT_COMMENT.finditer(source)]


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


_TYPING_MODULES = frozenset({"typing", "typing_extensions", "collections.abc", "abc", "enum",
                             "contextlib", "builtins"})  # fmt: skip
_SPECIAL_BASES = {
    "Generic": "generic",
    "Protocol": "protocol",
    "ABC": "abc",
    "NamedTuple": "namedtuple",
    "TypedDict": "typeddict",
    **dict.fromkeys(("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"), "enum"),
}
# The ABCs of typing and collections.abc, with their abstract members other than dunders: a
# subclass is plain but for those (removing one makes it abstract).
_PLAIN_ABCS = """
    Mapping MutableMapping Sequence Set AbstractSet Iterable Iterator Reversible Container
    Collection Sized Hashable Awaitable AsyncIterable AsyncIterator KeysView ValuesView ItemsView
    MappingView ContextManager AsyncContextManager AbstractContextManager
    AbstractAsyncContextManager Callable Buffer
"""
_KNOWN_ABCS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(_PLAIN_ABCS.split(), ()),
    "MutableSequence": ("insert",),
    "MutableSet": ("add", "discard"),
    "Coroutine": ("send", "throw"),
    "Generator": ("send", "throw"),
    "AsyncGenerator": ("asend", "athrow"),
}
BUILTIN_TYPES = frozenset(n for n, v in vars(builtins).items() if isinstance(v, type))


def external_kind(name: str, builtin: bool = False) -> frozenset[str]:
    """What a base class from outside the workspace makes of its subclasses: ``name`` is its
    dotted name as imported (or, ``builtin``, a name bound nowhere in the file)."""
    module, _, last = name.rpartition(".")
    if builtin:
        return frozenset() if name in BUILTIN_TYPES else frozenset({"unknown"})
    if module in _TYPING_MODULES and last in _SPECIAL_BASES:
        return frozenset({_SPECIAL_BASES[last]})
    if module in _TYPING_MODULES and last in _KNOWN_ABCS:
        return frozenset({"generic", *(f"abstract:{m}" for m in _KNOWN_ABCS[last])})
    if module in _TYPING_MODULES and last == "object":
        return frozenset()
    if module.partition(".")[0] in sys.stdlib_module_names:
        return frozenset({"abc"})  # no stdlib class synthesizes fields, but it may be abstract
    return frozenset({"unknown"})  # a library class: may synthesize members, be abstract

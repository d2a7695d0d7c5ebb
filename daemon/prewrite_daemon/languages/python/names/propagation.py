"""The fixpoint of ``NameGraph.narrow``: changed names spread through the regions that mention
them (the rules are in ``prewrite_daemon.languages.python.names.deps``).

Four kinds of work items, each done once per key:
- ``strong`` (file, name): the name's type may differ; files mentioning it are affected and the
  regions mentioning it change;
- ``weak`` (file, name): a class whose members changed, or an alias of it; only subclasses care;
- ``attr`` name: a member's type may differ; files spelling the attribute are affected;
- ``weak-attr`` name: a class attribute that may alias a class with changed members.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from prewrite_daemon.languages.base import PlanningBudgetExceeded
from prewrite_daemon.languages.python.names.imports import module_names
from prewrite_daemon.languages.python.names.symbol_changes import external_kind, is_dunder

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from prewrite_daemon.languages.python.names.summary import Region, Summary
    from prewrite_daemon.languages.python.names.symbol_changes import ModuleChange

STRONG, WEAK, ATTR, WEAK_ATTR = "strong", "weak", "attr", "weak-attr"
WEAK_MODULE = "weak-module"  # a module holding a weak name, used as an object: taken as strong
_FIELD_SENSITIVE = frozenset({"namedtuple", "typeddict", "decorated", "unknown"})
# A class of one of these kinds shows a member change wherever the class goes. "unknown" is
# here by default-keep: a class whose kind is not certain may be any of the others.
_WHOLE_CLASS = frozenset({"protocol", "enum", "autovariance", "unknown"})
# What a plain class may have and still show a member change only where the member is spelled.
_PLAIN = frozenset({"generic"})
_MAX_DEPTH = 16
_MAX_ALIAS_DOTS = 3  # past this, the whole alias is taken as changed (chains reach all of it)


class Propagation:
    """One run of the fixpoint over the graph's summaries (changed files: both versions)."""

    def __init__(
        self,
        summaries: Mapping[str, list[Summary]],
        index: Mapping[str, set[str]],
        by_module: Mapping[str, set[str]],
        scope: set[str],
        changed: set[str],
        protocols: Callable[[], frozenset[str] | None],
        hidden: Mapping[str, frozenset[str]] | None = None,
        deadline: float | None = None,
    ) -> None:
        """``hidden``: per patched file, tags whose regions ``name_renames`` has judged;
        ``deadline`` (``time.monotonic()``): past it, ``run`` raises ``PlanningBudgetExceeded``."""
        self._hidden = hidden or {}
        self._deadline = deadline
        self._summaries = summaries
        self._index = index
        self._by_module = by_module
        self._scope = scope
        self._changed = changed
        self._protocols = protocols  # asked once, when a member change needs it (None: not
        self._protocol_names: frozenset[str] | None = None  # known: every member may be one)
        self._protocols_asked = False
        self._infer_variance = any(s.infer_variance for v in summaries.values() for s in v)
        # a workspace __builtins__.pyi may type vars()/dir() otherwise: v: tags count as m:
        self._own_builtins = any(r.rsplit("/", 1)[-1] == "__builtins__.pyi" for r in summaries)
        self.strong: set[tuple[str, str]] = set()
        self.weak: set[tuple[str, str]] = set()
        self.attrs: set[str] = set()
        self.weak_attrs: set[str] = set()
        self.files: set[str] = set()
        self.fallback: dict[str, str] = {}
        self.touched: set[tuple[str, str]] = set()  # module-level regions hit in hidden files
        self._modules_hit: set[tuple[str, str]] = set()
        self._all_seeded: set[str] = set()
        self._queue: deque[tuple[str, str, str]] = deque()
        self._kinds: dict[tuple[str, str], frozenset[str]] = {}
        self._resolved: dict[str, frozenset[str] | None] = {}  # absolute name -> its kind
        self._with: dict[str, frozenset[str]] = {}  # tag -> files mentioning it (_files_with)
        self._names: dict[str, set[str]] = {}  # rel -> its dotted module names
        self._referenced: dict[tuple[str, str], bool] = {}
        self._changed_tags: dict[str, set[str]] = {}  # tag -> changed files mentioning it
        for rel in changed:
            for summary in summaries.get(rel, ()):
                for tag in summary.tags or ():
                    self._changed_tags.setdefault(tag, set()).add(rel)

    def seed(self, rel: str, change: ModuleChange) -> None:
        if "__all__" in change.names:
            self._all_seeded.add(rel)  # its star names were diffed: no fallback for it
        for name in sorted(change.names):
            self._queue.append((STRONG, rel, name))
        for m in change.members:
            flags = (m.data, m.nested_class, m.abstract)
            self.member(rel, m.cls, m.name, flags, m.added_or_removed)

    def changed_views(self) -> dict[str, list[Summary]]:
        return {rel: list(self._summaries.get(rel, ())) for rel in self._changed}

    def module_moved(
        self, names: set[str], files: set[str], exports: frozenset[str] | None
    ) -> None:
        """A module named ``names`` appeared or disappeared; ``files`` name it."""
        for rel in files:
            if rel not in self._scope and rel not in self._changed:
                continue
            self.files.add(rel)
            for summary in self._summaries.get(rel, ()):
                for tag, use in (summary.tags or {}).items():
                    kind, _, dotted = tag.partition(":")
                    if kind == "s" and dotted in names:  # its star import binds other names
                        if exports is None:
                            self.fallback.setdefault(rel, "star-imports a module added or deleted")
                        for name in sorted(exports or ()):
                            self._queue.append((STRONG, rel, name))
                    elif kind in ("k", "m") and any(
                        dotted == n or dotted.startswith(f"{n}.") for n in names
                    ):
                        for i in use.regions:
                            self._region(rel, summary.regions[i], STRONG)

    def run(self) -> None:
        steps = 0
        while self._queue:
            steps += 1
            if steps % 64 == 0:
                self.check_deadline()
                if self._scope <= self.files:
                    return  # every importer is reached already: nothing left to prune
            flavor, rel, name = self._queue.popleft()
            if flavor == STRONG:
                self._name(rel, name, STRONG, self.strong)
            elif flavor == WEAK:
                if (rel, name) not in self.strong:
                    self._name(rel, name, WEAK, self.weak)
            elif flavor == ATTR:
                if name not in self.attrs:
                    self.attrs.add(name)
                    self._hit(f"a:{name}", ATTR)
            elif name not in self.weak_attrs and name not in self.attrs:
                self.weak_attrs.add(name)
                self._hit(f"a:{name}", WEAK)

    def member(
        self, rel: str, cls: str, name: str, flags: tuple[bool, bool, bool], added_or_removed: bool
    ) -> None:
        """Member ``name`` of class ``cls`` may differ; flags: (data, nested class, abstract)."""
        heavy = self._heavy(rel, cls, name, flags, added_or_removed)
        self._queue.append((STRONG if heavy else WEAK, rel, cls))
        self._queue.append((ATTR, "", name))
        if name.startswith("__") and not name.endswith("__"):
            self._queue.append((ATTR, "", f"_{cls.lstrip('_')}{name}"))  # name-mangled spelling

    def _maybe_abstract(self, rel: str, cls: str, name: str) -> bool:
        return any(
            r.maybe_abstract
            for s in self._summaries.get(rel, ())
            for r in s.regions
            if r.owner == cls and r.member == name
        )

    def _name(self, rel: str, name: str, flavor: str, done: set[tuple[str, str]]) -> None:
        if (rel, name) in done:
            return
        done.add((rel, name))
        if flavor == STRONG and name == "__getattr__":
            self.fallback.setdefault(rel, "its module __getattr__ may differ")
        if flavor == STRONG and name == "__all__" and rel not in self._all_seeded:
            self.fallback.setdefault(rel, "its __all__ may differ")
        root = name.partition(".")[0]  # "alias.x": x of the module a name of rel denotes
        exported = any(s.exports is None or root in s.exports for s in self._summaries.get(rel, ()))
        parts = name.split(".")
        for module in self._module_names(rel):
            self._hit(f"k:{module}.{name}", flavor)
            for star in self._files_with(f"s:{module}") if exported else ():
                if star in self._scope:
                    if flavor == STRONG:
                        self.files.add(star)
                    self._queue.append((flavor, star, name))
            for i in range(len(parts)):  # the module, and the modules a dotted name goes through
                obj = ".".join([module, *parts[:i]])
                self._module_hit(obj, ".".join(parts[i:]), flavor)
        self._hit_regions(rel, f"l:{root}", flavor)

    def _module_hit(self, module: str, name: str, flavor: str) -> None:
        """``name`` of ``module`` (a module, or a module's alias of one) differs: so does the
        module object. An import binding of it (``import a.b as m``) passes it on as
        ``m.name``; any other use of it as a value (``getattr(m, …)``, ``return m``) depends
        on all of it."""
        first = (module, flavor) not in self._modules_hit
        self._modules_hit.add((module, flavor))
        for tag in (f"m:{module}", *([f"v:{module}"] if self._own_builtins else [])):
            self._module_users(tag, module, name, flavor, first)

    def _module_users(self, tag: str, module: str, name: str, flavor: str, first: bool) -> None:
        for rel in self._files_with(tag):
            if rel not in self._scope and rel not in self._changed:
                continue
            if tag in self._hidden.get(rel, ()):
                continue
            for summary in self._summaries.get(rel, ()):
                use = summary.tags.get(tag) if summary.tags else None
                if use is None:
                    continue
                if first and use.file and flavor == STRONG:
                    self.files.add(rel)
                for i in use.regions:
                    region = summary.regions[i]
                    targets = [t for t in region.alias_of if _within(module, t)]
                    for t in targets if self._is_referenced(rel, region.owner) else ():
                        dotted = f"{region.owner}{module[len(t) :]}.{name}"
                        if dotted.count(".") > _MAX_ALIAS_DOTS:  # aliases in a cycle: stop
                            dotted = region.owner
                        self._queue.append((flavor, rel, dotted))
                    if not targets and first:
                        self._region(rel, region, STRONG if flavor == STRONG else WEAK_MODULE)

    def _module_names(self, rel: str) -> set[str]:
        if rel not in self._names:
            self._names[rel] = module_names(rel)
        return self._names[rel]

    def _is_referenced(self, rel: str, name: str) -> bool:
        """Whether any file can reach ``name`` of ``rel`` through ``rel``: a chain, a use of it
        or of the module as a value, a star import. (The file's own uses resolve past its
        imports already.)"""
        key = (rel, name)
        if key not in self._referenced:
            tags = [f"{k}:{m}.{name}" for m in self._module_names(rel) for k in ("k", "m")]
            tags += [f"{k}:{m}" for m in self._module_names(rel) for k in ("s", "m")]
            self._referenced[key] = any(self._files_with(t) for t in tags)
        return self._referenced[key]

    def _files_with(self, tag: str) -> frozenset[str]:
        """Files mentioning ``tag`` (the changed ones by either version); the index does not
        move during a run, so each tag is looked up once."""
        found = self._with.get(tag)
        if found is None:
            mine = {r for r in self._index.get(tag, ()) if r not in self._changed}
            found = self._with[tag] = frozenset(mine | self._changed_tags.get(tag, set()))
        return found

    def _hit(self, tag: str, flavor: str) -> None:
        for rel in self._files_with(tag):
            if rel in self._scope or rel in self._changed:
                self._hit_regions(rel, tag, flavor)

    def _hit_regions(self, rel: str, tag: str, flavor: str) -> None:
        if tag in self._hidden.get(rel, ()):
            return
        for summary in self._summaries.get(rel, ()):
            use = summary.tags.get(tag) if summary.tags else None
            if use is None:
                continue
            if use.file and flavor in (STRONG, ATTR):
                self.files.add(rel)
            if flavor == WEAK and tag in summary.inner_bases:
                # a class in a function or another class may subclass it: its overrides are
                # checked here, and no rule models what kind of class it is (default-keep)
                self.files.add(rel)
                flavor = STRONG
            for i in use.regions:
                self._region(rel, summary.regions[i], flavor)

    def _region(self, rel: str, region: Region, flavor: str) -> None:
        if rel in self._hidden and not region.member:
            self.touched.add((rel, region.owner))  # (a renamed function's type may differ)
        if flavor == WEAK:  # anything mentioning the class may be (or return) an alias of it
            if region.kind == "class":
                self._queue.append((WEAK, rel, region.owner))
                self.files.add(rel)  # a subclass: its overrides are checked against the base
                if self.kind(rel, region.owner) - _PLAIN:
                    # an enum's values, a dataclass's fields, abstractness: a special subclass
                    # may show what it inherits wherever it goes
                    self._queue.append((STRONG, rel, region.owner))
            elif region.kind == "member":
                self._queue.append((WEAK_ATTR, "", region.member))
            else:
                self._queue.append((WEAK, rel, region.owner))
        elif region.kind == "member":
            flags = (region.data, region.nested_class, region.abstract)
            self.member(rel, region.owner, region.member, flags, False)
        else:
            self._queue.append((STRONG, rel, region.owner))

    def _heavy(
        self, rel: str, cls: str, name: str, flags: tuple[bool, bool, bool], moved: bool
    ) -> bool:
        """Whether a member change is a change of the whole class (see the rules)."""
        data, nested, abstract = flags
        if is_dunder(name) or nested or abstract:
            return True
        if not self._protocols_asked:
            self._protocol_names, self._protocols_asked = self._protocols(), True
        if self._protocol_names is None or name in self._protocol_names:
            return True
        kind = self.kind(rel, cls)
        if kind - _PLAIN and self._maybe_abstract(rel, cls, name):
            return True  # a decorator that may be abstractmethod: shows where it is instantiated
        if kind & _WHOLE_CLASS or ("generic" in kind and self._infer_variance):
            return True
        if moved and (f"abstract:{name}" in kind or "abc" in kind):
            return True  # adding or removing an implementation of an abstract member
        return bool(kind & _FIELD_SENSITIVE) and (data or moved)

    def kind(self, rel: str, cls: str, depth: int = 0) -> frozenset[str]:
        """The class's own and inherited traits: protocol, enum, namedtuple, typeddict, abc,
        decorated, generic, autovariance, unknown (a base outside the workspace)."""
        key = (rel, cls)
        if key in self._kinds:
            return self._kinds[key]
        self._kinds[key] = frozenset({"unknown"})  # a cycle of bases: unknown
        flags: set[str] = set()
        for summary in self._summaries.get(rel, ()):
            info = summary.classes.get(cls) if summary.classes else None
            if info is None:
                flags.add("unknown")
                continue
            own = (("decorated", info.decorated), ("protocol", info.protocol),
                   ("autovariance", info.type_params), ("generic", info.subscripted))  # fmt: skip
            flags |= {f for f, on in own if on}
            for refs in info.bases:
                inherited = self._base_kind(rel, refs, depth + 1) - {"autovariance"}
                flags |= {"abc" if f == "protocol" else f for f in inherited}
        self._kinds[key] = frozenset(flags)
        return self._kinds[key]

    def _base_kind(self, rel: str, refs: tuple[str, ...], depth: int) -> frozenset[str]:
        if depth > _MAX_DEPTH or not refs or "?" in refs:
            return frozenset({"unknown"})
        out: set[str] = set()
        for ref in refs:
            tag, _, value = ref.partition(":")
            if tag == "b":
                out |= external_kind(value, builtin=True)
            elif tag == "l":
                classes = [s.classes for s in self._summaries.get(rel, ()) if s.classes]
                if "." not in value and any(value in c for c in classes):
                    out |= self.kind(rel, value, depth)
                else:
                    out.add("unknown")
            else:
                found = self._resolve(value, depth)
                if found is not None:
                    out |= found
                elif tag == "k" or not self._in_workspace(value):
                    out |= external_kind(value)  # an import from outside the workspace
                else:  # a star import of a workspace module that binds no such name
                    out.add("unknown")
        return frozenset(out)

    def _in_workspace(self, absolute: str) -> bool:
        parts = absolute.split(".")
        return any(self._by_module.get(".".join(parts[:i])) for i in range(1, len(parts)))

    def _resolve(self, absolute: str, depth: int) -> frozenset[str] | None:
        """The kind of the workspace class ``absolute`` names; None if no workspace module
        binds it (through classes, imports and star imports)."""
        if depth > _MAX_DEPTH:
            return frozenset({"unknown"})
        if absolute in self._resolved:
            return self._resolved[absolute]
        self._resolved[absolute] = frozenset({"unknown"})  # a cycle of aliases: unknown
        if len(self._resolved) % 64 == 0:
            self.check_deadline()
        found = self._resolve_uncached(absolute, depth)
        self._resolved[absolute] = found
        return found

    def check_deadline(self) -> None:
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise PlanningBudgetExceeded("narrowing ran past its budget")

    def _resolve_uncached(self, absolute: str, depth: int) -> frozenset[str] | None:
        """The longest prefix of ``absolute`` that is a workspace module decides (pyright
        resolves ``a.b.C`` in module ``a.b`` when there is one); a shorter prefix only adds
        "unknown" where that package binds the next part itself (a variable shadowing its
        submodule). Going on past the module would loop back through the package's own alias
        of it (``from .b import *`` binds ``b`` in ``a/__init__.py``)."""
        parts = absolute.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module, name, rest = ".".join(parts[:i]), parts[i], parts[i + 1 :]
            if not self._by_module.get(module):
                continue
            found: set[str] | None = None
            for rel in self._by_module.get(module, ()):
                for summary in self._summaries.get(rel, ()):
                    kind = self._resolve_in(rel, summary, name, rest, depth)
                    if kind is not None:
                        found = (found or set[str]()) | kind
            if self._shadowed(parts[:i]):
                found = (found or set[str]()) | {"unknown"}
            return None if found is None else frozenset(found)
        return None

    def _shadowed(self, module: list[str]) -> bool:
        """Whether a package on the way to ``module`` binds the next name itself (not by
        an import): a variable or class that pyright may take instead of the submodule."""
        for j in range(1, len(module)):
            package, name = ".".join(module[:j]), module[j]
            for rel in self._by_module.get(package, ()):
                for summary in self._summaries.get(rel, ()):
                    if any(r.owner == name and not r.member and not r.alias_of
                           for r in summary.regions):  # fmt: skip
                        return True
        return False

    def _resolve_in(
        self, rel: str, summary: Summary, name: str, rest: list[str], depth: int
    ) -> frozenset[str] | None:
        tail = "".join(f".{p}" for p in rest)
        if summary.classes and name in summary.classes:
            return self.kind(rel, name, depth + 1) if not rest else frozenset({"unknown"})
        if summary.aliases and name in summary.aliases:
            out: set[str] = set()
            for target in summary.aliases[name]:
                found = self._resolve(target + tail, depth + 1)
                out |= found if found is not None else external_kind(target + tail)
            return frozenset(out)
        stars = [self._resolve(f"{s}.{name}{tail}", depth + 1) for s in summary.stars]
        if any(k is not None for k in stars):
            return frozenset[str]().union(*(k for k in stars if k is not None))
        if any(r.owner == name and not r.member for r in summary.regions):
            return frozenset({"unknown"})  # a variable: an alias we do not follow
        return None


def _within(module: str, target: str) -> bool:
    return module == target or module.startswith(f"{target}.")

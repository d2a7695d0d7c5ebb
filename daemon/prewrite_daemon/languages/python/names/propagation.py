"""The fixpoint of ``NameGraph.narrow``: changed names spread through the regions that mention
them (the rules are in ``prewrite_daemon.languages.python.names.deps``).

Four kinds of work items, each done once per key:
- ``strong`` (file, name): the name's type may differ; files mentioning it are affected and the
  regions mentioning it change;
- ``weak`` (file, name): a class whose members changed, or an alias of it; only subclasses care;
- ``attr`` name: a member's type may differ; files spelling the attribute are affected;
- ``weak-attr`` name: a class attribute that may alias a class with changed members.

The run stops as soon as its answer can only be every importer (``scope``): each one reached, or
an importer of a file that falls back (``narrow`` adds those). On Django, a change of the hub
``utils.text.capfirst`` reaches the module ``__getattr__`` of ``db/models/enums.py`` after about
3,500 steps; the rest of the fixpoint (28,000 strong names, 2 to 3 s of CPU) could prune nothing.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from prewrite_daemon.languages.base import PlanningBudgetExceeded
from prewrite_daemon.languages.python.names.class_kinds import ClassKinds
from prewrite_daemon.languages.python.names.imports import module_names

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from prewrite_daemon.languages.python.names.summary import Region, Summary
    from prewrite_daemon.languages.python.names.symbol_changes import ModuleChange

STRONG, WEAK, ATTR, WEAK_ATTR = "strong", "weak", "attr", "weak-attr"
WEAK_MODULE = "weak-module"  # a module holding a weak name, used as an object: taken as strong
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
        importers: Callable[[set[str]], set[str]] | None = None,
    ) -> None:
        """``hidden``: per patched file, tags whose regions ``names.renames`` has judged;
        ``deadline`` (``time.monotonic()``): past it, ``run`` raises ``PlanningBudgetExceeded``;
        ``importers``: the transitive importers of files (what ``narrow`` adds for a file that
        falls back), which lets ``run`` stop once they and the files reached cover ``scope``."""
        self._hidden = hidden or {}
        self._deadline = deadline
        self._importers = importers
        self._expanded: set[str] = set()  # fallback files whose importers are in _covered
        self._covered: set[str] = set()
        self._summaries = summaries
        self._index = index
        self._by_module = by_module
        self._scope = scope
        self._changed = changed
        self._classes = ClassKinds(summaries, by_module, protocols, self.check_deadline)
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
            if steps % 64 == 0:
                self.check_deadline()
                if self._everything_reached():
                    return  # the answer is every importer already: nothing left to prune
            steps += 1
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

    def _everything_reached(self) -> bool:
        """Whether each file in scope is reached, or imports (at any depth) a file that falls
        back: ``narrow`` answers those importers whatever the rest of the run finds (a hub whose
        change reaches a module ``__getattr__`` ends here, not after every name it spreads to)."""
        if self._importers is not None and self.fallback.keys() - self._expanded:
            fresh = set(self.fallback.keys() - self._expanded)
            self._expanded |= fresh
            self._covered |= fresh | self._importers(fresh)
        return all(f in self.files or f in self._covered for f in self._scope)

    def check_deadline(self) -> None:
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise PlanningBudgetExceeded("narrowing ran past its budget")

    def member(
        self, rel: str, cls: str, name: str, flags: tuple[bool, bool, bool], added_or_removed: bool
    ) -> None:
        """Member ``name`` of class ``cls`` may differ; flags: (data, nested class, abstract)."""
        heavy = self._classes.whole_class(rel, cls, name, flags, added_or_removed)
        self._queue.append((STRONG if heavy else WEAK, rel, cls))
        self._queue.append((ATTR, "", name))
        if name.startswith("__") and not name.endswith("__"):
            self._queue.append((ATTR, "", f"_{cls.lstrip('_')}{name}"))  # name-mangled spelling

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
                if self._classes.not_plain(rel, region.owner):
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


def _within(module: str, target: str) -> bool:
    return module == target or module.startswith(f"{target}.")

"""Which files a TypeScript project's root files are, decided as ``tsc -p`` decides.

A verdict counts only the files the project's CI (``tsc -p``) would check from its configuration,
so the rules here are TypeScript's own (``getFileNamesFromConfigSpecs`` and ``matchFiles`` in TS
5.9), with its regular-expression fragments ported as written:

- ``files`` entries are included as named; ``include`` specs (default ``**/*`` when neither is set,
  none when only ``files`` is) match by wildcard, minus ``exclude`` (default: ``outDir`` and
  ``declarationDir``);
- ``*`` and ``?`` stay within one component, ``**/`` crosses any depth; a wildcard never matches a
  name starting with ``.`` or a ``node_modules``/``bower_components``/``jspm_packages`` directory,
  and ``*`` never matches the dot of ``.min.js``; a spec whose last component has no ``.``, ``*``
  or ``?`` names a directory (everything below it);
- only supported extensions count (TS always, JS with ``allowJs``), and a wildcard match loses to
  a higher-priority sibling (``a.d.ts`` and ``a.js`` are not roots when ``a.ts`` is): that is the
  one rule needing the file system, asked through ``exists``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path

    from prewrite_daemon.languages.typescript.tsconfig import TsConfig

TS_SUFFIXES = (".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts")
JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")
SOURCE_SUFFIXES = TS_SUFFIXES + JS_SUFFIXES
# changeExtension strips the longest of these (TypeScript's extensionsToRemove).
_REMOVABLE = (".d.ts", ".d.mts", ".d.cts", ".mjs", ".mts", ".cjs", ".cts")
_REMOVABLE_SHORT = (".ts", ".js", ".tsx", ".jsx", ".json")
# Within a group an earlier extension wins over a later one (allSupportedExtensions).
_TS_GROUPS = ((".ts", ".tsx", ".d.ts"), (".cts", ".d.cts"), (".mts", ".d.mts"))
_ALL_GROUPS = (
    (".ts", ".tsx", ".d.ts", ".js", ".jsx"),
    (".cts", ".d.cts", ".cjs"),
    (".mts", ".d.mts", ".mjs"),
)

Usage = Literal["files", "directories", "exclude"]
_IMPLICIT_EXCLUDE = "(?!(?:node_modules|bower_components|jspm_packages)(?:/|$))"
_INCLUDE_STARSTAR = f"(?:/{_IMPLICIT_EXCLUDE}[^/.][^/]*)*?"
_FRAGMENTS: dict[Usage, tuple[str, str]] = {  # usage -> (``*``, ``**``)
    "files": ("(?:[^./]|(?:\\.(?!min\\.js$))?)*", _INCLUDE_STARSTAR),
    "directories": ("[^/]*", _INCLUDE_STARSTAR),
    "exclude": ("[^/]*", "(?:/.+?)?"),
}
_RESERVED = re.compile(r"[^\w\s/]", re.ASCII)


def is_ts_source(rel: str, allow_js: bool) -> bool:
    """A file ``tsc`` compiles: TypeScript always, JavaScript only with ``allowJs``."""
    return rel.endswith(TS_SUFFIXES) or (allow_js and rel.endswith(JS_SUFFIXES))


def _replace_wildcards(component: str, star: str) -> str:
    def replace(match: re.Match[str]) -> str:
        char = match.group(0)
        return star if char == "*" else "[^/]" if char == "?" else "\\" + char

    return _RESERVED.sub(replace, component)


def _is_implicit_glob(component: str) -> bool:
    return not any(c in component for c in ".*?")


def spec_pattern(spec: str, usage: Usage) -> str | None:
    """TypeScript's ``getSubPatternFromSpec`` for an absolute spec; None: it matches nothing."""
    star, starstar = _FRAGMENTS[usage]
    components = spec.rstrip("/").split("/")
    if usage != "exclude" and components[-1] == "**":
        return None  # tsc rejects a trailing "**" in include
    if _is_implicit_glob(components[-1]):
        components += ["**", "*"]
    pattern = ""
    optional = 0
    for i, component in enumerate(components):
        if component == "**":
            pattern += starstar
            continue
        if usage == "directories":
            pattern += "(?:"
            optional += 1
        if i:
            pattern += "/"
        if usage == "exclude":
            pattern += _replace_wildcards(component, star)
            continue
        lead = ""
        rest = component
        if component.startswith("*"):  # a leading wildcard never matches a dot file
            lead, rest = f"(?:[^./]{star})?", component[1:]
        elif component.startswith("?"):
            lead, rest = "[^./]", component[1:]
        written = lead + _replace_wildcards(rest, star)
        if written != component:
            pattern += _IMPLICIT_EXCLUDE
        pattern += written
    return pattern + ")?" * optional


def _matcher(specs: Iterable[str], usage: Usage) -> re.Pattern[str] | None:
    patterns = [p for s in specs if s and (p := spec_pattern(s, usage)) is not None]
    if not patterns:
        return None
    terminator = "(?:$|/)" if usage == "exclude" else "$"
    return re.compile("^(?:" + "|".join(f"(?:{p})" for p in patterns) + ")" + terminator)


def _strip_extension(path: str) -> str:
    for suffix in _REMOVABLE + _REMOVABLE_SHORT:
        if path.endswith(suffix):
            return path.removesuffix(suffix)
    return path


class TsScope:
    """The root files of one TypeScript project under ``root`` (``None`` config: an empty one)."""

    def __init__(
        self,
        config: TsConfig | None,
        root: Path,
        exists: Callable[[str], bool] | None = None,
    ) -> None:
        self._root = root.as_posix()
        self._exists: Callable[[str], bool] = exists or (lambda rel: (root / rel).is_file())
        options = config.options if config else {}
        self._allow_js = config.allow_js if config else False
        self._json = options.get("resolveJsonModule") is True
        files = config.files if config else None
        include = config.include if config else None
        if include is None:
            include = () if files is not None else (f"{self._root}/**/*",)
        exclude = config.exclude if config else None
        if exclude is None:
            written = (options.get("outDir"), options.get("declarationDir"))
            exclude = tuple(d for d in written if isinstance(d, str) and d)
        self._literal = frozenset(files or ())
        self._include = _matcher(include, "files")
        self._include_dirs = _matcher(include, "directories")
        self._include_json = _matcher([s for s in include if s.endswith(".json")], "files")
        self._exclude = _matcher(exclude, "exclude")
        self._groups = _ALL_GROUPS if self._allow_js else _TS_GROUPS

    def covers(self, rel: str) -> bool:
        """Whether ``tsc -p`` takes the root-relative file ``rel`` as one of its root files."""
        path = f"{self._root}/{rel}"
        if path in self._literal:
            return is_ts_source(rel, self._allow_js) or rel.endswith(".json")
        if not self._matched(path):
            return False
        return not any(
            s in self._literal or (self._exists(s[len(self._root) + 1 :]) and self._matched(s))
            for s in self._preferred_siblings(path)
        )

    def _matched(self, path: str) -> bool:
        """Found by the wildcard walk: a supported file, included, in included directories."""
        if self._exclude is not None and self._exclude.match(path):
            return False
        if path.endswith(".json"):  # only with resolveJsonModule, only by a spec naming .json
            included = self._include_json if self._json else None
        else:
            included = self._include if is_ts_source(path, self._allow_js) else None
        if included is None or not included.match(path):
            return False
        if self._include_dirs is None:
            return True
        # The walk prunes directories below the root the include specs cannot reach.
        parts = path[len(self._root) + 1 :].split("/")[:-1]
        return all(
            self._include_dirs.match("/".join([self._root, *parts[: i + 1]]))
            for i in range(len(parts))
        )

    def _preferred_siblings(self, path: str) -> list[str]:
        """Siblings that, if roots, make tsc drop ``path`` (hasFileWithHigherPriorityExtension)."""
        group = next((g for g in self._groups if path.endswith(g)), None)
        if group is None:
            return []
        stem = _strip_extension(path)
        siblings: list[str] = []
        for ext in group:
            if path.endswith(ext) and not (ext == ".ts" and path.endswith(".d.ts")):
                break
            if ext == ".d.ts" and path.endswith((".js", ".jsx")):
                continue  # tsc's legacy: a .js and its .d.ts are both roots
            siblings.append(stem + ext)
        return siblings

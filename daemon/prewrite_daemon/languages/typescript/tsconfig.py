"""The project's ``tsconfig.json`` (or ``jsconfig.json``) merged along ``extends`` as tsc 5 does.

The scope (which files the project checks) and the import graph (how a specifier resolves) both
need the *effective* configuration, and a base config is as much part of it as the root one: a
patch to ``tsconfig.base.json`` can change both. So the chain is followed the way TypeScript's
``parseJsonConfigFileContent`` follows it:

- ``compilerOptions`` are merged shallowly, the extending config winning; ``extends`` may be an
  array, later entries winning over earlier ones;
- ``files``, ``include`` and ``exclude`` come from the nearest config that sets them;
- every relative path is resolved against the config that wrote it (path-valued options, the
  specs, ``paths`` against ``baseUrl`` or the config that set ``paths``); a leading
  ``${configDir}`` (TS 5.5) names the directory of the root config instead.

Files inside the root are read through the caller's reader (it may show a patch's candidate text);
base configs outside the root, or in ``node_modules`` (which no patch touches), are read from disk
as every repository file is (``prewrite.files``): a FIFO, a device or a huge file anywhere in the
chain is ``UnreadableFile``, refused unread. A config that cannot be parsed is reported in
``error``, never raised: the checker reports it too, and the caller decides what a broken
configuration means; for one outside the root the error never quotes its text.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from prewrite.files import read_text
from prewrite_daemon.languages import jsonc

if TYPE_CHECKING:
    from collections.abc import Callable

CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
CONFIG_DIR = "${configDir}"
SPEC_KEYS = ("files", "include", "exclude")
_PATH_OPTIONS = ("baseUrl", "rootDir", "outDir", "outFile", "declarationDir", "tsBuildInfoFile")
_PATH_LIST_OPTIONS = ("rootDirs", "typeRoots")
# What tsserver assumes for a jsconfig.json before reading it (getDefaultCompilerOptions).
_JSCONFIG_DEFAULTS: dict[str, Any] = {
    "allowJs": True,
    "maxNodeModuleJsDepth": 2,
    "allowSyntheticDefaultImports": True,
    "skipLibCheck": True,
    "noEmit": True,
}


@dataclass(frozen=True)
class TsConfig:
    """The effective configuration; every path in it is absolute (POSIX strings)."""

    path: Path  # the root config file (tsconfig.json or jsconfig.json)
    options: dict[str, Any]  # merged compilerOptions, path-valued ones absolute
    include: tuple[str, ...] | None  # None: not set anywhere in the chain
    exclude: tuple[str, ...] | None
    files: tuple[str, ...] | None
    base_url: str | None
    paths: dict[str, tuple[str, ...]]  # pattern -> absolute target patterns
    paths_base: str | None  # the directory the written ``paths`` targets are relative to
    allow_js: bool
    check_js: bool
    chain: tuple[Path, ...]  # every file read (configs, package.json), in order: fingerprint these
    references: tuple[Path, ...]  # referenced projects' config files
    error: str | None = None

    @property
    def directory(self) -> str:
        return self.path.parent.as_posix()


@dataclass
class _Layer:
    """One config with its bases already merged in, before ``${configDir}`` is substituted."""

    options: dict[str, Any]
    specs: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    raw: dict[str, Any] = field(default_factory=dict[str, Any])


def load_tsconfig(root: Path, read: Callable[[str], str | None]) -> TsConfig | None:
    """The root's ``tsconfig.json``, else its ``jsconfig.json``, merged; None without either."""
    for name in CONFIG_NAMES:
        if read(name) is not None:
            return _Loader(root, read).load(root / name, jsconfig=name == "jsconfig.json")
    return None


def _normal(directory: str, value: str) -> str:
    return posixpath.normpath(posixpath.join(directory, value))


def _resolve(directory: str, value: str) -> str:
    """A path written in a config in ``directory``; ``${configDir}`` paths wait for the root's."""
    return value if value.startswith(CONFIG_DIR) else _normal(directory, value)


def _substitute(value: str, config_dir: str) -> str:
    if value.startswith(CONFIG_DIR):
        return _normal(config_dir, "./" + value.removeprefix(CONFIG_DIR))
    return value


def _strings(value: object) -> list[str] | None:
    if not isinstance(value, list):
        return None
    return [v for v in cast("list[object]", value) if isinstance(v, str)]


def _split_package(spec: str) -> tuple[str, str]:
    """``@scope/name/sub`` -> (``@scope/name``, ``sub``); ``name`` -> (``name``, ``""``)."""
    parts = spec.split("/")
    count = 2 if spec.startswith("@") else 1
    return "/".join(parts[:count]), "/".join(parts[count:])


class _Loader:
    def __init__(self, root: Path, read: Callable[[str], str | None]) -> None:
        self._root = root.as_posix()
        self._read = read
        self._texts: dict[str, str | None] = {}
        self.chain: list[Path] = []
        self.errors: list[str] = []

    def load(self, path: Path, jsconfig: bool) -> TsConfig:
        layer = self._layer(path.as_posix(), ()) or _Layer({})
        config_dir = path.parent.as_posix()
        options = {**(_JSCONFIG_DEFAULTS if jsconfig else {}), **layer.options}
        for key in _PATH_OPTIONS:
            if isinstance(options.get(key), str):
                options[key] = _substitute(options[key], config_dir)
        for key in _PATH_LIST_OPTIONS:
            if (values := _strings(options.get(key))) is not None:
                options[key] = [_substitute(v, config_dir) for v in values]
        specs = {k: tuple(_substitute(v, config_dir) for v in vs) for k, vs in layer.specs.items()}
        base_url = options.get("baseUrl") if isinstance(options.get("baseUrl"), str) else None
        paths_base = base_url or options.get("pathsBasePath")
        paths: dict[str, tuple[str, ...]] = {}
        written = options.get("paths")
        if isinstance(written, dict) and isinstance(paths_base, str):
            for pattern, targets in cast("dict[str, object]", written).items():
                paths[pattern] = tuple(
                    _substitute(t, config_dir)
                    if t.startswith(CONFIG_DIR)
                    else _normal(paths_base, t)
                    for t in _strings(targets) or []
                )
        check_js = options.get("checkJs") is True
        allow_js = options["allowJs"] is True if "allowJs" in options else check_js
        return TsConfig(
            path=path,
            options=options,
            include=specs.get("include"),
            exclude=specs.get("exclude"),
            files=specs.get("files"),
            base_url=base_url,
            paths=paths,
            paths_base=paths_base if isinstance(paths_base, str) else None,
            allow_js=allow_js,
            check_js=check_js,
            chain=tuple(self.chain),
            references=self._references(layer.raw, config_dir),
            error="; ".join(self.errors) or None,
        )

    def _text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = self._read_uncached(path)
        return self._texts[path]

    def _read_uncached(self, path: str) -> str | None:
        rel = posixpath.relpath(path, self._root)
        if not rel.startswith("../") and "node_modules" not in rel.split("/"):
            return self._read(rel)
        if os.path.isdir(path):
            return None  # probed as a file: TypeScript tries the next candidate
        try:
            return read_text(path)
        except UnicodeDecodeError:
            return None

    def _json(self, path: str) -> dict[str, Any] | None:
        text = self._text(path)
        if text is None:
            return None
        try:
            data: object = jsonc.loads(text) if text.strip() else {}
        except ValueError as exc:
            inside = not posixpath.relpath(path, self._root).startswith("../")
            # the parser's message quotes the text: never the text of a file outside the root
            self.errors.append(f"{path}: {exc}" if inside else f"{path}: does not parse")
            return None
        if not isinstance(data, dict):
            self.errors.append(f"{path}: not a JSON object")
            return None
        return cast("dict[str, Any]", data)

    def _layer(self, path: str, stack: tuple[str, ...]) -> _Layer | None:
        if self._text(path) is None:
            self.errors.append(f"{path}: cannot be read")
            return None
        self.chain.append(Path(path))
        raw = self._json(path)
        if raw is None:
            return None
        directory = posixpath.dirname(path)
        own = self._own_options(raw.get("compilerOptions"), directory)
        own_specs = {
            k: [_resolve(directory, v) for v in specs]
            for k in SPEC_KEYS
            if (specs := _strings(raw.get(k))) is not None
        }
        merged = _Layer({}, {}, raw)
        written = raw.get("extends")
        bases = [written] if isinstance(written, str) else _strings(written) or []
        for spec in bases:
            base_path = self._extends_path(spec, directory)
            if base_path is None:
                self.errors.append(f"{path}: extends {spec!r} not found")
            elif base_path in (*stack, path):
                self.errors.append(f"{path}: circular extends through {base_path}")
            elif base := self._layer(base_path, (*stack, path)):
                merged.options.update(base.options)
                merged.specs.update({k: v for k, v in base.specs.items() if k not in own_specs})
        merged.options.update(own)
        merged.specs.update(own_specs)
        return merged

    @staticmethod
    def _own_options(value: object, directory: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            return {}
        options = dict(cast("dict[str, Any]", value))
        for key in _PATH_OPTIONS:
            if isinstance(options.get(key), str):
                options[key] = _resolve(directory, options[key])
        for key in _PATH_LIST_OPTIONS:
            if (values := _strings(options.get(key))) is not None:
                options[key] = [_resolve(directory, v) for v in values]
        if "paths" in options:
            options["pathsBasePath"] = directory  # as tsc records it: targets are relative here
        return options

    def _extends_path(self, spec: str, directory: str) -> str | None:
        """TypeScript's ``getExtendsConfigPath``: a path, else a package in ``node_modules``."""
        if spec.startswith(("/", "./", "../")):
            path = _normal(directory, spec)
            if self._text(path) is None and not path.endswith(".json"):
                path += ".json"
            return path
        if not spec:
            return None
        name, sub = _split_package(spec)
        current = directory
        while True:
            found = self._in_package(_normal(current, f"node_modules/{name}"), sub)
            if found is not None:
                return found
            parent = posixpath.dirname(current)
            if parent == current:
                return None
            current = parent

    def _in_package(self, package: str, sub: str) -> str | None:
        candidate = _normal(package, sub) if sub else package
        as_file = candidate if candidate.endswith(".json") else candidate + ".json"
        if self._text(as_file) is not None:
            return as_file
        manifest_path = candidate + "/package.json"
        manifest = self._json(manifest_path) or {}
        target = manifest.get("tsconfig")
        if isinstance(target, str):
            self.chain.append(Path(manifest_path))
            for path in (_normal(candidate, target), _normal(candidate, target) + ".json"):
                if self._text(path) is not None:
                    return path
        index = candidate + "/tsconfig.json"
        return index if self._text(index) is not None else None

    @staticmethod
    def _references(raw: dict[str, Any], directory: str) -> tuple[Path, ...]:
        found: list[Path] = []
        written = raw.get("references")
        for entry in cast("list[object]", written) if isinstance(written, list) else []:
            target = cast("dict[str, Any]", entry).get("path") if isinstance(entry, dict) else None
            if isinstance(target, str):
                path = _normal(directory, target)
                found.append(Path(path if path.endswith(".json") else path + "/tsconfig.json"))
        return tuple(found)

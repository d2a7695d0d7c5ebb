"""Which files the project's checker configuration covers, decided as the ``pyright`` CLI does.

The language server checks every open document whatever ``include``, ``exclude`` and ``ignore``
say, but the project's CI (the CLI) reports only files under ``include``, not under ``exclude``
and not under ``ignore``. A verdict counts exactly those files, so a patch to a file the project
never checks cannot be answered red. The patterns follow pyright's file specs: paths relative to
the configuration's directory, ``**`` any number of directories (not starting with a dot),
``*`` and ``?`` within one path component; a directory covers everything below it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from pathlib import Path

DEFAULT_EXCLUDES = ("**/node_modules", "**/__pycache__", "**/.*")
_ENV_MARKERS = (("bin", "activate"), ("Scripts", "activate"), ("pyvenv.cfg",), ("conda-meta",))
_RESERVED = re.compile(r"[^\w\s/]", re.ASCII)


def spec_regex(root: Path, spec: str) -> re.Pattern[str]:
    """pyright's regular expression for one file spec under ``root``."""
    absolute = os.path.normpath(os.path.join(root, spec))
    pattern = ""
    for i, component in enumerate(absolute.split("/")):
        if component == "**":
            pattern += "(/[^/][^/]*)*?"
            continue
        escaped = _RESERVED.sub(_escape, component)
        pattern += escaped if i == 0 else "/" + escaped
    return re.compile(f"^({pattern})($|/)")


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    if char == "*":
        return "[^/]*"
    if char == "?":
        return "[^/]"
    return re.escape(char)


def _specs(settings: dict[str, Any], key: str) -> list[str] | None:
    value = settings.get(key)
    if not isinstance(value, list):
        return None
    return [v for v in cast("list[object]", value) if isinstance(v, str)]


@dataclass(frozen=True)
class CheckerScope:
    """The include/exclude/ignore of one configuration, for files under ``root``."""

    root: Path
    include: tuple[re.Pattern[str], ...]
    exclude: tuple[re.Pattern[str], ...]
    ignore: tuple[re.Pattern[str], ...]
    auto_exclude_venvs: bool

    @classmethod
    def from_settings(cls, settings: dict[str, Any], root: Path) -> CheckerScope:
        include = _specs(settings, "include") or ["."]
        exclude = _specs(settings, "exclude")
        ignore = _specs(settings, "ignore") or []
        return cls(
            root,
            tuple(spec_regex(root, s) for s in include),
            tuple(spec_regex(root, s) for s in (exclude or DEFAULT_EXCLUDES)),
            tuple(spec_regex(root, s) for s in ignore),
            auto_exclude_venvs=exclude is None,
        )

    def covers(self, rel: str) -> bool:
        """Whether the CLI would report diagnostics of the root-relative file ``rel``."""
        path = f"{self.root}/{rel}"
        if not any(r.match(path) for r in self.include):
            return False
        if any(r.match(path) for r in self.exclude + self.ignore):
            return False
        return not (self.auto_exclude_venvs and self._in_venv(rel))

    def _in_venv(self, rel: str) -> bool:
        directory = self.root
        for part in rel.split("/")[:-1]:
            directory = directory / part
            if any(directory.joinpath(*marker).exists() for marker in _ENV_MARKERS):
                return True
        return False

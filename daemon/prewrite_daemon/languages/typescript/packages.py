"""Which package of the workspace a bare specifier names: the enclosing one, or a linked one.

``import "@me/app/x"`` inside the package ``@me/app`` is a self-reference (through its
``exports``), and ``import "@ws/lib"`` resolves through ``node_modules/@ws/lib`` to wherever that
link points — inside the root for a workspace package. The import graph asks both questions for
every bare specifier, so answers are cached per directory. ``package.json`` is read as every
repository file is: a regular file, opened without blocking (a FIFO named ``package.json``
never hangs the planner), at most ``MAX_MANIFEST_BYTES`` (``prewrite.files``).
"""

from __future__ import annotations

import json
import os
import posixpath
from typing import Any, cast

from prewrite.files import CONFIG_LIMIT, read_or_none

MAX_MANIFEST_BYTES = CONFIG_LIMIT


def read_manifest(path: str) -> object:
    """The JSON of the regular file ``path`` (at most ``MAX_MANIFEST_BYTES``), else None (a
    name's answer only: an unreadable manifest names no package)."""
    data = read_or_none(path, MAX_MANIFEST_BYTES)
    try:
        return None if data is None else json.loads(data)
    except ValueError:
        return None


class PackageIndex:
    """Package names and ``node_modules`` links under one root (root-relative directories)."""

    def __init__(self, root: str) -> None:
        self._root = root
        self._real_root = os.path.realpath(root)  # where node_modules links point
        self._names: dict[str, str | None] = {}  # package directory -> its package.json name
        self._links: dict[tuple[str, str], str | None] = {}

    def own_package(self, directory: str, name: str) -> str | None:
        """The directory of an enclosing package named ``name`` (a self-reference)."""
        parts = directory.split("/") if directory else []
        for i in range(len(parts), -1, -1):
            candidate = "/".join(parts[:i])
            if self._package_name(candidate) == name:
                return candidate
        return None

    def _package_name(self, directory: str) -> str | None:
        if directory not in self._names:
            data = read_manifest(posixpath.join(self._root, directory, "package.json"))
            name = cast("dict[str, Any]", data).get("name") if isinstance(data, dict) else None
            self._names[directory] = name if isinstance(name, str) else None
        return self._names[directory]

    def linked_package(self, directory: str, name: str) -> str | None:
        """A workspace package: ``node_modules/<name>`` linking back inside the root."""
        key = (directory, name)
        if key not in self._links:
            self._links[key] = None
            parts = directory.split("/") if directory else []
            for i in range(len(parts), -1, -1):
                link = posixpath.join(self._root, *parts[:i], "node_modules", name)
                if not os.path.lexists(link):
                    continue
                rel = os.path.relpath(os.path.realpath(link), self._real_root)
                outside = rel == ".." or rel.startswith("../")
                if not outside and "node_modules" not in rel.split("/"):
                    self._links[key] = "" if rel == "." else rel
                break
        return self._links[key]

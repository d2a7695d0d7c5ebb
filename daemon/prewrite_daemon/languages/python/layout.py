"""Where the checker reads from: the workspace's setup as one value, taken with the fingerprint.

The layout joins the checker's configuration (``checker_config``), the files it covers
(``scope``) and the environment's search paths (``.pth`` entries of editable installs): which of
those are inside the root (the shadow's copies must be used) and which are outside (watched and
fingerprinted, so a change there is never answered from the old state).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from prewrite_daemon.check.scope import CheckerScope
from prewrite_daemon.languages.python.checker_config import (
    CheckerConfig,
    load_checker_config,
    outside_dirs,
    render_shadow_config,
)
from prewrite_daemon.languages.python.environment import pth_dirs, read_venv
from prewrite_daemon.shadow.scan import skipped_dir

if TYPE_CHECKING:
    from prewrite_daemon.languages.readers import Reader


@dataclass(frozen=True)
class Layout:
    config: CheckerConfig
    scope: CheckerScope
    search_dirs: tuple[str, ...]  # root-relative dirs the environment adds to sys.path
    outside: tuple[Path, ...]  # dirs outside the root the checker reads sources from
    config_text: str  # the shadow's pyrightconfig.json
    environment: tuple[tuple[str, str], ...] = ()  # venv settings when the venv is not run
    sections: tuple[str, ...] = ("pyright",)  # the pyproject.toml tables the checker reads

    def with_config(self, root: Path, read: Reader) -> Layout:
        """The same environment under another configuration (a patch's candidate config)."""
        config = load_checker_config(read, self.sections)
        return Layout(
            config,
            CheckerScope.from_settings(config.settings, root),
            self.search_dirs,
            self.outside,
            render_shadow_config(config, root, list(self.search_dirs), dict(self.environment)),
            self.environment,
            self.sections,
        )


def _mirrored_dir(root: Path, rel: str) -> bool:
    """Whether the shadow holds the files of directory ``rel`` (not a dot dir, cache or venv)."""
    directory = root
    for part in PurePosixPath(rel).parts:
        directory = directory / part
        if skipped_dir(directory):
            return False
    return True


def compute_layout(
    root: Path,
    site_dirs: list[Path],
    read: Reader,
    unrun_python: str | None = None,
    sections: tuple[str, ...] = ("pyright",),
) -> Layout:
    """The layout of ``root`` with the interpreter's package dirs ``site_dirs``.

    ``unrun_python``: an interpreter that must not be run (an untrusted workspace's venv); the
    configuration then names its venv and version, so pyright reads them from disk.
    ``sections``: the ``pyproject.toml`` tables the checker reads its settings from.
    """
    inside: list[str] = []
    outside: list[Path] = []
    for directory in pth_dirs(site_dirs):
        if directory == root or root in directory.parents:
            rel = directory.relative_to(root).as_posix()
            if _mirrored_dir(root, rel):
                inside.append(rel)
                continue
        if not any(directory == s or s in directory.parents for s in site_dirs):
            outside.append(directory)
    config = load_checker_config(read, sections)
    outside += outside_dirs(config, root)
    environment = _venv_settings(unrun_python) if unrun_python else {}
    return Layout(
        config,
        CheckerScope.from_settings(config.settings, root),
        tuple(inside),
        tuple(dict.fromkeys(outside)),
        render_shadow_config(config, root, inside, environment),
        tuple(environment.items()),
        sections,
    )


def _venv_settings(python: str) -> dict[str, str]:
    found = read_venv(python)
    if found is None:
        return {}
    venv, version = found
    settings = {"venvPath": str(venv.parent), "venv": venv.name}
    return settings | ({"pythonVersion": version} if version else {})

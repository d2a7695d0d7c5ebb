"""One adversarial planner case, and many of them laid out side by side in one tree.

A case is a small repository (``files``), a patch (``patch``: path -> new text, ``None``
deletes) and the rule it tempts. Its truth is never written down: cold pyright on the base and
the patched tree decides (``planner_truth``). Cases are written with the placeholder packages
``pkg`` and ``lib``; laying a case out renames them to ``<case>_pkg`` and ``<case>_lib`` so that
many cases share one tree without one module name meaning two things: one cold run of the
base and one of the patched tree (every case patched at once) then answer for all of them,
and one warm checker serves them all. Cases that change what every file sees (a
``__builtins__.pyi``) or need their own checker settings get a tree of their own (``group``).
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tests.support.setups import make_venv, venv_python

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path

PLACEHOLDERS = re.compile(r"\b(pkg|lib|frob|compute|size|limit)\b")
TYPECHECK_ONLY = "[tool.prewrite]\nlint = false\nformat = false\n"


@dataclass(frozen=True)
class Case:
    """A tree, a patch, the planner rule it tempts; ``config``: ``[tool.pyright]`` lines."""

    name: str
    rule: str
    files: Mapping[str, str]
    patch: Mapping[str, str | None]
    config: str = ""
    alone: bool = False
    changes: bool = True  # the patch changes some other file's diagnostics (else: a control)
    bare_venv: bool = False  # judged with an empty venv (no package installed), not the tests'

    @property
    def group(self) -> str:
        """The tree this case is laid out in: shared by cases with the same settings."""
        digest = hashlib.sha256(self.config.encode()).hexdigest()[:8]
        if self.alone:
            return self.prefix
        return f"cfg_{digest}" + ("_bare" if self.bare_venv else "")

    @property
    def prefix(self) -> str:
        return re.sub(r"\W", "_", self.name)

    def rename(self, text: str) -> str:
        return PLACEHOLDERS.sub(lambda m: f"{self.prefix}_{m.group(1)}", text)

    def base_files(self) -> dict[str, str]:
        return {self.rename(rel): self.rename(text) for rel, text in self.files.items()}

    def patched_files(self) -> dict[str, str | None]:
        return {
            self.rename(rel): None if text is None else self.rename(text)
            for rel, text in self.patch.items()
        }

    def edits(self) -> list[tuple[str, str | None, str | None]]:
        """(path, old text or None if new, new text or None if deleted), laid out."""
        base = self.base_files()
        return [(rel, base.get(rel), new) for rel, new in self.patched_files().items()]

    def paths(self) -> set[str]:
        """Every path of the case, before or after the patch."""
        return set(self.base_files()) | set(self.patched_files())


@dataclass
class Layout:
    """Cases laid out in one tree: the base, and the tree with every case's patch applied."""

    config: str
    bare_venv: bool
    cases: list[Case] = field(default_factory=lambda: list[Case]())

    def python(self, root: Path, default: str) -> str:
        """The interpreter a tree of this layout is judged with (its own bare venv, or
        ``default``)."""
        return venv_python(root) if self.bare_venv else default

    def pyproject(self) -> str:
        return f"{TYPECHECK_ONLY}\n[tool.pyright]\n{self.config}\n"

    def write_base(self, root: Path) -> None:
        write_tree(root, {"pyproject.toml": self.pyproject()})
        if self.bare_venv:
            make_venv(root)
        for case in self.cases:
            write_tree(root, case.base_files())

    def write_patched(self, root: Path) -> None:
        self.write_base(root)
        for case in self.cases:
            write_tree(root, case.patched_files())

    def render(self, case: Case) -> str:
        """A reproduction of ``case`` as laid out: the settings, the files, the patch."""
        lines = [f"# case {case.name} (tempts: {case.rule})", "## pyproject.toml", self.pyproject()]
        lines += [f"## {rel}\n{text}" for rel, text in sorted(case.base_files().items())]
        lines += [f"## patch: {rel}\n{'(deleted)' if text is None else text}"
                  for rel, text in sorted(case.patched_files().items())]  # fmt: skip
        return "\n".join(lines)


def group_cases(cases: Iterable[Case]) -> dict[str, Layout]:
    """The trees the cases are laid out in, by ``Case.group``; names must be unique."""
    layouts: dict[str, Layout] = {}
    seen: set[str] = set()
    for case in cases:
        if case.prefix in seen:
            raise ValueError(f"two cases are named {case.prefix}")
        seen.add(case.prefix)
        layout = layouts.setdefault(case.group, Layout(case.config, case.bare_venv))
        layout.cases.append(case)
    return layouts


def write_tree(root: Path, files: Mapping[str, str | None]) -> None:
    """Write ``files`` under ``root``; ``None`` removes the file."""
    for rel, text in files.items():
        path = root / rel
        if text is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def src(text: str) -> str:
    """A case's file text, written indented in the catalogue."""
    return textwrap.dedent(text).lstrip("\n")

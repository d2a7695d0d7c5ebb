"""The backend interface: a warm checker that answers diagnostics for overlaid documents.

pyright implements it now; a TypeScript checker can implement the same Protocol later. LSP types
never cross this boundary: backends return prewrite's own ``RawDiagnostic`` records.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Mapping


class BackendState(enum.Enum):
    """Where a backend is in its life: the one source of truth (``Backend.exited`` derives from it).

    ::

        EXITED --start--> STARTING --ready--> RUNNING --stop--> EXITED
                              |                  |
                              +--> ERRORED <-----+  (failed start, crash, unreadable output)

    A backend never restarts itself: the workspace stops a failed one and makes a new one, so
    there is no "restarting" state to report.
    """

    STARTING = "starting"
    RUNNING = "running"
    ERRORED = "errored"
    EXITED = "exited"  # also before the first start, and while a requested stop is under way

    @property
    def is_down(self) -> bool:
        """Takes no calls: never started, stopped, or failed (``Backend.exited``)."""
        return self in (BackendState.ERRORED, BackendState.EXITED)


@dataclass(frozen=True)
class RawDiagnostic:
    """A checker diagnostic for one file, 0-based positions as LSP reports them."""

    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    rule: str
    message: str
    source: str


@dataclass(frozen=True)
class FileEvent:
    """A file in the checker's tree that was created, changed or deleted on disk."""

    path: str  # absolute path in the checker's tree
    kind: str  # "created" | "changed" | "deleted"


class Backend(Protocol):
    """A warm checker over one tree. All positions are 0-based; paths absolute."""

    @property
    def state(self) -> BackendState: ...

    @property
    def pid(self) -> int | None: ...

    @property
    def exited(self) -> bool:
        """``state.is_down``: the checker takes no calls (never started, stopped or failed).

        Derived from ``state``, never stored apart from it. Calls pending when the checker
        fails are woken at once and fail with ``BackendFailed``.
        """
        ...

    async def start(self, timeout_s: float = 60.0) -> None: ...

    async def stop(self, grace_s: float = 2.0) -> None: ...

    def open(self, path: str, text: str) -> None: ...

    def change(self, path: str, text: str) -> None: ...

    def close(self, path: str) -> None: ...

    def is_open(self, path: str) -> bool: ...

    def files_changed(self, events: list[FileEvent]) -> None: ...

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]: ...


class LaidTree(Protocol):
    """A tree a checker reads from disk, that a patch may be laid on for one run (the shadow)."""

    def shadow_path(self, rel: str) -> str: ...

    def read_text(self, rel: str) -> str | None: ...

    def write(self, rel: str, text: str) -> None: ...

    def remove(self, rel: str) -> None: ...

    def restore(self, rel: str) -> None:
        """Put the workspace's version of ``rel`` back (none: remove it, and what ``write``
        made for it)."""
        ...


@runtime_checkable
class WholeProgram(Protocol):
    """A checker that answers for the whole tree at once (dmypy warm; ty's and pyrefly's CLI),
    not per document."""

    # True: every answer is the checker's own cold CLI run on the laid tree (ty, pyrefly), so
    # ``check.whole`` distrusts nothing in it and sends nothing to a cold second run.
    answers_as_cli: bool

    async def check_tree(
        self, tree: LaidTree, overrides: Mapping[str, str | None], timeout_s: float
    ) -> dict[str, list[RawDiagnostic]]:
        """Every file's diagnostics with ``overrides`` (root-relative path -> text, None:
        deleted) laid over ``tree``."""
        ...

"""The backend interface: a warm checker that answers diagnostics for overlaid documents.

pyright implements it now; a TypeScript checker can implement the same Protocol later. LSP types
never cross this boundary: backends return prewrite's own ``RawDiagnostic`` records.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol


class BackendState(enum.Enum):
    STARTING = "starting"
    RUNNING = "running"
    RESTARTING = "restarting"
    ERRORED = "errored"
    EXITED = "exited"


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
        """True once the checker exited or became unusable; pending calls have failed."""
        ...

    async def start(self, timeout_s: float = 60.0) -> None: ...

    async def stop(self, grace_s: float = 2.0) -> None: ...

    def open(self, path: str, text: str) -> None: ...

    def change(self, path: str, text: str) -> None: ...

    def close(self, path: str) -> None: ...

    def is_open(self, path: str) -> bool: ...

    def files_changed(self, events: list[FileEvent]) -> None: ...

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]: ...

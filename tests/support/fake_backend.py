"""An in-memory ``Backend``: the second witness of the protocol, for tests of the overlay check.

It keeps the open documents' text, records every call, and answers a pull from a scripted
function of what a checker would see: the document's overlay text, or else the file in its tree.
The default script is a toy type checker (see ``toy_check``). Faults are scripted by pull
number: the Nth pull raises ``BackendFailed``, or hangs on an event that never fires until its
``timeout_s`` passes (``CheckTimeout``, as ``LspProcess`` answers) or the caller is cancelled.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.base import BackendState, FileEvent, RawDiagnostic
from prewrite_daemon.check.diagnostics import split_lines

if TYPE_CHECKING:
    from collections.abc import Callable

FAKE_PID = 424242  # never signalled: the fake runs no process
_FROM_IMPORT = re.compile(r"^from ([\w.]+) import (\w+)", re.MULTILINE)


def _error(line: int, column: int, width: int, rule: str, message: str) -> RawDiagnostic:
    return RawDiagnostic(line, column, line, column + width, "error", rule, message, "fake")


def _defines(text: str, name: str) -> bool:
    return re.search(rf"^(def|class) {name}\b|^{name}\s*[:=]", text, re.MULTILINE) is not None


def toy_check(rel: str, text: str, view: Callable[[str], str | None]) -> list[RawDiagnostic]:
    """A toy checker: an error for each line holding ``BAD``, for each ``from m import n``
    whose module ``m.py`` is absent, and for each whose module does not define ``n``."""
    found: list[RawDiagnostic] = []
    for number, line in enumerate(split_lines(text)):
        column = line.find("BAD")
        if column >= 0:
            found.append(_error(number, column, 3, "fake-bad", "BAD is not allowed"))
        match = _FROM_IMPORT.match(line)
        if match is None:
            continue
        module, name = match.groups()
        source = view(module.replace(".", "/") + ".py")
        if source is None:
            found.append(_error(number, 5, len(module), "fake-missing-module", f"no {module}"))
        elif not _defines(source, name):
            message = f"{module} has no {name}"
            found.append(_error(number, match.start(2), len(name), "fake-missing-name", message))
    return found


@dataclass(frozen=True)
class Call:
    """One call into the fake: open/change carry the text; a pull carries the text it judged."""

    kind: str  # "open" | "change" | "close" | "files_changed" | "pull"
    path: str = ""  # absolute, as the checker is given it
    text: str | None = None
    events: tuple[FileEvent, ...] = ()


@dataclass
class FakeBackend:
    """A warm checker over ``tree`` (the shadow root) that lives in memory."""

    tree: Path
    # (tree-relative path, its text, what the checker sees of other files) -> diagnostics
    script: Callable[[str, str, Callable[[str], str | None]], list[RawDiagnostic]] = toy_check
    fail_on_pull: int | None = None  # the Nth pull (1-based) raises BackendFailed
    hang_on_pull: int | None = None  # the Nth pull waits on an event that never fires
    calls: list[Call] = field(default_factory=lambda: [])
    docs: dict[str, str] = field(default_factory=lambda: {})  # open documents: path -> text
    hanging: asyncio.Event = field(default_factory=asyncio.Event)  # set once a pull hangs
    _state: BackendState = field(default=BackendState.RUNNING, init=False)
    _pulls: int = field(default=0, init=False)

    @property
    def state(self) -> BackendState:
        return self._state

    @property
    def pid(self) -> int | None:
        return FAKE_PID if self._state is BackendState.RUNNING else None

    @property
    def exited(self) -> bool:
        return self._state is BackendState.EXITED

    async def start(self, timeout_s: float = 60.0) -> None:
        self._state = BackendState.RUNNING

    async def stop(self, grace_s: float = 2.0) -> None:
        self._state = BackendState.EXITED
        self.docs.clear()

    def open(self, path: str, text: str) -> None:
        # A second didOpen of one document is a protocol error a real server would reject.
        assert path not in self.docs, f"{path} opened twice"
        self.docs[path] = text
        self.calls.append(Call("open", path, text))

    def change(self, path: str, text: str) -> None:
        assert path in self.docs, f"{path} changed while not open"
        self.docs[path] = text
        self.calls.append(Call("change", path, text))

    def close(self, path: str) -> None:
        self.docs.pop(path, None)
        self.calls.append(Call("close", path))

    def is_open(self, path: str) -> bool:
        return path in self.docs

    def files_changed(self, events: list[FileEvent]) -> None:
        self.calls.append(Call("files_changed", events=tuple(events)))

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        self._pulls += 1
        text = self._text(path)
        self.calls.append(Call("pull", path, text))
        if self._pulls == self.fail_on_pull:
            raise BackendFailed(f"scripted failure of pull {self._pulls}")
        if self._pulls == self.hang_on_pull:
            await self._hang(timeout_s)
        if text is None:
            raise BackendFailed(f"{path} is neither open nor on disk")
        return self.script(self._rel(path), text, self.view)

    def view(self, rel: str) -> str | None:
        """What the checker sees of ``rel``: its open document, else the file in the tree."""
        return self._text(str(self.tree / rel))

    # --- what the tests read ----------------------------------------------------------------

    def kinds(self, path: str) -> list[str]:
        """The document calls and pulls naming ``path``, in order."""
        return [c.kind for c in self.calls if c.path == path]

    def pulled(self) -> list[str]:
        """Tree-relative paths pulled, in order."""
        return [self._rel(c.path) for c in self.calls if c.kind == "pull"]

    def announced(self) -> list[tuple[str, str]]:
        """Every file event announced, as (tree-relative path, kind), in order."""
        return [
            (self._rel(e.path), e.kind)
            for c in self.calls
            if c.kind == "files_changed"
            for e in c.events
        ]

    # --- internals ----------------------------------------------------------------------------

    def _text(self, path: str) -> str | None:
        if path in self.docs:
            return self.docs[path]
        try:
            return Path(path).read_text(encoding="utf-8")
        except OSError:
            return None

    def _rel(self, path: str) -> str:
        return Path(path).relative_to(self.tree).as_posix()

    async def _hang(self, timeout_s: float) -> None:
        never = asyncio.Event()
        self.hanging.set()
        try:
            async with asyncio.timeout(timeout_s):
                await never.wait()
        except TimeoutError:
            raise CheckTimeout(f"no reply from the fake within {timeout_s:.2f}s") from None

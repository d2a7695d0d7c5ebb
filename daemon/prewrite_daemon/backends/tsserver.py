"""TypeScript 5.x/6.x through its own ``tsserver`` (it has no LSP server): a ``Backend``.

The supervision is ``child``'s, as for ``lsp_process``: ``state`` is the one truth, a deadline
on every call, every pending call failed the moment the child exits or its output turns to
garbage, a staged stop, stderr drained into the log, foreign exceptions translated at the edge.
The protocol itself (command line, framing, request arguments, positions, diagnostics, the
watcher table) lives in ``tsserver_wire``.

Freshness rests on one property of tsserver: it handles stdin requests in order, so document
and watch changes written before a diagnostics request are seen by it. Requests without an
awaited reply (``updateOpen``) are still checked: a rejected one fails the backend, because
tsserver would then be checking different text than we believe.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.base import BackendState, FileEvent, RawDiagnostic
from prewrite_daemon.backends.child import Child
from prewrite_daemon.backends.tsserver_wire import (
    GarbledOutput,
    Message,
    WatchTable,
    deliveries,
    encode_request,
    end_of_text,
    open_entry,
    read_message,
    to_raw,
)

if TYPE_CHECKING:
    from pathlib import Path

log = logging.getLogger(__name__)


class TsServerProcess:
    """One tsserver over stdio, checking the documents opened in it against the tree at ``root``.

    Pending calls are futures by request seq, awaited through the ``Child``: they fail with
    ``BackendFailed`` the moment the child exits or its output cannot be read, and ``state``
    says whether that was expected (a stop: EXITED) or a failure (ERRORED).
    """

    def __init__(self, argv: list[str], root: Path, env: dict[str, str] | None) -> None:
        self.argv = argv
        self.root = root
        self._env = env
        self.state = BackendState.EXITED
        self._child = Child("tsserver", self._on_lost)
        self._stdin: asyncio.StreamWriter | None = None
        self._seq = 0
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._unawaited: dict[int, str] = {}  # seq -> command, for replies nobody awaits
        self._texts: dict[str, str] = {}  # open documents, as tsserver has them
        self._watches = WatchTable()
        # File events sent while watcher events may still have been unread: see _settle_files.
        self._unsettled: list[tuple[list[FileEvent], frozenset[tuple[int, str, str]]]] = []
        self._unannounced: set[str] = set()  # open documents with no file on disk: see open()

    @property
    def pid(self) -> int | None:
        return self._child.pid

    @property
    def exited(self) -> bool:
        return self.state.is_down

    # --- lifecycle ------------------------------------------------------------------------------

    async def start(self, timeout_s: float = 60.0) -> None:
        """Spawn tsserver; running once it has answered ``configure``."""
        self.state = BackendState.STARTING
        try:
            self._stdin = await self._child.spawn(self.argv, self.root, self._env, self._read_loop)
            configure: Message = {"hostInfo": "prewrite", "preferences": {}}
            await self._child.wait(self._request("configure", configure), timeout_s, "configure")
        except BaseException as exc:
            await self.stop()
            self.state = BackendState.ERRORED
            if isinstance(exc, CheckTimeout):
                raise BackendFailed(f"tsserver did not start: {exc}") from exc
            raise
        self.state = BackendState.RUNNING
        log.info("tsserver pid %s running on %s", self.pid, self.root)

    async def stop(self, grace_s: float = 2.0) -> None:
        """Staged stop: the ``exit`` request, then SIGTERM, then SIGKILL to the process group."""
        was_running = self.state is BackendState.RUNNING
        self.state = BackendState.EXITED  # an exit from here on is expected, not a crash

        async def exit_request() -> None:
            self._write("exit", None)

        await self._child.stop(exit_request if was_running else None, grace_s)
        self.state = BackendState.EXITED

    # --- documents ------------------------------------------------------------------------------

    def open(self, path: str, text: str) -> None:
        """Open a document. One with no file on disk is announced at the next diagnostics call.

        tsserver keeps a failed module resolution until a watcher reports the path, and ignores
        reports about open files: so ``_settle_files`` closes it, reports it created, reopens it.
        """
        self._notify("updateOpen", {"openFiles": [open_entry(path, text, self.root)]})
        self._texts[path] = text
        if not os.path.isfile(path):
            self._unannounced.add(path)

    def change(self, path: str, text: str) -> None:
        """Replace the whole document: one edit from the start to the end of the old text."""
        old = self._texts.get(path)
        if old is None:
            raise BackendFailed(f"cannot change {path}: it is not open in tsserver")
        edit = {"start": {"line": 1, "offset": 1}, "end": end_of_text(old), "newText": text}
        self._notify("updateOpen", {"changedFiles": [{"fileName": path, "textChanges": [edit]}]})
        self._texts[path] = text

    def close(self, path: str) -> None:
        """Close a document; one with no file on disk is announced as deleted (see ``open``)."""
        if path not in self._texts:
            return
        self._notify("updateOpen", {"closedFiles": [path]})
        del self._texts[path]
        self._unannounced.discard(path)
        if not os.path.isfile(path):
            self.files_changed([FileEvent(path, "deleted")])

    def is_open(self, path: str) -> bool:
        return path in self._texts

    def files_changed(self, events: list[FileEvent]) -> None:
        """Tell every watcher tsserver asked for that covers a path (tsserver watches nothing).

        Sent now, in order with the document requests. A watcher tsserver created before the
        change but whose event we have not read yet would miss it, so the events are also kept
        until the next diagnostics call settles them (``_settle_files``).
        """
        if not events:
            return
        changes = self._watches.changes_for(events)
        if changes:
            self._notify("watchChange", changes, reply=False)
        self._unsettled.append((list(events), deliveries(changes)))

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        """The diagnostics of one open document as ``tsc`` reports them: the syntactic ones if
        there are any (tsc then stops before the semantic check), the semantic ones otherwise.
        """
        self._check_running()
        if path not in self._texts:
            raise BackendFailed(f"{path} is not open in tsserver: open it before asking")
        what = f"diagnostics of {path}"
        return await self._child.wait(self._diagnostics(path), timeout_s, what)

    async def _diagnostics(self, path: str) -> list[RawDiagnostic]:
        await self._settle_files()
        args = {"file": path, "includeLinePosition": False}
        syntactic, semantic = await self._requests(
            [("syntacticDiagnosticsSync", args), ("semanticDiagnosticsSync", args)]
        )
        try:
            return [to_raw(d) for d in (syntactic or semantic)]
        except (KeyError, TypeError, ValueError) as exc:
            raise BackendFailed(f"tsserver sent a malformed diagnostic: {exc!r}") from exc

    async def _settle_files(self) -> None:
        """Deliver kept file events to watchers we learnt of after sending them; announce the
        documents opened without a file on disk.

        A ``status`` round trip first: tsserver writes watcher events as it creates them, so
        once its reply is read the table holds every watcher created before the changes.
        """
        while self._unsettled or self._unannounced:
            batch = list(self._unsettled)
            await self._requests([("status", {})])
            for events, sent in batch:
                changes = self._watches.changes_for(events, already=sent)
                if changes:
                    log.debug("late watchers %s for %s", [c["id"] for c in changes], events)
                    self._notify("watchChange", changes, reply=False)
            del self._unsettled[: len(batch)]
            for path in sorted(self._unannounced):
                self._notify("updateOpen", {"closedFiles": [path]})
                if changes := self._watches.changes_for([FileEvent(path, "created")]):
                    self._notify("watchChange", changes, reply=False)
                entry = open_entry(path, self._texts[path], self.root)
                self._notify("updateOpen", {"openFiles": [entry]})
            self._unannounced.clear()

    # --- requests -------------------------------------------------------------------------------

    def _check_running(self) -> None:
        if self.state is not BackendState.RUNNING:
            raise BackendFailed(
                f"tsserver is not running ({self.state.value}: {self._child.lost_reason})"
            )

    def _notify(self, command: str, arguments: object, *, reply: bool = True) -> None:
        """Write a request whose reply nobody awaits (checked when it comes, if it comes)."""
        self._check_running()
        seq = self._write(command, arguments)
        if reply:
            self._unawaited[seq] = command

    def _write(self, command: str, arguments: object) -> int:
        if self._stdin is None or not self._child.alive:
            raise BackendFailed(f"tsserver is not running ({self._child.lost_reason})")
        self._seq += 1
        try:
            self._stdin.write(encode_request(self._seq, command, arguments))
        except (OSError, RuntimeError) as exc:
            self._child.lose(f"its input is closed: {exc}")
            raise BackendFailed(f"cannot write to tsserver: {exc}") from exc
        return self._seq

    async def _request(self, command: str, arguments: object) -> Any:
        (body,) = await self._requests([(command, arguments)])
        return body

    async def _requests(self, requests: list[tuple[str, object]]) -> list[Any]:
        """Write the requests back to back, then await each reply's body in turn."""
        loop = asyncio.get_running_loop()
        seqs: list[int] = []
        try:
            for command, arguments in requests:
                future: asyncio.Future[Message] = loop.create_future()
                seq = self._write(command, arguments)
                self._pending[seq] = future
                seqs.append(seq)
            bodies: list[Any] = []
            for seq, (command, _) in zip(seqs, requests, strict=True):
                reply = await self._pending[seq]
                if reply.get("success") is not True:
                    raise BackendFailed(f"tsserver failed {command}: {reply.get('message')}")
                bodies.append(reply.get("body"))
            return bodies
        finally:
            for seq in seqs:
                left = self._pending.pop(seq, None)
                if left is not None and left.done() and not left.cancelled():
                    left.exception()  # retrieved: a reply we no longer wait for
                elif left is not None:
                    left.cancel()

    # --- the child's output ---------------------------------------------------------------------

    async def _read_loop(self, stdout: asyncio.StreamReader) -> None:
        try:
            while (message := await read_message(stdout)) is not None:
                self._dispatch(message)
        except (GarbledOutput, OSError) as exc:
            log.error("cannot read tsserver's output: %s", exc)
            self._child.lose(f"its output can no longer be read ({exc})")
            return
        self._child.lose("it closed its output")

    def _dispatch(self, message: Message) -> None:
        match message.get("type"):
            case "response":
                self._on_response(message)
            case "event":
                try:
                    self._watches.on_event(str(message.get("event")), message.get("body") or {})
                except (KeyError, TypeError, ValueError) as exc:
                    # A watcher we cannot track is a change we would not pass on: stale answers.
                    raise GarbledOutput(f"a malformed {message.get('event')} event") from exc
            case other:
                raise GarbledOutput(f"a message of type {other!r}")

    def _on_response(self, reply: Message) -> None:
        seq = reply.get("request_seq")
        future = self._pending.get(seq) if isinstance(seq, int) else None
        if future is not None:
            if not future.done():
                future.set_result(reply)
        elif isinstance(seq, int) and (command := self._unawaited.pop(seq, None)):
            if reply.get("success") is not True:
                log.error("tsserver rejected %s: %s", command, reply.get("message"))
                self._child.lose(f"it rejected {command}: {reply.get('message')}")
        # else: the late reply of a call that gave up (its deadline passed)

    def _on_lost(self, _reason: str) -> bool:
        """Unless a stop is under way (state EXITED), losing the child is a failure: ERRORED."""
        if self.state is BackendState.EXITED:
            return False
        self.state = BackendState.ERRORED
        return True

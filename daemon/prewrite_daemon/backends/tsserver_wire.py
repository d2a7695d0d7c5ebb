"""tsserver's wire: its command line, framed output, requests, positions, diagnostics, watchers.

Pure protocol knowledge with no process in it, so ``tsserver.py`` stays about supervision and
each piece here can be tested on its own. tsserver is not JSON-RPC: requests are one JSON object
per line on stdin; its output is ``Content-Length: N\\r\\n\\r\\n<json>`` frames (N in bytes).
"""

from __future__ import annotations

import asyncio
import json
import posixpath
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.backends.node import node_executable

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.backends.base import FileEvent

MAX_FRAME = 64 * 1024 * 1024  # a frame larger than this is garbage, not a diagnostics list
Message = dict[str, Any]
Delivery = tuple[int, str, str]  # (watcher id, "created" | "deleted" | "updated", path)

# tsserver breaks lines where its scanner does (computeLineStarts): CRLF, CR, LF, LS, PS.
_LINE_BREAK = re.compile("\r\n|[\r\n\u2028\u2029]")
_SCRIPT_KINDS = {
    ".ts": "TS",
    ".mts": "TS",
    ".cts": "TS",
    ".tsx": "TSX",
    ".js": "JS",
    ".mjs": "JS",
    ".cjs": "JS",
    ".jsx": "JSX",
}
_SEVERITY = {"error": "error", "warning": "warning", "suggestion": "hint", "message": "information"}
# A FileEvent's kind, as the list of a watchChange entry it goes into.
_CHANGE_LIST = {"created": "created", "deleted": "deleted", "changed": "updated"}


FLAGS = [
    "--disableAutomaticTypingAcquisition",
    "--suppressDiagnosticEvents",
    "--canUseWatchEvents",  # we watch for it: see WatchTable and files_changed
    "--locale",
    "en",
]


def tsserver_argv(typescript_dir: Path) -> list[str]:
    """The command line of ``typescript_dir``'s tsserver; node as ``backends.node`` finds it."""
    node = node_executable()
    script = typescript_dir / "lib" / "tsserver.js"
    if not script.is_file():
        raise BackendFailed(f"no tsserver at {script}")
    return [node, str(script), *FLAGS]


class GarbledOutput(Exception):
    """tsserver's output is not a frame we can read: the server must be treated as unusable."""


async def read_message(reader: asyncio.StreamReader) -> Message | None:
    """The next framed message, or None at a clean end of output (between frames).

    The header is bounded by the reader's own limit (``readuntil`` raises past it); the body by
    ``MAX_FRAME``. Anything else than a well-formed frame holding a JSON object is garbage.
    """
    try:
        header = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if not exc.partial.strip():
            return None
        raise GarbledOutput(f"output ended inside a header: {exc.partial[:80]!r}") from exc
    except asyncio.LimitOverrunError as exc:
        raise GarbledOutput("a header longer than the reader's limit") from exc
    length = _content_length(header)
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise GarbledOutput(f"output ended inside a {length}-byte frame") from exc
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, ValueError) as exc:
        raise GarbledOutput(f"a frame that is not JSON: {body[:80]!r}") from exc
    if not isinstance(message, dict):
        raise GarbledOutput(f"a frame that is not a JSON object: {body[:80]!r}")
    return message  # pyright: ignore[reportUnknownVariableType]


def _content_length(header: bytes) -> int:
    length: int | None = None
    for line in header.strip(b"\r\n").split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if not sep:
            raise GarbledOutput(f"not a header line: {line[:80]!r}")
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError as exc:
                raise GarbledOutput(f"a bad Content-Length: {value[:40]!r}") from exc
    if length is None or not 0 <= length <= MAX_FRAME:
        raise GarbledOutput(f"a frame of length {length} (limit {MAX_FRAME})")
    return length


def encode_request(seq: int, command: str, arguments: object) -> bytes:
    """One request line. ASCII-only JSON, so no character in a string can break the line."""
    request = {"seq": seq, "type": "request", "command": command, "arguments": arguments}
    return json.dumps(request, ensure_ascii=True).encode("ascii") + b"\n"


def end_of_text(text: str) -> dict[str, int]:
    """The 1-based line/offset just past ``text``'s end, offsets in UTF-16 code units."""
    lines = 0
    last_start = 0
    for match in _LINE_BREAK.finditer(text):
        lines += 1
        last_start = match.end()
    tail = text[last_start:].encode("utf-16-le", "surrogatepass")
    return {"line": lines + 1, "offset": len(tail) // 2 + 1}


def script_kind(path: str) -> str | None:
    """tsserver's scriptKindName for a path, by suffix (None: let tsserver decide)."""
    return _SCRIPT_KINDS.get(posixpath.splitext(path)[1].lower())


def open_entry(path: str, text: str, root: Path) -> Message:
    """An ``updateOpen`` ``openFiles`` entry: ``text`` as the document at ``path``, in the
    project found from ``root``."""
    entry: Message = {"file": path, "fileContent": text, "projectRootPath": str(root)}
    if kind := script_kind(path):
        entry["scriptKindName"] = kind
    return entry


def to_raw(diagnostic: Message) -> RawDiagnostic:
    """A tsserver diagnostic (1-based, ``includeLinePosition: false``) as a 0-based record."""
    start, end = diagnostic["start"], diagnostic["end"]
    return RawDiagnostic(
        line=int(start["line"]) - 1,
        column=int(start["offset"]) - 1,
        end_line=int(end["line"]) - 1,
        end_column=int(end["offset"]) - 1,
        severity=_SEVERITY.get(str(diagnostic.get("category")), "error"),
        rule=str(diagnostic["code"]),
        message=str(diagnostic["text"]),
        source="ts",
    )


@dataclass(frozen=True)
class Watcher:
    """A watch tsserver asked for: a file, or a directory (its direct children unless recursive)."""

    path: str
    directory: bool
    recursive: bool = False
    ignore_update: bool = False


@dataclass
class WatchTable:
    """The watchers tsserver asked us to run (``--canUseWatchEvents``), by id.

    tsserver then watches nothing itself: a disk change reaches it only as a ``watchChange``
    entry for each watcher covering the path, which ``changes_for`` computes.
    """

    watchers: dict[int, Watcher] = field(default_factory=dict[int, Watcher])

    def on_event(self, event: str, body: Message) -> None:
        """Keep the table in step with a create/close watcher event (others are ignored)."""
        match event:
            case "createFileWatcher":
                self.watchers[int(body["id"])] = Watcher(_norm(body["path"]), directory=False)
            case "createDirectoryWatcher":
                self.watchers[int(body["id"])] = Watcher(
                    _norm(body["path"]),
                    directory=True,
                    recursive=bool(body.get("recursive")),
                    ignore_update=bool(body.get("ignoreUpdate")),
                )
            case "closeFileWatcher":
                self.watchers.pop(int(body["id"]), None)
            case _:
                pass

    def changes_for(
        self, events: list[FileEvent], already: frozenset[Delivery] = frozenset()
    ) -> list[Message]:
        """The ``watchChange`` arguments telling every covering watcher about ``events``.

        Deliveries in ``already`` (see ``deliveries``) were sent before and are left out.
        """
        lists: dict[int, dict[str, list[str]]] = {}
        for event in events:
            kind = _CHANGE_LIST[event.kind]
            for watcher_id, path in self._covering(_norm(event.path), event.kind):
                if (watcher_id, kind, path) in already:
                    continue
                paths = lists.setdefault(watcher_id, {}).setdefault(kind, [])
                if path not in paths:
                    paths.append(path)
        return [{"id": watcher_id, **kinds} for watcher_id, kinds in sorted(lists.items())]

    def _covering(self, path: str, kind: str) -> list[tuple[int, str]]:
        """(watcher id, the path that watcher reports) for each watcher that sees ``path``.

        A non-recursive directory watcher sees its direct children; a file created or deleted
        deeper down is reported to it as its child directory on the way (a directory that may
        itself have appeared or gone), which is what an OS watcher would have seen.
        """
        covering: list[tuple[int, str]] = []
        for watcher_id, watcher in self.watchers.items():
            if not watcher.directory:
                if watcher.path == path:
                    covering.append((watcher_id, path))
                continue
            if kind == "changed" and watcher.ignore_update:
                continue
            prefix = watcher.path.rstrip("/") + "/"
            if not path.startswith(prefix):
                continue
            rest = path[len(prefix) :]
            if watcher.recursive or "/" not in rest:
                covering.append((watcher_id, path))
            elif kind != "changed":
                covering.append((watcher_id, prefix + rest.split("/", 1)[0]))
        return covering


def deliveries(changes: list[Message]) -> frozenset[Delivery]:
    """Each (watcher id, list, path) that ``changes`` delivers."""
    return frozenset(
        (change["id"], kind, path)
        for change in changes
        for kind in ("created", "deleted", "updated")
        for path in change.get(kind, ())
    )


def _norm(path: object) -> str:
    return posixpath.normpath(str(path).replace("\\", "/"))

"""What an editor session must replay on a new daemon: its initialize and its open documents.

``prewrite lsp`` reads (never changes) the editor's messages to keep this record, so that when
the daemon goes away (stopped, restarted after an upgrade, crashed) the relay can attach to a new
one and bring it to the editor's state before passing on anything else: the ``initialize``
request (its answer swallowed: the editor has one), ``initialized``, a ``didOpen`` per open
document with its current text, and the requests still unanswered. Standard library only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, cast

HEADER_END = b"\r\n\r\n"
REPLAYED_ID = "prewrite-replayed-initialize"


def frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class FrameReader:
    """Splits a byte stream into LSP messages (``Content-Length`` headers, JSON bodies)."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> list[tuple[bytes, dict[str, Any] | None]]:
        """The complete messages in ``data`` (and what came before): (raw frame, parsed body;
        None if the body is not a JSON object — passed on all the same, never judged here)."""
        self._buffer += data
        out: list[tuple[bytes, dict[str, Any] | None]] = []
        while (end := self._buffer.find(HEADER_END)) >= 0:
            length = _content_length(self._buffer[:end])
            if length is None:  # not LSP framing: pass the bytes through untouched
                out.append((self._buffer, None))
                self._buffer = b""
                break
            start = end + len(HEADER_END)
            if len(self._buffer) < start + length:
                break
            raw = self._buffer[: start + length]
            body = self._buffer[start : start + length]
            self._buffer = self._buffer[start + length :]
            out.append((raw, _object(body)))
        return out


def _object(body: bytes) -> dict[str, Any] | None:
    try:
        parsed: object = json.loads(body)
    except ValueError:
        return None
    return cast("dict[str, Any]", parsed) if isinstance(parsed, dict) else None


def _content_length(header: bytes) -> int | None:
    for line in header.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            return int(value.strip())
    return None


@dataclass
class Document:
    language_id: str
    version: int
    text: str


@dataclass
class SessionRecord:
    initialize: dict[str, Any] | None = None  # the editor's initialize params
    initialized: bool = False
    documents: dict[str, Document] = field(default_factory=lambda: {})
    pending: dict[Any, bytes] = field(default_factory=lambda: {})  # request id -> its frame
    exited: bool = False

    def from_editor(self, raw: bytes, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        method = message.get("method")
        params: Any = message.get("params") or {}
        if "id" in message and method is not None:
            self.pending[message["id"]] = raw
        if method == "initialize":
            self.initialize = params
        elif method == "initialized":
            self.initialized = True
        elif method == "exit":
            self.exited = True
        elif method == "textDocument/didOpen":
            doc = params["textDocument"]
            self.documents[doc["uri"]] = Document(doc["languageId"], doc["version"], doc["text"])
        elif method == "textDocument/didChange":
            self._changed(params)
        elif method == "textDocument/didClose":
            self.documents.pop(params["textDocument"]["uri"], None)

    def from_daemon(self, message: dict[str, Any] | None) -> bool:
        """Record an answer; False for the answer to a replayed initialize (not the editor's)."""
        if message is None or "method" in message:
            return True
        if message.get("id") == REPLAYED_ID:
            return False
        self.pending.pop(message.get("id"), None)
        return True

    def _changed(self, params: dict[str, Any]) -> None:
        doc = self.documents.get(params["textDocument"]["uri"])
        if doc is None:
            return
        for change in params.get("contentChanges", []):
            doc.text = apply_change(doc.text, change)
        doc.version = params["textDocument"].get("version", doc.version)

    def replay(self) -> list[bytes]:
        """Frames that bring a new daemon to the editor's state (after its initialize answer,
        ``after_initialize`` follows)."""
        if self.initialize is None:
            return list(self.pending.values())
        return [frame({"jsonrpc": "2.0", "id": REPLAYED_ID, "method": "initialize",
                       "params": self.initialize})]  # fmt: skip

    def after_initialize(self) -> list[bytes]:
        frames: list[bytes] = []
        if self.initialized:
            frames.append(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        for uri, doc in self.documents.items():
            item = {"uri": uri, "languageId": doc.language_id, "version": doc.version,
                    "text": doc.text}  # fmt: skip
            frames.append(
                frame(
                    {
                        "jsonrpc": "2.0",
                        "method": "textDocument/didOpen",
                        "params": {"textDocument": item},
                    }
                )
            )
        return frames + list(self.pending.values())


def apply_change(text: str, change: dict[str, Any]) -> str:
    """One ``contentChanges`` entry applied (positions in UTF-16 code units, LSP's default)."""
    span = change.get("range")
    if span is None:
        return str(change["text"])
    start = _offset(text, span["start"]["line"], span["start"]["character"])
    end = _offset(text, span["end"]["line"], span["end"]["character"])
    return text[:start] + str(change["text"]) + text[end:]


def _offset(text: str, line: int, character: int) -> int:
    at = 0
    for _ in range(line):
        nl = _next_break(text, at)
        if nl is None:
            return len(text)
        at = nl
    units = 0
    while at < len(text) and text[at] not in "\r\n" and units < character:
        units += 2 if ord(text[at]) > 0xFFFF else 1
        at += 1
    return at


def _next_break(text: str, at: int) -> int | None:
    """The offset just past the next line break (``\\r\\n``, ``\\r`` or ``\\n``) from ``at``."""
    for i in range(at, len(text)):
        if text[i] == "\n":
            return i + 1
        if text[i] == "\r":
            return i + 2 if text[i + 1 : i + 2] == "\n" else i + 1
    return None

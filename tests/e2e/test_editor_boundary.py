"""The editor proxy's edges, over the real proxy and the session's daemon (issue 20, item 17 and
the LSP framing fuzz).

- A request before ``initialize`` is answered ``ServerNotInitialized`` (-32002); a notification
  then is dropped; after ``initialize`` the session serves as ever (real pyright).
- Generated LSP framing (``Content-Length`` headers right, wrong, huge or missing; bodies JSON,
  near-JSON or bytes) written on an attached connection, then a hang-up: the proxy answers or
  closes — the connection always reaches its end before a deadline, never hangs — and the daemon
  still answers ``status``.
"""

from __future__ import annotations

import json
import shutil
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from prewrite.client import Client
from tests.fuzz.bounds import bounded
from tests.support.lsp_editor import WAIT_S, Editor, codes

if TYPE_CHECKING:
    from prewrite.runtime import RuntimePaths

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

CLOSE_S = 20.0  # a hung-up connection's end, at most (the proxy closes it at once)


async def test_a_request_before_initialize_is_server_not_initialized(
    daemon: RuntimePaths, tmp_path: Path
) -> None:
    root = (tmp_path / "repo").resolve()
    root.mkdir()
    (root / "a.py").write_text("x: int = 'no'\n")
    ed = Editor(root)
    prewrite = shutil.which("prewrite", path=str(Path(sys.executable).parent))
    assert prewrite is not None
    await ed.client.start_io(prewrite, "lsp")  # pyright: ignore[reportUnknownMemberType]
    try:
        where = types.TextDocumentIdentifier(ed.uri("a.py"))
        hover = types.HoverParams(where, types.Position(0, 0))
        with pytest.raises(JsonRpcException) as caught:
            await ed.client.text_document_hover_async(hover)
        assert caught.value.code == types.ErrorCodes.ServerNotInitialized == -32002
        ed.open("a.py")  # a notification before initialize: dropped, nothing published
        uri = root.as_uri()
        await ed.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                root_uri=uri,
                workspace_folders=[types.WorkspaceFolder(uri, "repo")],
            )
        )
        ed.client.initialized(types.InitializedParams())
        ed.edit("a.py", "x: int = 'no'\ny: str = 1\n")  # opened before: pygls never had it
        ed.open("b.py", "z: int = 'b'\n")
        assert codes(await ed.diagnostics("b.py", 1)) == [(0, "reportAssignmentType")]
        assert ed.uri("a.py") not in ed.published
        await ed.client.text_document_hover_async(hover)  # served now: no error raised
    finally:
        await ed.stop()


# --- framing fuzz ---------------------------------------------------------------------------------

_METHODS = [
    "initialize",
    "shutdown",
    "textDocument/hover",
    "textDocument/didOpen",
    "textDocument/definition",
    "$/cancelRequest",
    "workspace/symbol",
    "no/such",
]
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def messages(draw: st.DrawFn) -> bytes:
    """One JSON-RPC message body: a request, a notification, or any JSON at all."""
    kind = draw(st.sampled_from(["request", "notification", "any"]))
    if kind == "any":
        return json.dumps(draw(_json_values)).encode()
    message: dict[str, object] = {"jsonrpc": "2.0", "method": draw(st.sampled_from(_METHODS))}
    if kind == "request":
        message["id"] = draw(st.integers(0, 1000) | st.text(max_size=5))
    if draw(st.booleans()):
        message["params"] = draw(_json_values)
    return json.dumps(message).encode()


@st.composite
def frames(draw: st.DrawFn) -> bytes:
    """A frame: the right length, a wrong, huge or missing one, or no header at all."""
    body = draw(messages() | st.binary(max_size=64))
    shape = draw(st.sampled_from(["right", "short", "long", "huge", "none", "bad", "raw"]))
    length = {
        "right": len(body),
        "short": max(0, len(body) - draw(st.integers(1, 10))),
        "long": len(body) + draw(st.integers(1, 100)),
        "huge": draw(st.sampled_from([10**8, 2**40, 10**30])),
    }.get(shape)
    if shape == "raw":
        return body
    if shape == "none":
        return b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body
    if shape == "bad":
        header = draw(
            st.sampled_from([b"Content-Length: -5", b"Content-Length: x", b"Content-Length:"])
        )
        return header + b"\r\n\r\n" + body
    return f"Content-Length: {length}\r\n\r\n".encode() + body


def _until_closed(sock: socket.socket, deadline: float) -> bytes:
    """Everything the proxy sends until it closes the connection (TimeoutError past deadline)."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the proxy kept the connection open")
        sock.settimeout(left)
        try:
            chunk = sock.recv(1 << 16)
        except ConnectionResetError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


@bounded(150)
@given(sent=st.lists(frames(), min_size=1, max_size=5))
def test_generated_lsp_framing_is_answered_or_closed_never_hung(
    daemon: RuntimePaths, sent: list[bytes]
) -> None:
    with Client(paths=daemon, autostart=False) as client:
        sock = client.attach_editor()
    with sock:
        try:
            sock.sendall(b"".join(sent))
            sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the proxy closed first (a frame it refused): the end we wait for below
        received = _until_closed(sock, time.monotonic() + CLOSE_S)
    for line in received.split(b"\r\n"):  # whatever it answered is LSP framing, never a trace
        assert b"Traceback" not in line
    with Client(paths=daemon, autostart=False, call_timeout_s=WAIT_S) as after:
        assert after.status().pid > 0


def test_a_message_over_the_limit_ends_the_session_at_once(daemon: RuntimePaths) -> None:
    """A header naming a terabyte: refused as read (the connection still open on our side), not
    buffered while the editor streams it."""
    with Client(paths=daemon, autostart=False) as client:
        sock = client.attach_editor()
    with sock:
        sock.sendall(f"Content-Length: {2**40}\r\n\r\n".encode() + b"{" * 1000)
        assert _until_closed(sock, time.monotonic() + CLOSE_S) == b""
    with Client(paths=daemon, autostart=False, call_timeout_s=WAIT_S) as after:
        assert after.status().pid > 0

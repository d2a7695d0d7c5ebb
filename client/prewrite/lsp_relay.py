"""``prewrite lsp``: an editor's language server, relayed to the daemon's warm checkers.

The editor starts ``prewrite lsp`` as its language server over stdio. This process connects to
the per-user daemon (starting it when needed), turns the connection into an editor session
(``EditorAttach``), and from then on copies bytes: stdin to the daemon, the daemon to stdout.
It parses nothing of LSP; the daemon is the language server (``prewrite_daemon.editor``). It
stays light: the standard library and the client's socket code only.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
from typing import TYPE_CHECKING, BinaryIO

from prewrite.client import Client

if TYPE_CHECKING:
    from prewrite.runtime import RuntimePaths

CHUNK = 1 << 16


def _pump_in(source: BinaryIO, sock: socket.socket) -> None:
    """Editor -> daemon until the editor closes stdin; then half-close so the daemon sees EOF."""
    fd = source.fileno()
    try:
        while chunk := os.read(fd, CHUNK):  # what is there now, not a full buffer
            sock.sendall(chunk)
    except OSError:
        pass
    finally:
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def relay(sock: socket.socket, source: BinaryIO, sink: BinaryIO) -> None:
    """Copy ``source`` to ``sock`` and ``sock`` to ``sink`` until the daemon closes its side."""
    sock.settimeout(None)
    feeder = threading.Thread(target=_pump_in, args=(source, sock), daemon=True)
    feeder.start()
    try:
        while chunk := sock.recv(CHUNK):
            sink.write(chunk)
            sink.flush()
    except OSError:
        pass
    finally:
        sock.close()


def run_lsp(paths: RuntimePaths | None = None, autostart: bool = True) -> int:
    """Attach to the daemon as an editor session over this process's stdin and stdout."""
    client = Client(autostart=autostart, paths=paths)
    sock = client.attach_editor()
    print(f"prewrite lsp: attached to daemon pid {client.daemon_pid}", file=sys.stderr)
    relay(sock, sys.stdin.buffer, sys.stdout.buffer)
    return 0

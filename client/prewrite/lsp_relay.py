"""``prewrite lsp``: an editor's language server, relayed to the daemon's warm checkers.

The editor starts ``prewrite lsp`` as its language server over stdio. This process connects to
the per-user daemon (starting it when needed), turns the connection into an editor session
(``EditorAttach``) and passes messages both ways unchanged; the daemon is the language server
(``prewrite_daemon.editor``). It reads the editor's messages only to keep a record
(``lsp_replay.py``): if the daemon goes away while the editor is still there (a stop, an
upgrade, a crash), the relay attaches to a new daemon and replays the editor's ``initialize``,
its open documents with their current text, and its unanswered requests, so the editor keeps
working and gets fresh diagnostics, not stale ones. Standard library and the client only.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from typing import TYPE_CHECKING, BinaryIO

from prewrite.client import Client
from prewrite.errors import PrewriteError
from prewrite.lsp_replay import FrameReader, SessionRecord

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite.runtime import RuntimePaths

CHUNK = 1 << 16
RECONNECT_TRIES = 20
RECONNECT_PAUSE_S = 0.5


class Relay:
    def __init__(self, connect: Callable[[], socket.socket], source: BinaryIO, sink: BinaryIO):
        self.connect = connect
        self.source = source
        self.sink = sink
        self.record = SessionRecord()
        self.sock = connect()
        self._lock = threading.Lock()  # one writer to the daemon; the record changes under it
        self._ready = True  # False between losing a daemon and replaying to the next one
        self._editor_gone = threading.Event()

    def run(self) -> int:
        feeder = threading.Thread(target=self._pump_in, daemon=True)
        feeder.start()
        while True:
            self._pump_out()
            if self._editor_gone.is_set() or self.record.exited:
                return 0
            if not self._reconnect():
                print("prewrite lsp: the daemon is gone and no new one starts", file=sys.stderr)
                return 1

    def _pump_in(self) -> None:
        """Editor -> daemon. During a reconnection messages are only recorded: the replay
        carries their effect (documents) and the requests among them."""
        reader = FrameReader()
        fd = self.source.fileno()
        try:
            while chunk := os.read(fd, CHUNK):
                for raw, message in reader.feed(chunk):
                    with self._lock:
                        self.record.from_editor(raw, message)
                        if self._ready:
                            self._send(raw)
        except OSError:
            pass
        self._editor_gone.set()
        with self._lock:
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def _pump_out(self) -> None:
        """Daemon -> editor until this daemon's connection ends."""
        reader = FrameReader()
        try:
            while chunk := self.sock.recv(CHUNK):
                for raw, message in reader.feed(chunk):
                    if self.record.from_daemon(message):
                        self.sink.write(raw)
                        self.sink.flush()
                    else:  # the answer to a replayed initialize: the rest of the replay
                        with self._lock:
                            for frame in self.record.after_initialize():
                                self._send(frame)
                            self._ready = True
        except OSError:
            pass

    def _reconnect(self) -> bool:
        with self._lock:
            self._ready = False
            self.sock.close()
        for _ in range(RECONNECT_TRIES):
            try:
                sock = self.connect()
            except (PrewriteError, OSError):
                time.sleep(RECONNECT_PAUSE_S)
                continue
            with self._lock:
                self.sock = sock
                replay = self.record.replay()
                for frame in replay:
                    self._send(frame)
                if self.record.initialize is None:
                    self._ready = True
            print("prewrite lsp: the daemon restarted; session replayed", file=sys.stderr)
            return True
        return False

    def _send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except OSError:
            pass  # the daemon is gone: _pump_out sees it and reconnects


def run_lsp(paths: RuntimePaths | None = None, autostart: bool = True) -> int:
    """Attach to the daemon as an editor session over this process's stdin and stdout."""

    def connect() -> socket.socket:
        client = Client(autostart=autostart, paths=paths)
        sock = client.attach_editor()
        sock.settimeout(None)
        return sock

    return Relay(connect, sys.stdin.buffer, sys.stdout.buffer).run()

"""A fake language server on pygls whose misbehaviour is chosen on the command line.

    python fake_lsp.py BEHAVIOUR [--marker FILE]

Every behaviour except ``no-initialize`` answers ``initialize`` with ``diagnosticProvider`` (pygls
announces the feature), and every one except ``static-pull`` then registers pull diagnostics
dynamically after ``initialized``, as pyright does. Behaviours:

``healthy``            answers every diagnostic pull with one error
``static-pull``        never registers dynamically; a pull's one error names the document's
                       ``languageId`` and version (``LANGUAGE_ID vVERSION``)
``chatty``             healthy, but sends notifications no client knows (``fake/unknown``,
                       ``$/fake``) after ``initialized`` and before answering each pull
``no-initialize``      never answers ``initialize``
``hang-diagnostic``    never answers ``textDocument/diagnostic``
``crash-diagnostic``   exits (code 3) when a diagnostic pull arrives
``garbage-diagnostic`` writes bytes that are not JSON-RPC instead of answering, then hangs
``flood-diagnostic``   writes one line longer than any reader's limit instead, then hangs
``ignore-shutdown``    never answers ``shutdown``, ignores ``exit`` and SIGTERM

With ``--marker FILE``, a SIGTERM is noted in FILE (and survived by ``ignore-shutdown`` only).
With ``--cancelled FILE``, a hanging pull the client cancels (``$/cancelRequest``) is noted there.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

BEHAVIOURS = (
    "healthy",
    "static-pull",
    "chatty",
    "no-initialize",
    "hang-diagnostic",
    "crash-diagnostic",
    "garbage-diagnostic",
    "flood-diagnostic",
    "ignore-shutdown",
)
PULL = lsp.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=False)
UNKNOWN_NOTIFICATIONS = ("fake/unknown", "$/fake")
cancelled_log: Path | None = None  # --cancelled
GARBAGE = b"this is not a header\r\nContent-Length: 12\r\n\r\n{not json!!}\x00\xff\xfe\r\n\r\n"


def fake_error(message: str) -> lsp.Diagnostic:
    return lsp.Diagnostic(
        range=lsp.Range(lsp.Position(1, 4), lsp.Position(1, 9)),
        message=message,
        severity=lsp.DiagnosticSeverity.Error,
        code="reportFake",
        source="fake",
    )


FAKE_ERROR = fake_error("fake\n\u00a0\u00a0problem")


async def forever() -> None:
    await asyncio.Event().wait()


def build(behaviour: str) -> LanguageServer:
    server = LanguageServer("fake-lsp", "0")

    if behaviour == "no-initialize":

        @server.feature(lsp.INITIALIZE)
        async def _never_initialize(params: lsp.InitializeParams) -> None:
            await forever()

    def chatter() -> None:
        if behaviour == "chatty":
            for method in UNKNOWN_NOTIFICATIONS:
                server.protocol.notify(method, {"anything": [1, "two", None]})

    @server.feature(lsp.INITIALIZED)
    async def _register_pull(params: lsp.InitializedParams) -> None:
        chatter()
        if behaviour == "static-pull":
            return
        registration = lsp.Registration(
            id="fake-pull", method=lsp.TEXT_DOCUMENT_DIAGNOSTIC, register_options=PULL
        )
        await server.client_register_capability_async(lsp.RegistrationParams([registration]))

    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC, PULL)
    async def _diagnostic(params: lsp.DocumentDiagnosticParams) -> Any:
        chatter()
        if behaviour == "static-pull":
            doc = server.workspace.get_text_document(params.text_document.uri)
            message = f"{doc.language_id} v{doc.version}"
            return lsp.RelatedFullDocumentDiagnosticReport(items=[fake_error(message)])
        if behaviour == "hang-diagnostic":
            try:
                await forever()
            except asyncio.CancelledError:  # pygls cancels the handler on $/cancelRequest
                if cancelled_log is not None:
                    with cancelled_log.open("a") as noted:
                        noted.write("cancelled\n")
                raise
        if behaviour == "crash-diagnostic":
            os._exit(3)
        if behaviour == "garbage-diagnostic":
            sys.stdout.buffer.write(GARBAGE)
            sys.stdout.buffer.flush()
            await forever()
        if behaviour == "flood-diagnostic":
            sys.stdout.buffer.write(b"x" * (1 << 20))  # blocks when the client stops reading
            sys.stdout.buffer.flush()
            await forever()
        return lsp.RelatedFullDocumentDiagnosticReport(items=[FAKE_ERROR])

    if behaviour == "ignore-shutdown":

        @server.feature(lsp.SHUTDOWN)
        async def _never_shut_down(params: None) -> None:
            await forever()

        @server.feature(lsp.EXIT)
        async def _never_exit(params: None) -> None:
            await forever()

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("behaviour", choices=BEHAVIOURS)
    parser.add_argument("--marker", type=Path, help="file written when SIGTERM is ignored")
    parser.add_argument("--cancelled", type=Path, help="file noting each cancelled pull")
    args = parser.parse_args()
    global cancelled_log
    cancelled_log = args.cancelled
    marker: Path | None = args.marker
    if marker is not None:
        ignore = args.behaviour == "ignore-shutdown"

        def note_sigterm(signum: int, frame: object) -> None:
            assert marker is not None
            marker.write_text("SIGTERM ignored\n" if ignore else "SIGTERM\n")
            if not ignore:
                os._exit(0)

        signal.signal(signal.SIGTERM, note_sigterm)
    build(args.behaviour).start_io()


if __name__ == "__main__":
    main()

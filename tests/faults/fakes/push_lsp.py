"""A fake push-only language server on pygls: no pull diagnostics, only ``publishDiagnostics``.

    python push_lsp.py BEHAVIOUR

It announces no ``diagnosticProvider`` and registers nothing. Each published diagnostic's message
says what the server saw, ``LANGUAGE_ID vVERSION #ROUND``: ROUND counts the server's publishing
rounds, so a test can tell a fresh publish from an earlier one of the same version. Behaviours:

``push``         after every didOpen/didChange/didClose, publishes every open document with its
                 version (as tsserver-based servers do)
``push-stale``   the same, but always as version 1, as if it never took in a change
``push-opened``  publishes only the document just opened, once
``push-silent``  never publishes
"""

from __future__ import annotations

import argparse
import itertools

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

BEHAVIOURS = ("push", "push-stale", "push-opened", "push-silent")


def build(behaviour: str) -> LanguageServer:
    server = LanguageServer("fake-push-lsp", "0")
    rounds = itertools.count(1)

    def publish(uris: list[str]) -> None:
        round_ = next(rounds)
        for uri in uris:
            doc = server.workspace.get_text_document(uri)
            version = 1 if behaviour == "push-stale" else doc.version or 0
            diagnostic = lsp.Diagnostic(
                range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)),
                message=f"{doc.language_id} v{version} #{round_}",
                severity=lsp.DiagnosticSeverity.Error,
                code="reportPushed",
                source="fake-push",
            )
            params = lsp.PublishDiagnosticsParams(uri, [diagnostic], version)
            server.text_document_publish_diagnostics(params)

    def after_notification(opened: str | None = None) -> None:
        if behaviour in ("push", "push-stale"):
            publish(list(server.workspace.text_documents))
        elif behaviour == "push-opened" and opened is not None:
            publish([opened])

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def _opened(params: lsp.DidOpenTextDocumentParams) -> None:
        after_notification(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def _changed(params: lsp.DidChangeTextDocumentParams) -> None:
        after_notification()

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def _closed(params: lsp.DidCloseTextDocumentParams) -> None:
        after_notification()

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("behaviour", choices=BEHAVIOURS)
    build(parser.parse_args().behaviour).start_io()


if __name__ == "__main__":
    main()

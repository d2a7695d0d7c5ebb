"""The editor side's LSP protocol: pygls's, minus what must not happen inside a daemon.

pygls's ``exit`` handler ends the process (``sys.exit``): here it would stop the daemon and
every other editor and agent with it, so an editor's ``exit`` only ends its own session. Positions
are UTF-16 (LSP's default and what pyright and tsc speak), so an editor that prefers UTF-8 is not
offered it: positions pass through to the checker unconverted. What an editor is offered is
here too: the requests relayed to the checker as they are (``RELAYED``), cut to what the warm
checker itself offers (``offered``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import attrs
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound, JsonRpcServerNotInitialized
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import RPCRequest

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pygls.protocol.json_rpc import RPCMessage

    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.editor.uris import PathMap

log = logging.getLogger(__name__)
# What an editor may send before ``initialize`` (LSP: "the server should respond with an error
# of code -32002 to any request, and drop notifications, except the exit notification").
_BEFORE_INITIALIZE = frozenset({types.INITIALIZE, types.EXIT})

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


# What the editor is offered, per feature: only what the warm checker itself offers.
PROVIDERS = (
    "hover_provider",
    "definition_provider",
    "declaration_provider",
    "type_definition_provider",
    "references_provider",
    "document_symbol_provider",
    "completion_provider",
    "signature_help_provider",
    "rename_provider",
    "code_action_provider",
    "implementation_provider",
    "document_highlight_provider",
    "folding_range_provider",
    "selection_range_provider",
)


# Requests relayed to the checker as they are (paths mapped), with the options announced.
RELAYED: dict[str, object | None] = {
    types.TEXT_DOCUMENT_HOVER: None,
    types.TEXT_DOCUMENT_DEFINITION: None,
    types.TEXT_DOCUMENT_DECLARATION: None,
    types.TEXT_DOCUMENT_TYPE_DEFINITION: None,
    types.TEXT_DOCUMENT_REFERENCES: None,
    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL: None,
    types.TEXT_DOCUMENT_COMPLETION: types.CompletionOptions(
        trigger_characters=[".", "[", '"', "'"], resolve_provider=True
    ),
    types.TEXT_DOCUMENT_SIGNATURE_HELP: types.SignatureHelpOptions(
        trigger_characters=["(", ","], retrigger_characters=[")"]
    ),
    types.TEXT_DOCUMENT_RENAME: types.RenameOptions(prepare_provider=True),
    types.TEXT_DOCUMENT_PREPARE_RENAME: None,
    types.TEXT_DOCUMENT_CODE_ACTION: None,
    types.TEXT_DOCUMENT_IMPLEMENTATION: None,
    types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT: None,
    types.TEXT_DOCUMENT_FOLDING_RANGE: None,
    types.TEXT_DOCUMENT_SELECTION_RANGE: None,
}


class EditorProtocol(LanguageServerProtocol):
    on_exit: Callable[[], None] | None = None
    checker_capabilities: types.ServerCapabilities | None = None  # set by the session
    relay: Callable[[str], Any] | None = None  # a handler relaying any request to the checker
    initialize_seen = False  # ``initialize`` received: requests are served from now on

    def handle_message(self, message: RPCMessage) -> None:
        """Before ``initialize``: a request is ``ServerNotInitialized`` (-32002), a notification
        dropped; ``initialize`` and ``exit``, and every message after, as pygls handles them."""
        method = getattr(message, "method", None)
        if self.initialize_seen or method is None or method in _BEFORE_INITIALIZE:
            super().handle_message(message)
        elif isinstance(message, RPCRequest):
            error = JsonRpcServerNotInitialized(f"{method} before initialize")
            self._send_response(message.id, None, error.to_response_error())
        else:
            log.info("dropped the notification %s sent before initialize", method)

    def _get_handler(self, feature_name: str) -> Any:
        """Our handler; else, for a ``textDocument/`` request we do not serve ourselves, the
        session's relay (paths mapped, the checker answers or declines); else not found."""
        try:
            return super()._get_handler(feature_name)
        except JsonRpcMethodNotFound:
            known = types.METHOD_TO_TYPES.get(feature_name)
            request = known is not None and "id" in attrs.fields_dict(known[0])
            if self.relay is None or not request or not feature_name.startswith("textDocument/"):
                raise
            return self.relay(feature_name)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, Any]:
        self.initialize_seen = True
        general = params.capabilities.general
        if general is not None:
            general.position_encodings = [types.PositionEncodingKind.Utf16]
        result: types.InitializeResult = yield from super().lsp_initialize(params)
        return offered(result, self.checker_capabilities)

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        """End this editor's session only (the daemon serves others)."""
        if self.on_exit is not None:
            self.on_exit()
        if self.writer is not None:
            self.writer.close()
        yield from ()


def to_lsp_diagnostic(raw: RawDiagnostic, paths: PathMap) -> types.Diagnostic:
    """A checker diagnostic as the editor gets it (paths in the message mapped back)."""
    return types.Diagnostic(
        range=types.Range(
            types.Position(raw.line, raw.column), types.Position(raw.end_line, raw.end_column)
        ),
        message=paths.to_real(raw.message),
        severity=_SEVERITY.get(raw.severity, types.DiagnosticSeverity.Error),
        code=raw.rule or None,
        source=raw.source or None,
    )


def offered(
    ours: types.InitializeResult, checker: types.ServerCapabilities | None
) -> types.InitializeResult:
    """Our capabilities cut to the warm checker's: a feature it lacks is not announced, and
    completion and signature help carry its trigger characters (unchanged without a checker)."""
    if checker is None:
        return ours
    for name in PROVIDERS:
        theirs = getattr(checker, name)
        if theirs is None or theirs is False:
            setattr(ours.capabilities, name, None)
        elif name in ("completion_provider", "signature_help_provider"):
            setattr(ours.capabilities, name, theirs)
    return ours

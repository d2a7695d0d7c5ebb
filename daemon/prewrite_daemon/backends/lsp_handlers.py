"""The handlers ``LspProcess`` registers with pygls: what a language server may send unasked.

One table, so what is answered and what is dropped can be read in one place: configuration
requests go to the owner's settings, capability registrations and published diagnostics to
``lsp_diagnostics``, log and show messages to our log at debug level; the server's own
notifications (``ServerQuirks.ignored_notifications``) and the protocol's bookkeeping are
ignored. Anything else pygls logs and ignores.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from collections.abc import Callable

    from pygls.lsp.client import LanguageClient

log = logging.getLogger(__name__)


def register_handlers(
    client: LanguageClient,
    ignored: frozenset[str],
    *,
    configuration: Callable[[lsp.ConfigurationParams], list[Any]],
    register: Callable[[lsp.RegistrationParams], None],
    publish: Callable[[lsp.PublishDiagnosticsParams], None],
) -> None:
    """Handlers for what servers send; anything else pygls logs and ignores."""

    def ignore(_params: object) -> None:
        return None

    handlers: dict[str, Callable[[Any], object]] = {
        **{method: ignore for method in ignored},
        lsp.WORKSPACE_CONFIGURATION: configuration,
        lsp.CLIENT_REGISTER_CAPABILITY: register,
        lsp.CLIENT_UNREGISTER_CAPABILITY: ignore,
        lsp.WINDOW_WORK_DONE_PROGRESS_CREATE: ignore,
        lsp.WORKSPACE_DIAGNOSTIC_REFRESH: ignore,
        lsp.WINDOW_LOG_MESSAGE: _on_log,
        lsp.WINDOW_SHOW_MESSAGE: _on_log,
        lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
        lsp.PROGRESS: ignore,
    }
    for method, handler in handlers.items():
        # pygls tags the handler function itself, so each gets a plain function of its own.
        client.feature(method)(_plain(handler))


def _on_log(params: lsp.LogMessageParams | lsp.ShowMessageParams) -> None:
    log.debug("[server] %s", params.message)


def _plain(handler: Callable[[Any], object]) -> Callable[[Any], object]:
    def call(params: Any) -> object:
        return handler(params)

    return call

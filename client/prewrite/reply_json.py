"""A reply or an error as one plain JSON object: the CLI's ``--json`` and the MCP server's
structured content, so the two never drift.

The object is the reply's fields, at every depth, never the wire frame: the ``op`` tag that
tells the daemon's replies apart (``"op": "check_reply"``) is framing, not part of the answer,
and is left out of nested replies too (``apply``'s ``check``). An error is
``{"error": {"code", "message", "details"}}`` with the stable code of ``prewrite.errors``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import msgspec

from prewrite.protocol import Message

if TYPE_CHECKING:
    from prewrite.errors import PrewriteError


def reply_fields(reply: Message) -> dict[str, Any]:
    """Every field of ``reply`` as JSON-ready values; nested replies without their tag."""
    return {name: _plain(getattr(reply, name)) for name in reply.__struct_fields__}


def _plain(value: object) -> Any:
    if isinstance(value, Message):
        return reply_fields(value)
    if isinstance(value, list):
        return [_plain(item) for item in cast("list[object]", value)]
    return msgspec.to_builtins(value)


def error_object(error: PrewriteError) -> dict[str, Any]:
    """``{"error": {"code", "message", "details"}}``; ``details`` items are ``{message, path}``."""
    return {
        "error": {
            "code": error.code,
            "message": error.message,
            "details": msgspec.to_builtins(error.details),
        }
    }


def json_line(obj: dict[str, Any]) -> str:
    """``obj`` as one line of JSON, newline-terminated (one object per exit)."""
    return msgspec.json.encode(obj).decode() + "\n"

"""The envelope of the wire schema: the protocol version and ``Message``, the tagged base.

Every request and reply is a ``Message`` subclass tagged by its ``op`` field; the peers agree on
``PROTOCOL_VERSION`` in the first message of every connection (``Hello``).
"""

from __future__ import annotations

import msgspec

PROTOCOL_VERSION = 1


class Message(msgspec.Struct, frozen=True, tag_field="op"):
    """Base of every request and reply: tagged by the ``op`` field."""

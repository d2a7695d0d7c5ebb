"""The patch on the wire: its files (``FileChange``) and their anchored edits (``Edit``)."""

from __future__ import annotations

import msgspec


class Edit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Replace the one place ``find`` anchors to in the file's real text with ``replace``."""

    find: str
    replace: str


class FileChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One file of a patch: new full ``content``, anchored ``edits``, or ``delete``.

    ``base_sha256`` is the hex SHA-256 of the file's bytes on disk as the author saw them, or
    ``None`` for a file that must not exist yet. ``edits`` apply in order to the file's text.
    """

    path: str
    base_sha256: str | None = None
    content: str | None = None
    delete: bool = False
    edits: list[Edit] | None = None


class Patch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A patch file as given to ``prewrite check --patch``."""

    changes: list[FileChange]

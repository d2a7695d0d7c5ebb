"""Claude Code's pending Write / Edit / MultiEdit, turned into the one-file prewrite patch it is.

The hook judges the file as it will be after the tool runs, against the file as it is on disk
now: ``base_sha256`` is read here, so a file that changes between this read and the daemon's
check is ``stale_base``, never a verdict on the wrong text. It is read as every repository file
is (``prewrite.files``): a FIFO, a device or a file over 128 MiB is ``unreadable_file``, refused
unread, never waited on.

- ``Write`` is the full new content (``base_sha256`` None for a file that does not exist yet).
- ``Edit`` is an anchored edit ``{find: old_string, replace: new_string}``: the daemon anchors it
  to the real text and answers ``find_ambiguous`` (every site) / ``find_mismatch`` (the closest
  lines), which is what the model needs to fix its edit. ``replace_all`` cannot be anchored (an
  anchor must be unique), so it is expanded here and sent as full content.
- ``MultiEdit`` is its edits in order, anchored the same way; when one of them is
  ``replace_all`` (or the file is new) all are applied here with the tool's own exact-string
  semantics, and a non-unique or missing ``old_string`` is refused here, naming its sites.

The input limits (``prewrite.admission``) hold here as in the daemon, checked before the work:
the path's characters and the text the tool sends before the file is read; a ``replace_all``'s
result by its computed size before it is built; sites named up to ``MAX_FIND_SITES``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from prewrite.admission import (
    MAX_FIND_SITES,
    check_path_chars,
    check_sent,
    check_written,
    text_bytes,
)
from prewrite.changes import sha256_hex
from prewrite.errors import BadRequest, ErrorDetail, FindAmbiguous, FindMismatch
from prewrite.files import SOURCE_LIMIT, read_regular
from prewrite.protocol import Edit, FileChange

if TYPE_CHECKING:
    from prewrite.hook_root import Target


class WriteInput(msgspec.Struct, frozen=True):
    file_path: str
    content: str


class EditInput(msgspec.Struct, frozen=True):
    file_path: str
    old_string: str
    new_string: str
    replace_all: bool = False


class MultiEditItem(msgspec.Struct, frozen=True):
    old_string: str
    new_string: str
    replace_all: bool = False


class MultiEditInput(msgspec.Struct, frozen=True):
    file_path: str
    edits: list[MultiEditItem]


ToolInput = WriteInput | EditInput | MultiEditInput
INPUT_TYPES: dict[str, type[ToolInput]] = {
    "Write": WriteInput,
    "Edit": EditInput,
    "MultiEdit": MultiEditInput,
}


def build_change(target: Target, tool: ToolInput) -> FileChange:
    """The prewrite change that stands for ``tool`` run on the file as it is on disk now."""
    check_path_chars(target.path)
    check_sent(target.path, sum(text_bytes(text) for text in _texts(tool)))
    disk = read_regular(target.root / target.path, SOURCE_LIMIT, name=target.path)
    base = None if disk is None else sha256_hex(disk)
    match tool:
        case WriteInput(content=content):
            return FileChange(target.path, base, content=content)
        case EditInput():
            items = [MultiEditItem(tool.old_string, tool.new_string, tool.replace_all)]
        case MultiEditInput(edits=items):
            pass
    if disk is not None and not any(i.replace_all for i in items):
        edits = [Edit(find=i.old_string, replace=i.new_string) for i in items]
        return FileChange(target.path, base, edits=edits)
    if disk is not None and len(items) == 1 and _text(disk).count(_eol(disk, items[0])[0]) == 0:
        # replace_all of text that is not there: anchored, so find_mismatch names the closest lines
        return FileChange(target.path, base, edits=[Edit(items[0].old_string, items[0].new_string)])
    return FileChange(target.path, base, content=apply_edits(target.path, disk, items))


def _texts(tool: ToolInput) -> list[str]:
    """The text ``tool`` sends: its content, or its old and new strings."""
    match tool:
        case WriteInput(content=content):
            return [content]
        case EditInput():
            return [tool.old_string, tool.new_string]
        case MultiEditInput(edits=items):
            return [text for item in items for text in (item.old_string, item.new_string)]


def apply_edits(path: str, disk: bytes | None, items: list[MultiEditItem]) -> str:
    """The tool's own semantics: exact strings, in order; ``old_string`` "" on a missing file
    creates it; an ``old_string`` that is not unique (without ``replace_all``) or absent fails."""
    if disk is None:
        if not items or items[0].old_string:
            raise BadRequest(
                f"{path} does not exist: an edit needs an existing file (use Write to create it)",
                [ErrorDetail("file not found", path)],
            )
        text, items = items[0].new_string, items[1:]
    else:
        text = _text(disk)
    for index, item in enumerate(items, start=1):
        find, replace = _eol(text.encode(), item)
        count = text.count(find) if find else 0
        if count == 0:
            raise FindMismatch(
                f"{path}: edit {index}: old_string matches nothing in the file (as edited so far)",
                [ErrorDetail("old_string not found", path)],
            )
        if count > 1 and not item.replace_all:
            raise FindAmbiguous(
                f"{path}: edit {index}: old_string matches {count} places; make it longer "
                "or set replace_all",
                [ErrorDetail(f"{count} sites", path), *_sites(text, find)],
            )
        if item.replace_all:  # its size known before it is built: 2 million sites could blow up
            _check_size(path, text_bytes(text) + count * (text_bytes(replace) - text_bytes(find)))
        text = text.replace(find, replace) if item.replace_all else text.replace(find, replace, 1)
    return text


def _check_size(path: str, size: int) -> None:
    """The file as the edits would make it is sent whole: it must be within the limits."""
    check_sent(path, size)
    check_written(path, size)


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(
            f"the file is not UTF-8 text ({exc.reason}); prewrite cannot edit it"
        ) from exc


def _eol(data: bytes, item: MultiEditItem) -> tuple[str, str]:
    """A CRLF file is edited with CRLF strings, as the daemon's anchoring does."""
    if b"\r\n" not in data:
        return item.old_string, item.new_string
    return _crlf(item.old_string), _crlf(item.new_string)


def _crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _sites(text: str, find: str) -> list[ErrorDetail]:
    """The first ``MAX_FIND_SITES`` sites of ``find``: line and first line (lines counted once)."""
    details: list[ErrorDetail] = []
    line, counted = 1, 0
    at = text.find(find)
    while at >= 0 and len(details) < MAX_FIND_SITES:
        line += text.count("\n", counted, at)
        counted = at
        piece = text[at : at + 1000]
        first = piece.splitlines()[0] if piece else ""
        details.append(ErrorDetail(f"line {line}: {first[:200]}"))
        at = text.find(find, at + max(1, len(find)))
    return details

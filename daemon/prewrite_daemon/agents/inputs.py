"""Tool arguments: the patch schema a model fills in, and its translation to wire ``FileChange``s.

The schema is pydantic because the SDK derives the tool's input schema from it; the wire schema
stays ``prewrite.protocol``. Validation that has a stable error code (exactly one of content,
edits, delete; paths inside the root) is left to the daemon, so the model gets the same code
the CLI would, not a schema error.

The one decision made here is the omitted ``base_sha256`` (a model often cannot compute a
SHA-256, and JSON has no way to say "omitted" other than leaving the key out):

- given (a hex string, or null): sent as is;
- omitted with ``edits``: the hash of the file's bytes on disk now. Safe because ``find`` anchors
  each edit to the real text: an edit written for other text fails with ``find_mismatch``
  instead of landing somewhere wrong;
- omitted with ``content`` on a path with no file: null (a new file);
- omitted with ``content`` or ``delete`` on an existing file: refused (``bad_request``). A
  whole-file rewrite anchors to nothing, so only the hash of the bytes the model read proves it
  rewrote the file it read. The refusal never names the file's hash now (issue 20, item 15):
  copied back, it would let a model overwrite a file it never read.

The input limits and the paths' characters (``prewrite.admission``) are checked first, before
any file is read. Files are only read to hash them when the path resolves inside the root;
anything else is sent unresolved and the daemon refuses it with its own code
(``path_outside_workspace``, ...).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import msgspec
from pydantic import BaseModel, ConfigDict, Field

from prewrite.admission import admit, check_path_chars
from prewrite.errors import BadRequest, ErrorDetail, InvalidWorkspace
from prewrite.files import sha256_regular
from prewrite.protocol import Edit, FileChange
from prewrite_daemon.agents import guide

RungName = Literal["parse", "format", "lint", "typecheck", "review", "tests"]


class EditInput(BaseModel):
    """One anchored edit: `find` must occur exactly once in the file's real text; that place
    is replaced by `replace`. (Shown to the model as the schema's description.)"""

    model_config = ConfigDict(extra="forbid")

    find: str = Field(description=guide.FIND)
    replace: str = Field(description=guide.REPLACE)


class ChangeInput(BaseModel):
    """One file of the patch: `path`, optionally `base_sha256`, and exactly one of `content`,
    `edits`, `delete`. (Shown to the model as the schema's description.)"""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(description=guide.PATH)
    base_sha256: str | None = Field(default=None, description=guide.BASE)
    content: str | None = Field(default=None, description=guide.CONTENT)
    edits: list[EditInput] | None = Field(default=None, description=guide.EDITS)
    delete: bool = Field(default=False, description=guide.DELETE)


def resolve_root(given: str | None, default: Path | None) -> Path:
    """The workspace a call names: ``given`` (relative to the default), else the default.

    The filesystem root is refused: an MCP host that starts servers in ``/`` (Claude Desktop
    does) would otherwise make a whole-disk workspace of a call that forgot ``root``.
    """
    if given:
        check_path_chars(given)  # a NUL or a newline: a typed refusal, never a ValueError
    base = default if default is not None else Path.cwd()
    root = (base / given) if given else base
    root = root.resolve()
    if root == Path(root.anchor):
        raise InvalidWorkspace(
            f"the workspace root would be {root}: pass `root`, the repository's absolute path",
            [ErrorDetail("no workspace named", str(root))],
        )
    return root


def to_file_changes(root: Path, changes: list[ChangeInput]) -> list[FileChange]:
    """The wire changes, within the input limits, with omitted bases settled as the module
    docstring says."""
    given = [_to_file_change(change) for change in changes]
    admit(given)  # before a file is read to settle a base
    return [
        change if "base_sha256" in sent.model_fields_set
        else msgspec.structs.replace(change, base_sha256=_omitted_base(root, sent))
        for change, sent in zip(given, changes, strict=True)
    ]  # fmt: skip


def _to_file_change(change: ChangeInput) -> FileChange:
    edits = None if change.edits is None else [Edit(e.find, e.replace) for e in change.edits]
    return FileChange(
        path=change.path, base_sha256=change.base_sha256, content=change.content,
        delete=change.delete, edits=edits,
    )  # fmt: skip


def _omitted_base(root: Path, change: ChangeInput) -> str | None:
    kinds = (change.content is not None) + (change.edits is not None) + change.delete
    target = _inside(root, change.path)
    if kinds != 1 or target is None or not target.is_file():
        return None  # the daemon answers these with their own codes (bad_request, stale_base)
    if change.edits is not None:
        return sha256_regular(target, name=change.path)  # bounded: a FIFO, a device refused
    what = "delete" if change.delete else "replace the whole content of"
    raise BadRequest(
        f"base_sha256 is required to {what} an existing file: {change.path} exists on disk. "
        "Read the file and send the SHA-256 of the bytes you read; or change it with `edits` "
        "(find/replace), which need no hash",
        [ErrorDetail("exists on disk; base_sha256 omitted", change.path)],
    )


def _inside(root: Path, path: str) -> Path | None:
    """``root/path`` resolved, when it stays inside ``root``; else None (never read)."""
    if not path or os.path.isabs(path):
        return None
    try:
        target = (root / path).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None
    return target if target.is_relative_to(root) else None

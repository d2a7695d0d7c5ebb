"""Tool arguments: the patch schema a model fills in, and its translation to wire ``FileChange``s.

The schema is pydantic because the SDK derives the tool's input schema from it; the wire schema
stays ``prewrite.protocol``. Validation that has a stable error code (exactly one of content,
edits, delete; paths inside the root) is left to the daemon, so the model gets the same code
the CLI would, not a schema error.

A ``base_sha256`` the model leaves out is settled as the CLI settles it
(``prewrite.changes.settle_omitted_bases``: with ``edits``, the file on disk now; a new file's
``content``, null; a rewrite or delete of an existing file, refused): this module only tells
"omitted" from "null", which pydantic knows (``model_fields_set``) and the wire cannot say.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from prewrite.admission import check_path_chars
from prewrite.changes import settle_omitted_bases
from prewrite.errors import ErrorDetail, InvalidWorkspace
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
    omitted = ["base_sha256" not in sent.model_fields_set for sent in changes]
    return settle_omitted_bases(root, [_to_file_change(c) for c in changes], omitted)


def _to_file_change(change: ChangeInput) -> FileChange:
    edits = None if change.edits is None else [Edit(e.find, e.replace) for e in change.edits]
    return FileChange(
        path=change.path, base_sha256=change.base_sha256, content=change.content,
        delete=change.delete, edits=edits,
    )  # fmt: skip

"""One rule for a change that leaves ``base_sha256`` out, wherever the patch comes from: the
CLI's ``--patch`` file and the MCP tool arguments settle it with the same function
(``prewrite.changes.settle_omitted_bases``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from prewrite.changes import settle_omitted_bases, sha256_hex
from prewrite.cli import main
from prewrite.errors import BadRequest
from prewrite.protocol import Edit, FileChange
from prewrite_daemon.agents.inputs import ChangeInput, EditInput, to_file_changes

if TYPE_CHECKING:
    from pathlib import Path

A_PY = "x = 1\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text(A_PY)
    return tmp_path.resolve()


def test_an_edit_without_a_base_is_anchored_to_the_file_on_disk_now(root: Path) -> None:
    edit = FileChange("a.py", edits=[Edit("1", "2")])
    [settled] = settle_omitted_bases(root, [edit], [True])
    assert settled.base_sha256 == sha256_hex(A_PY.encode())


def test_a_new_file_without_a_base_is_new(root: Path) -> None:
    [settled] = settle_omitted_bases(root, [FileChange("b.py", content="y = 1\n")], [True])
    assert settled.base_sha256 is None


@pytest.mark.parametrize(
    "change",
    [FileChange("a.py", content="x = 2\n"), FileChange("a.py", delete=True)],
    ids=["rewrite", "delete"],
)
def test_a_rewrite_or_delete_of_an_existing_file_needs_its_base(
    root: Path, change: FileChange
) -> None:
    with pytest.raises(BadRequest) as caught:
        settle_omitted_bases(root, [change], [True])
    assert "base_sha256 is required" in caught.value.message
    assert sha256_hex(A_PY.encode()) not in str(caught.value)  # never the hash to copy back


def test_a_given_base_is_kept_even_null(root: Path) -> None:
    given = FileChange("a.py", base_sha256=None, content="x = 2\n")
    assert settle_omitted_bases(root, [given], [False]) == [given]


def test_mcp_settles_as_the_cli_does(root: Path) -> None:
    sent = [ChangeInput(path="a.py", edits=[EditInput(find="1", replace="2")])]
    [wire] = to_file_changes(root, sent)
    assert (
        wire == settle_omitted_bases(root, [FileChange("a.py", edits=[Edit("1", "2")])], [True])[0]
    )


def test_the_cli_refuses_an_unhashed_rewrite_before_asking_the_daemon(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole-file rewrite without a base: ``bad_request`` from the client itself (no daemon
    is reached: ``--no-autostart`` and no daemon would otherwise be ``daemon_unavailable``)."""
    patch = root / "patch.json"
    patch.write_text(json.dumps({"changes": [{"path": "a.py", "content": "x = 2\n"}]}))
    argv = ["check", "--no-autostart", "--json", "--root", str(root), "--patch", str(patch)]
    assert main(argv) == 2
    out = capsys.readouterr().out
    assert json.loads(out)["error"]["code"] == "bad_request"

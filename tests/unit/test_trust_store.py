"""Issue 20, item 16: trust is given to a directory (its identity), not to its name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from prewrite.errors import BadRequest
from prewrite.trust import (
    Identity,
    directory_identity,
    is_trusted,
    set_trusted,
    trust_entries,
    trusted_roots,
    why_untrusted,
)

PREWRITE = str(Path(sys.executable).with_name("prewrite"))


@pytest.fixture
def listed(tmp_path: Path) -> tuple[Path, Path]:
    """(a trust file, a directory it trusts)."""
    root = tmp_path / "ws"
    root.mkdir()
    trust = tmp_path / "trusted"
    set_trusted(root, True, trust)
    return trust, root


def test_a_trusted_directory_and_what_is_below_it_are_trusted(listed: tuple[Path, Path]) -> None:
    trust, root = listed
    (root / "sub").mkdir()
    assert is_trusted(root, trust)
    assert is_trusted(root / "sub", trust)
    assert not is_trusted(root.parent, trust)
    [entry] = trust_entries(trust)
    identity = directory_identity(root)
    assert identity is not None
    assert entry.identity == identity
    assert trust.read_text() == f"{root}\t{identity.text()}\n"


def test_a_directory_deleted_and_made_again_is_not_trusted(listed: tuple[Path, Path]) -> None:
    """Made again at once: the file system may hand the same inode number out again (ext4
    does), which the generation (or birth time) still tells apart."""
    trust, root = listed
    before = directory_identity(root)
    root.rmdir()
    root.mkdir()
    assert directory_identity(root) != before
    assert not is_trusted(root, trust)
    assert not is_trusted(root / "sub", trust)
    assert why_untrusted(root, trust) == (
        f"the trusted folder {root} was replaced since it was trusted: "
        f"`prewrite trust {root}` again if it is yours"
    )
    assert trusted_roots(trust) == [root]  # still listed (the hook's roots), not trusted
    set_trusted(root, True, trust)
    assert is_trusted(root, trust)


def test_a_directory_moved_away_and_another_put_in_its_place_is_not_trusted(
    listed: tuple[Path, Path],
) -> None:
    trust, root = listed
    root.rename(root.with_name("moved"))
    root.mkdir()
    assert not is_trusted(root, trust)
    assert not is_trusted(root.with_name("moved"), trust)


def test_a_trusted_directory_that_is_gone_says_so(listed: tuple[Path, Path]) -> None:
    trust, root = listed
    root.rmdir()
    assert why_untrusted(root, trust) == f"{root} no longer exists as a directory"


def test_an_old_line_is_honoured_for_the_users_own_directory_and_migrated(
    tmp_path: Path,
) -> None:
    """A line without identity (an older prewrite): trusted while the directory is the user's;
    the next ``set_trusted`` records its identity."""
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    trust = tmp_path / "trusted"
    trust.write_text(f"{old}\nrelative/ignored\n")
    assert [(e.path, e.identity) for e in trust_entries(trust)] == [(old, None)]
    assert is_trusted(old, trust)
    set_trusted(new, True, trust)
    assert [(e.path, e.identity) for e in trust_entries(trust)] == [
        (old, directory_identity(old)),
        (new, directory_identity(new)),
    ]
    old.rmdir()
    old.mkdir()
    assert not is_trusted(old, trust)  # pinned now


@pytest.mark.skipif(os.getuid() != 0, reason="making a directory someone else owns needs root")
def test_an_old_line_for_someone_elses_directory_is_not_trusted(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, 65534, 65534)
    trust = tmp_path / "trusted"
    trust.write_text(f"{theirs}\n")
    assert not is_trusted(theirs, trust)
    assert "owned by uid 65534, not by you" in (why_untrusted(theirs, trust) or "")


def test_a_garbled_identity_counts_as_none(tmp_path: Path) -> None:
    trust = tmp_path / "trusted"
    trust.write_text(f"{tmp_path}\t1:2:three:-\n{tmp_path}\t1:2:3\n")
    assert [e.identity for e in trust_entries(trust)] == [None, None]
    assert Identity.parse("1:2:3:-") == Identity(1, 2, 3, None)
    assert Identity.parse(" 1:2:3:44\n") == Identity(1, 2, 3, 44)


def test_the_list_says_which_directories_are_not_trusted_and_why(
    listed: tuple[Path, Path],
) -> None:
    trust, root = listed
    other = root.with_name("other")
    other.mkdir()
    set_trusted(other, True, trust)
    root.rmdir()
    root.mkdir()
    env = dict(os.environ, PREWRITE_TRUST_FILE=str(trust))
    done = subprocess.run(
        [PREWRITE, "trust", "--list"], env=env, capture_output=True, text=True, timeout=60,
        check=True,
    )  # fmt: skip
    assert done.stdout.splitlines() == [
        f"{root}  (not trusted: the trusted folder {root} was replaced since it was trusted: "
        f"`prewrite trust {root}` again if it is yours)",
        str(other),
    ]


def test_a_folder_whose_name_holds_a_newline_is_not_trusted(tmp_path: Path) -> None:
    """From a review: the name would have added a path-only line of its own to the list."""
    odd = tmp_path / f"a\n{tmp_path}"
    odd.mkdir(parents=True)  # "a\n" holding the rest: the line would read as tmp_path
    trust = tmp_path / "trusted"
    with pytest.raises(BadRequest, match="control character"):
        set_trusted(odd, True, trust)
    assert not trust.exists() or str(tmp_path) not in trust.read_text()

"""The one bounded reader (``prewrite.files``) on the special files an attacker can put where a
configuration is read: a link to ``/dev/zero``, a FIFO (no writer), a 1 GB sparse file, a
directory, a socket — each refused quickly, unread, with a typed error; nothing ever blocks.

A FIFO's ``open`` without ``O_NONBLOCK`` would block this test forever, so every test here has a
hard timeout of its own (pytest-timeout) on top of the suite's.
"""

from __future__ import annotations

import io
import os
import socket
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import UnreadableFile
from prewrite.files import (
    CONFIG_LIMIT,
    read_or_none,
    read_regular,
    read_stream,
    read_text,
    regular_stat,
    sha256_regular,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

pytestmark = pytest.mark.timeout(20)


def _zero_link(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _sparse_gigabyte(path: Path) -> None:
    with path.open("wb") as f:
        f.truncate(1 << 30)  # no blocks written: costs no disk


def _directory(path: Path) -> None:
    path.mkdir()


SPECIAL: dict[str, tuple[Callable[[Path], None], str]] = {
    "dev_zero": (_zero_link, "a character device"),
    "fifo": (_fifo, "a FIFO"),
    "sparse_1gb": (_sparse_gigabyte, "over the limit"),
    "directory": (_directory, "a directory"),
}


@pytest.mark.parametrize("kind", sorted(SPECIAL))
@pytest.mark.parametrize(
    "name", ["pyproject.toml", "pyrightconfig.json", "ruff.toml", "tsconfig.json", "x.pth"]
)
def test_a_special_file_is_refused_unread_with_a_typed_error(
    tmp_path: Path, kind: str, name: str
) -> None:
    make, why = SPECIAL[kind]
    make(tmp_path / name)
    with pytest.raises(UnreadableFile) as caught:
        read_regular(tmp_path / name, name=name)
    assert caught.value.code == "unreadable_file"
    assert why in str(caught.value)
    assert caught.value.details[0].path == name
    assert read_or_none(tmp_path / name) is None
    with pytest.raises(UnreadableFile):
        regular_stat(tmp_path / name, name=name)


def test_a_socket_is_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s"))
        with pytest.raises(UnreadableFile, match="a socket"):
            read_regular(tmp_path / "s")


def test_a_regular_file_is_read_and_a_missing_one_is_none(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("x = 1\n")
    assert read_regular(tmp_path / "a.toml") == b"x = 1\n"
    assert read_text(tmp_path / "a.toml") == "x = 1\n"
    assert read_regular(tmp_path / "missing.toml") is None
    assert read_regular(tmp_path / "a.toml" / "below") is None  # ENOTDIR: absent too
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    assert read_regular(tmp_path / "dangling") is None


def test_a_regular_file_passes_the_stat_check(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("x = 1\n")
    found = regular_stat(tmp_path / "a.toml")
    assert found is not None
    assert found.st_size == 6
    assert regular_stat(tmp_path / "missing") is None


def test_a_link_is_followed_unless_told_not_to(tmp_path: Path) -> None:
    (tmp_path / "real.toml").write_text("x = 1\n")
    (tmp_path / "link.toml").symlink_to(tmp_path / "real.toml")
    assert read_regular(tmp_path / "link.toml") == b"x = 1\n"
    with pytest.raises(UnreadableFile, match="a symbolic link"):
        read_regular(tmp_path / "link.toml", follow=False)


def test_the_limit_is_exact(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x" * 10)
    assert read_regular(tmp_path / "f", 10) == b"x" * 10
    with pytest.raises(UnreadableFile, match="10 bytes, over the limit"):
        read_regular(tmp_path / "f", 9)


def test_a_file_whose_size_lies_is_still_bounded() -> None:
    """/proc files say size 0 and hold more: at most limit + 1 bytes are read."""
    with pytest.raises(UnreadableFile, match="grew while read"):
        read_regular("/proc/self/maps", 16)


def test_undecodable_text_is_a_decode_error(tmp_path: Path) -> None:
    (tmp_path / "bad").write_bytes(b"\xff\xfe")
    with pytest.raises(UnicodeDecodeError):
        read_text(tmp_path / "bad")


def test_hashing_streams_and_refuses_what_reading_refuses(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc")
    assert sha256_regular(tmp_path / "f") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    _fifo(tmp_path / "p")
    with pytest.raises(UnreadableFile, match="a FIFO"):
        sha256_regular(tmp_path / "p")
    with pytest.raises(UnreadableFile, match="does not exist"):
        sha256_regular(tmp_path / "missing")


def test_a_stream_is_read_up_to_its_limit() -> None:
    assert read_stream(io.BytesIO(b"12345"), 5, "stdin") == b"12345"
    with pytest.raises(UnreadableFile, match="stdin is over 4 bytes"):
        read_stream(io.BytesIO(b"12345"), 4, "stdin")


def test_the_config_limit_is_generous_for_real_configs() -> None:
    assert CONFIG_LIMIT >= 1024 * 1024  # the largest real pyproject.toml is well under this

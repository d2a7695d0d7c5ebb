"""Reading files a repository controls: regular files only, never blocking, never unbounded.

A repository is untrusted input. A ``pyproject.toml`` may be a link to ``/dev/zero`` (read
without a bound, it grows the reader until the kernel kills it), a FIFO (its ``open`` waits for a
writer that never comes: the daemon froze for every client), a directory, or a 1 GB sparse file.
Every read of a repository file — in the daemon, the hook and the client — goes through here:

- the path is ``stat``-ed first and anything but a regular file is refused *unopened* (opening a
  device can do things of its own; opening a FIFO waits);
- it is opened ``O_NONBLOCK | O_CLOEXEC | O_NOCTTY`` (plus ``O_NOFOLLOW`` where a link must not
  be followed), so a FIFO swapped in after the ``stat`` cannot block either, then ``fstat``-ed:
  it must still be a regular file, the one that was ``stat``-ed (same device and inode);
- a size over the cap is refused before reading, and at most cap + 1 bytes are read, so a file
  that grows while read, or a ``/proc`` file whose size says 0, is bounded all the same.

The outcomes are typed: the bytes; ``None`` for a file that does not exist (callers have their
defaults for that); ``UnreadableFile`` (``unreadable_file``) for everything else, naming the file
and why. A caller for which an unreadable file is as good as a missing one (a best-effort hint)
uses ``read_or_none``. Streams the user names (stdin, ``--patch FILE``, which may be a pipe) are
read with ``read_stream``: bounded, not regular-only.

Standard library only: the hook and the client import it (``import prewrite`` stays light).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import sys
from typing import IO

from prewrite.errors import ErrorDetail, UnreadableFile

CONFIG_LIMIT = 4 * 1024 * 1024  # a configuration, a manifest, a .pth, a gitdir file
SOURCE_LIMIT = 128 * 1024 * 1024  # a file a patch edits: anchored edits reach past a frame's 64 MiB
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
_ABSENT = (errno.ENOENT, errno.ENOTDIR)
_CHUNK = 1 << 20

StrPath = str | os.PathLike[str]


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (for refusals)."""
    kinds = (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
    )
    return next((word for test, word in kinds if test(mode)), "not a regular file")


def _refused(name: str, why: str, limit: int) -> UnreadableFile:
    return UnreadableFile(
        f"{name} is {why}: prewrite reads only regular files of at most {limit} bytes here, "
        "and refuses anything else unread",
        [ErrorDetail(why, name)],
    )


def regular_stat(
    path: StrPath, limit: int = CONFIG_LIMIT, *, follow: bool = True, name: str | None = None
) -> os.stat_result | None:
    """The ``stat`` of the regular file ``path``, None if it does not exist; ``UnreadableFile``
    for anything a reader would hang or drown on. Alone, for a file another program will read
    (ruff finds its configurations itself): refuse it before that program runs."""
    shown = os.fspath(path) if name is None else name
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None
        raise _refused(shown, f"unreadable ({exc.strerror})", limit) from exc
    if not stat.S_ISREG(st.st_mode):
        raise _refused(shown, kind_of(st.st_mode), limit)
    if st.st_size > limit:
        raise _refused(shown, f"{st.st_size} bytes, over the limit", limit)
    return st


def _open_checked(path: StrPath, limit: int, follow: bool, name: str) -> tuple[int, int] | None:
    """An open descriptor of the regular file ``path`` and its size; None when it is absent."""
    before = regular_stat(path, limit, follow=follow, name=name)
    if before is None:
        return None
    try:
        fd = os.open(path, _FLAGS | (0 if follow else os.O_NOFOLLOW))
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None  # removed since the stat
        why = "a symbolic link" if exc.errno == errno.ELOOP else f"unreadable ({exc.strerror})"
        raise _refused(name, why, limit) from exc
    after = os.fstat(fd)
    if not stat.S_ISREG(after.st_mode) or (after.st_dev, after.st_ino) != (
        before.st_dev,
        before.st_ino,
    ):
        os.close(fd)
        raise _refused(name, "replaced while it was opened", limit)
    return fd, after.st_size


def read_regular(
    path: StrPath, limit: int = CONFIG_LIMIT, *, follow: bool = True, name: str | None = None
) -> bytes | None:
    """The bytes of the regular file ``path`` (at most ``limit``), None if it does not exist;
    ``UnreadableFile`` otherwise. ``name`` is how a refusal names the file (default: the path);
    ``follow=False`` refuses a symbolic link instead of reading what it names."""
    shown = os.fspath(path) if name is None else name
    opened = _open_checked(path, limit, follow, shown)
    if opened is None:
        return None
    fd, _size = opened
    try:
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise _refused(shown, f"unreadable ({exc.strerror})", limit) from exc
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _refused(shown, "larger than the limit (it grew while read)", limit)
    return data


def read_text(
    path: StrPath, limit: int = CONFIG_LIMIT, *, follow: bool = True, name: str | None = None
) -> str | None:
    """``read_regular`` decoded as UTF-8; ``UnicodeDecodeError`` for bytes that are not."""
    data = read_regular(path, limit, follow=follow, name=name)
    return None if data is None else data.decode("utf-8")


def read_or_none(path: StrPath, limit: int = CONFIG_LIMIT, *, follow: bool = True) -> bytes | None:
    """``read_regular``, with every refusal taken as "no such file" (for best-effort hints)."""
    try:
        return read_regular(path, limit, follow=follow)
    except UnreadableFile:
        return None


def sha256_regular(path: StrPath, limit: int = SOURCE_LIMIT, *, name: str | None = None) -> str:
    """The SHA-256 of the regular file ``path``, read in chunks (never more than ``limit``
    bytes); ``UnreadableFile`` when it is missing too, since a hash needs a file."""
    shown = os.fspath(path) if name is None else name
    opened = _open_checked(path, limit, True, shown)
    if opened is None:
        raise UnreadableFile(f"{shown} does not exist", [ErrorDetail("no such file", shown)])
    fd, _size = opened
    digest = hashlib.sha256()
    seen = 0
    try:
        while chunk := os.read(fd, _CHUNK):
            seen += len(chunk)
            if seen > limit:
                raise _refused(shown, "larger than the limit (it grew while read)", limit)
            digest.update(chunk)
    except OSError as exc:
        raise _refused(shown, f"unreadable ({exc.strerror})", limit) from exc
    finally:
        os.close(fd)
    return digest.hexdigest()


def read_stream(stream: IO[bytes], limit: int, name: str) -> bytes:
    """At most ``limit`` bytes of a stream the user named (stdin, a pipe); more is refused."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise UnreadableFile(
            f"{name} is over {limit} bytes: prewrite refuses it unread past that",
            [ErrorDetail("over the limit", name)],
        )
    return data


def read_named(source: str, limit: int, what: str) -> bytes:
    """What the user names on the command line: ``-`` (stdin) or a path, which may be a pipe
    (``<(...)``), so it is not held to regular files; at most ``limit`` bytes. ``OSError``
    propagates for the caller to name ``what`` it was reading."""
    if source == "-":
        return read_stream(sys.stdin.buffer, limit, f"the {what} on stdin")
    with open(source, "rb") as stream:
        return read_stream(stream, limit, source)

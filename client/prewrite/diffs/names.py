"""The file names a unified diff gives, read as ``git apply`` reads them.

- A git diff (``diff --git``) names its files on the ``---`` / ``+++`` lines with the ``a/`` and
  ``b/`` prefixes (dropped here; a diff made with ``--no-prefix`` has none), on ``rename from``
  / ``rename to`` lines without them, and on the ``diff --git`` line itself, which is the only
  name of a file whose diff has no ``---`` line (an empty new file, a mode change). A name with
  a space ends in a TAB on ``---`` / ``+++``; a name with a control character, a quote, a
  backslash or a byte over 127 is C-quoted (``"a/\\303\\274.txt"``).
- A traditional diff (``diff -u``, ``diff -ruN``) names them on ``---`` / ``+++`` only, each
  followed by a TAB and a timestamp. Its first directory is dropped (``old/pkg/a.py`` ->
  ``pkg/a.py``: ``git apply``'s and ``patch -p1``'s default), a name without a directory is
  kept as it is; the epoch timestamp ``diff -N`` gives a missing file means created or deleted.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from prewrite.errors import BadRequest

DEV_NULL = "/dev/null"
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_TIMESTAMP = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?: ?([+-])(\d\d):?(\d\d))?$"
)


def _unquote(text: str, at: int) -> tuple[str, int]:
    """The C-quoted name starting at ``text[at]`` (a ``"``) and the index after its closing
    quote; ``BadRequest`` for one that does not close."""
    raw = bytearray()
    i = at + 1
    while i < len(text):
        char = text[i]
        if char == '"':
            return _decoded(raw), i + 1
        if char != "\\":
            raw += char.encode()
            i += 1
            continue
        code = text[i + 1 : i + 2]
        if code in _ESCAPES:
            raw.append(_ESCAPES[code])
            i += 2
        elif re.fullmatch(r"[0-3][0-7][0-7]", text[i + 1 : i + 4]):
            raw.append(int(text[i + 1 : i + 4], 8))
            i += 4
        else:
            break
    raise BadRequest(f"a quoted file name in the diff is malformed: {text[at:][:200]}")


def _decoded(raw: bytearray) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(f"a file name in the diff is not UTF-8: {bytes(raw)!r}") from exc


def _strip_prefix(name: str, prefix: str) -> str:
    return name[len(prefix) :] if name.startswith(prefix) else name


def git_name(field: str, prefix: str) -> str | None:
    """The name of a git diff's ``---`` / ``+++`` / ``rename`` line (after the keyword), its
    ``prefix`` (``a/``, ``b/`` or ``""``) dropped; None for ``/dev/null``."""
    if field.startswith('"'):
        name, end = _unquote(field, 0)
        if field[end:].strip():
            raise BadRequest(f"unexpected text after a quoted file name in the diff: {field}")
    else:
        name = field[:-1] if field.endswith("\t") else field  # git's TAB after a name with a space
    if name == DEV_NULL:
        return None
    return _strip_prefix(name, prefix)


def git_header_names(rest: str) -> tuple[str, str] | None:
    """The two names of a ``diff --git`` line (after ``diff --git ``), prefixes kept; None when
    they cannot be told apart (unquoted, different, and holding spaces)."""
    if rest.startswith('"'):
        old, end = _unquote(rest, 0)
        tail = rest[end:].lstrip(" ")
        new = _unquote(tail, 0)[0] if tail.startswith('"') else tail
        return old, new
    if rest.endswith('"'):
        start = rest.index(' "')
        return rest[:start], _unquote(rest, start + 1)[0]
    # Unquoted: the same name both sides (a mode change, an empty new file), so split where
    # the two halves agree once their first directory (a/, b/) is dropped.
    for at in (m.start() for m in re.finditer(" ", rest)):
        old, new = rest[:at], rest[at + 1 :]
        if old.partition("/")[2] == new.partition("/")[2] or old == new:
            return old, new
    return None


def git_prefixes(header: tuple[str, str] | None) -> tuple[str, str]:
    """``("a/", "b/")`` for a diff made with git's default prefixes, ``("", "")`` for one made
    with ``--no-prefix`` (its ``diff --git`` names do not both carry them)."""
    if header is not None and header[0].startswith("a/") and header[1].startswith("b/"):
        return "a/", "b/"
    return "", ""


def traditional_name(field: str) -> tuple[str, bool]:
    """The name on a traditional ``---`` / ``+++`` line (after the keyword) and whether its
    timestamp is the epoch (the file does not exist on that side: ``diff -N``)."""
    name, tab, stamp = field.partition("\t")
    if name.startswith('"'):
        name = _unquote(name, 0)[0]
    return name, bool(tab) and _is_epoch(stamp.strip())


def strip_first_directory(name: str) -> str:
    """``patch -p1``: ``old/pkg/a.py`` -> ``pkg/a.py``; a name without a directory is kept."""
    head, slash, rest = name.partition("/")
    return rest if slash and head not in ("", ".", "..") and rest else name


def _is_epoch(stamp: str) -> bool:
    """Whether ``stamp`` (``1970-01-01 00:00:00.000000000 +0000``, any zone) is the epoch."""
    match = _TIMESTAMP.match(stamp)
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    sign, zone_h, zone_m = match.group(7), match.group(8), match.group(9)
    offset = timedelta(0)
    if sign is not None:
        offset = timedelta(hours=int(zone_h), minutes=int(zone_m)) * (-1 if sign == "-" else 1)
    try:
        when = datetime(year, month, day, hour, minute, second, tzinfo=timezone(offset))
    except ValueError:
        return False
    return when == datetime(1970, 1, 1, tzinfo=UTC)

"""The patch validator on a real tree full of traps, with generated paths and changes.

Whatever the path (``..``, absolute, NUL, unicode, symlinks in and out of the root, into
``.git``, a loop, a dangling link, ``/dev/zero``, a FIFO, a directory named like a file), the
answer is a prepared patch whose every path really lies inside the root, or a typed
``PrewriteError`` — never a raw ``OSError`` or ``ValueError``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from prewrite.errors import BadRequest, PrewriteError
from prewrite.protocol import Edit, FileChange
from prewrite_daemon.check.patch import normalize_path, prepare_patch
from tests.fuzz.bounds import bounded

pytestmark = pytest.mark.fuzz

NAME_MAX = 255
PATH_MAX = 4096

FILES = {
    "a.py": b"A = 1\nB = 2\n",
    "crlf.py": b"x = 1\r\ny = 2\r\n",
    "latin1.py": b"s = '\xe9'\n",
    "pkg/__init__.py": b"",
    "pkg/m.py": b"def f() -> int:\n    return 1\n",
    "pkg/ü.py": "u = 'ü'\n".encode(),
    ".git/config": b"[core]\n",
}
LINKS = {
    "link_in": "pkg",  # a directory inside
    "link_file.py": "a.py",  # a second name for a.py
    "link_self": ".",  # the root itself
    "link_out": "../outside",  # a directory outside
    "link_secret.py": "../outside/secret.py",
    "link_abs.py": "/etc/hostname",
    "link_git": ".git",
    "dangling.py": "nowhere.py",
    "loop.py": "loop.py",
    "zero.py": "/dev/zero",
}
PIECES = (
    *(PurePosixPath(p).parts[-1] for p in FILES),
    *LINKS,
    "pkg",
    ".git",
    ".GIT",
    "fifo.py",
    "dir.py",
    "new.py",
    "..",
    ".",
    "",
    "x\x00.py",
    "\\",
    "~",
    " ",
    "名前.py",
    "outside",
    "secret.py",
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with symlinks, a FIFO and a directory named like a file; a secret outside."""
    base = tmp_path_factory.mktemp("patchfuzz").resolve()
    (base / "outside").mkdir()
    (base / "outside" / "secret.py").write_text("SECRET = 1\n")
    ws = base / "ws"
    for rel, data in FILES.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_bytes(data)
    for name, target in LINKS.items():
        (ws / name).symlink_to(target)
    os.mkfifo(ws / "fifo.py")
    (ws / "dir.py").mkdir()
    return ws


def _inside(root: Path, rel: str) -> None:
    """``rel`` is a clean relative path whose real location is inside ``root``, not in .git."""
    parts = rel.split("/")
    assert rel == str(PurePosixPath(rel))
    assert not rel.startswith("/")
    assert all(p not in ("", ".", "..") and "\x00" not in p for p in parts)
    assert all(p.lower() != ".git" for p in parts)
    real = Path(os.path.realpath(root / rel))
    assert real == root or root in real.parents, f"{rel!r} resolves to {real}"
    assert ".git" not in [p.lower() for p in real.relative_to(root).parts]


@st.composite
def raw_paths(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=5))
    path = "/".join(pieces)
    return draw(st.sampled_from([path, path, "/" + path, path + "/", "./" + path, "//" + path]))


def _long_name(n: int) -> str:
    return "x" * n + ".py"


def _deep_path(n: int) -> str:
    return "/".join(["d" * 200] * n) + "/m.py"


def _wide_unicode(n: int) -> str:
    return "pkg/" + "é" * n + ".py"  # 2 bytes a character: over NAME_MAX in bytes, not chars


long_paths = st.one_of(
    st.integers(NAME_MAX - 2, 300).map(_long_name),
    st.integers(21, 24).map(_deep_path),
    st.integers(127, 140).map(_wide_unicode),
)
paths = st.one_of(raw_paths(), raw_paths(), st.text(max_size=12), long_paths)


@bounded(400)
@given(raw=paths)
@example(raw="link_self/a.py")
@example(raw="link_in/../a.py")
@example(raw="link_git/config")
def test_normalize_path_stays_inside_or_raises_typed(root: Path, raw: str) -> None:
    try:
        rel = normalize_path(root, raw)
    except PrewriteError:
        return
    _inside(root, rel)


def _hash_of(root: Path, rel: str) -> str | None:
    """The base hash of a regular file the tree has under that name (read from the table, never
    by following the path: a path may be ``zero.py``)."""
    key = "/".join(p for p in PurePosixPath(rel).parts if p != ".")
    key = {"link_file.py": "a.py", "link_in/m.py": "pkg/m.py", "link_self/a.py": "a.py"}.get(
        key, key
    )
    data = FILES.get(key)
    return hashlib.sha256(data).hexdigest() if data is not None else None


@st.composite
def changes(
    draw: st.DrawFn, path_strategy: st.SearchStrategy[str], sane: bool = False
) -> tuple[FileChange, str]:
    """A change and the kind of base hash it carries; ``sane``: right base, one form."""
    path = draw(path_strategy)
    bases = ["disk"] if sane else ["disk", "disk", "null", "wrong", "text"]
    base_kind = draw(st.sampled_from(bases))
    forms = (
        ["content", "delete", "edits"] if sane else ["content", "delete", "edits", "none", "two"]
    )
    form = draw(st.sampled_from(forms))
    edits = [
        Edit(
            draw(st.sampled_from(["A = 1", "B", "x = 1\n", "return 1", "", "nope", "\n"])), "Z = 3"
        )
    ] * draw(st.integers(0, 2))
    change = FileChange(
        path=path,
        base_sha256=draw(st.text(max_size=5)) if base_kind == "text" else None,
        content="C = 1\n" if form in ("content", "two") else None,
        delete=form in ("delete", "two"),
        edits=edits if form == "edits" else None,
    )
    return change, base_kind


def _with_base(root: Path, change: FileChange, base_kind: str) -> FileChange:
    """ "disk": the hash of the file there now (None for a new one); "wrong": another hash."""
    if base_kind in ("null", "text"):
        return change
    base = _hash_of(root, change.path) if base_kind == "disk" else "0" * 64
    return FileChange(change.path, base, change.content, change.delete, change.edits)


def _check_prepared(root: Path, patch: list[FileChange]) -> None:
    try:
        prepared = prepare_patch(root, patch)
    except PrewriteError:
        return
    assert prepared.root == root
    assert len(prepared.edits) == len(patch)
    assert len({e.path for e in prepared.edits}) == len(prepared.edits)
    for edit, change in zip(prepared.edits, patch, strict=True):
        _inside(root, edit.path)
        assert (edit.new_text is None) == change.delete
        if edit.old_text is not None:
            assert (root / edit.path).read_bytes() == edit.old_text.encode()
        if change.content is not None:
            assert edit.new_text == change.content


known_paths = st.sampled_from(
    [*FILES, *LINKS, "link_in/m.py", "link_self/a.py", "new.py", "pkg/new.py", "fifo.py", "dir.py"]
)


@bounded(300)
@given(
    data=st.lists(changes(known_paths, sane=True), min_size=1, max_size=2)
    | st.lists(changes(known_paths | paths), max_size=3)
)
def test_prepare_patch_is_inside_the_root_or_typed(
    root: Path, data: list[tuple[FileChange, str]]
) -> None:
    _check_prepared(root, [_with_base(root, c, kind) for c, kind in data])


@bounded(30)
@given(raw=long_paths)
def test_an_over_long_path_is_bad_request(root: Path, raw: str) -> None:
    """A component over 255 bytes or a path over 4096 is the request's fault (issue 9, item 9)."""
    with pytest.raises(BadRequest):
        normalize_path(root, raw)
    with pytest.raises(BadRequest):
        prepare_patch(root, [FileChange(raw, None, "x = 1\n")])

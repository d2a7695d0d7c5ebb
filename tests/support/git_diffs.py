"""Real ``git diff`` / ``diff -u`` output made in temporary repositories, for the diff reader.

``git`` runs with no user or system configuration (a machine's ``diff.noprefix`` or colour must
not change what the tests read), and each call is bounded.
"""

from __future__ import annotations

import os
import subprocess
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "LC_ALL": "C",
}


def git(cwd: Path, *args: str, ok: tuple[int, ...] = (0,)) -> str:
    """``git ARGS`` in ``cwd``, its stdout (as UTF-8: the diffs here are UTF-8)."""
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode in ok, done.stderr.decode(errors="replace")
    return done.stdout.decode()


def write_tree(root: Path, files: Mapping[str, str | bytes | None]) -> None:
    """Each file's bytes exactly (``str`` written as UTF-8, no newline translation); None
    removes it."""
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)


def init_repo(root: Path, files: Mapping[str, str | bytes | None]) -> Path:
    """A git repository at ``root`` holding ``files``, committed."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    write_tree(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", "before")
    return root


def staged_diff(
    root: Path, after: Mapping[str, str | bytes | None], *options: str, chmod: str = ""
) -> str:
    """``git diff --cached OPTIONS`` of ``after`` (and ``chmod``'s file made executable)
    against the commit, then the work tree put back as committed: the disk is the diff's old
    side, as when a patch is checked before it is written."""
    write_tree(root, after)
    if chmod:
        (root / chmod).chmod(0o755)
    git(root, "add", "-A")
    diff = git(root, "diff", "--cached", "--no-color", *options)
    git(root, "reset", "-q", "--hard")
    git(root, "clean", "-qfd")
    return diff


def unstaged_diff(root: Path, after: Mapping[str, str | bytes | None], *options: str) -> str:
    """``git diff OPTIONS`` (the work tree against the index), then the work tree put back."""
    write_tree(root, after)
    diff = git(root, "diff", "--no-color", *options)
    git(root, "checkout", "-q", "--", ".")
    return diff


def no_index_diff(tmp: Path, before: str, after: str, *options: str) -> str:
    """``git diff --no-index --no-prefix a/f b/f``: the diff of two texts, named as a
    repository's ``f`` would be (``a/f`` / ``b/f``)."""
    write_tree(tmp, {"a/f": before, "b/f": after})
    return git(
        tmp, "diff", "--no-index", "--no-color", "--no-prefix", *options, "a/f", "b/f", ok=(0, 1)
    )


def gnu_diff(cwd: Path, *args: str) -> str:
    """``diff ARGS`` (exit 1: the files differ)."""
    done = subprocess.run(
        ["diff", *args],
        cwd=cwd,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "LC_ALL": "C"},
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.decode()

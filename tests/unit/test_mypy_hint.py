"""A mypy that refuses to run says what to do about it, where prewrite knows (``failure_hint``)."""

from __future__ import annotations

from prewrite_daemon.backends.mypy_command import MypyTool, failure_hint

SAID = "[mypy]: python_version: Python 3.8 is not supported (must be 3.10 or higher)"


def test_a_python_version_the_bundled_mypy_dropped_says_what_to_do() -> None:
    bundled = MypyTool("/usr/bin/python3", "2.4.1", "bundled with prewrite")
    assert "`prewrite trust ROOT`" in failure_hint(bundled, SAID)
    assert failure_hint(bundled, "error: something else") == ""


def test_the_workspaces_own_mypy_gets_no_hint() -> None:
    own = MypyTool("/repo/.venv/bin/python", "1.13.0", "the workspace's own")
    assert failure_hint(own, SAID) == ""  # its own mypy, as CI runs it: nothing to offer

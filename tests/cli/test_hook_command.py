"""The Claude Code hook command ``docs/install.md`` gives, run as Claude Code runs it: a shell
command line, a ``PreToolUse`` payload on stdin, only exit 2 refusing.

The command is read from the document's settings snippet, so what the document says is what is
tested. Without ``prewrite`` on ``PATH`` a bare ``prewrite hook`` exits 127, which Claude Code
takes as a non-blocking error (the edit goes through); the command must turn that, and any other
way ``prewrite`` can fail to answer, into exit 2 with a reason — and leave the hook's own
answers (0 with its output, 2 with its reason) as they are.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.cli.hook.hook_helpers import FILES, recorded

if TYPE_CHECKING:
    from prewrite.runtime import RuntimePaths

INSTALL_DOC = Path(__file__).resolve().parents[2] / "docs" / "install.md"
SHELLS = ("sh", "bash")
BARE_PATH = "/usr/bin:/bin"  # a shell and its tools, no prewrite


def hook_command() -> str:
    """The ``command`` of the ``PreToolUse`` hook in the document's JSON snippet."""
    blocks = re.findall(r"```json\n(.*?)```", INSTALL_DOC.read_text(), flags=re.DOTALL)
    [settings] = [json.loads(block) for block in blocks if "PreToolUse" in block]
    [matcher] = settings["hooks"]["PreToolUse"]
    assert matcher["matcher"] == "Write|Edit|MultiEdit"
    [hook] = matcher["hooks"]
    assert hook["type"] == "command"
    command: str = hook["command"]
    assert command.startswith("prewrite hook ")
    return command


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def run(shell: str, path: str, stdin: bytes, **env: str) -> subprocess.CompletedProcess[bytes]:
    """The hook command under ``shell`` with ``PATH=path``, as Claude Code would start it."""
    executable = shutil.which(shell)
    assert executable is not None, f"{shell} is not installed"
    environ = {k: v for k, v in os.environ.items() if k != "PREWRITE_DAEMON_CMD"}
    return subprocess.run(
        [executable, "-c", hook_command()],
        input=stdin,
        capture_output=True,
        env={**environ, "PATH": path, **env},
        timeout=150,
        check=False,
    )


def fake_prewrite(tmp_path: Path, body: str) -> str:
    """A directory holding a ``prewrite`` that runs ``body`` (a broken install)."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "prewrite"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return f"{bin_dir}:{BARE_PATH}"


@pytest.mark.parametrize("shell", SHELLS)
def test_without_prewrite_on_path_the_edit_is_refused(shell: str, repo: Path) -> None:
    assert shutil.which("prewrite", path=BARE_PATH) is None
    done = run(shell, BARE_PATH, recorded("edit_syntax_error.json", repo))
    assert done.returncode == 2  # a bare `prewrite hook` exits 127 here: non-blocking
    assert done.stdout == b""
    assert b"prewrite hook did not run (exit 127), so the edit is refused" in done.stderr


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("echo 'Traceback: ModuleNotFoundError' >&2; exit 1", 1),  # a broken environment
        ("exit 3", 3),
        ("kill -9 $$", 137),  # killed
    ],
)
def test_a_prewrite_that_fails_to_answer_refuses(
    shell: str, body: str, code: int, tmp_path: Path, repo: Path
) -> None:
    done = run(shell, fake_prewrite(tmp_path, body), recorded("multiedit.json", repo))
    assert done.returncode == 2
    assert f"prewrite hook did not run (exit {code})".encode() in done.stderr


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("body", "code", "out", "err"),
    [
        ("printf '{}'; exit 0", 0, b"{}", b""),  # allowed, with output for the model
        ("echo 'the reason' >&2; exit 2", 2, b"", b"the reason\n"),  # refused, with its reason
    ],
)
def test_the_hooks_own_answers_pass_through(
    shell: str, body: str, code: int, out: bytes, err: bytes, tmp_path: Path, repo: Path
) -> None:
    done = run(shell, fake_prewrite(tmp_path, body), recorded("multiedit.json", repo))
    assert (done.returncode, done.stdout, done.stderr) == (code, out, err)


@pytest.mark.e2e
@pytest.mark.parametrize("shell", SHELLS)
def test_with_prewrite_on_path_the_hook_answers(
    shell: str, daemon: RuntimePaths, repo: Path, tmp_path: Path
) -> None:
    """The venv's ``prewrite`` on ``PATH``: a broken edit is the hook's own refusal, an allowed
    one its exit 0 and its ``additionalContext`` on stdout, untouched."""
    (tmp_path / "trusted").write_text("")
    env = {
        "PREWRITE_RUNTIME_DIR": str(daemon.runtime_dir),
        "PREWRITE_TRUST_FILE": str(tmp_path / "trusted"),
        "PREWRITE_HOOK_ROOTS": "",
    }
    path = f"{Path(sys.executable).parent}:{BARE_PATH}"
    broken = run(shell, path, recorded("edit_syntax_error.json", repo), **env)
    assert broken.returncode == 2, broken.stderr
    assert broken.stdout == b""
    assert b"prewrite refused this Edit of pkg/models.py" in broken.stderr
    assert b"caught by the parse rung" in broken.stderr
    assert b"did not run" not in broken.stderr

    allowed = run(shell, path, recorded("edit_rename.json", repo), **env)
    assert (allowed.returncode, allowed.stderr) == (0, b"")
    said = json.loads(allowed.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "pkg/service.py:1:30: error" in said

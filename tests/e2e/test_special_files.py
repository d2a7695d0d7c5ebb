"""Issue 20, items 1 and 9: special files where configurations are read, through the daemon and
through ``prewrite hook`` — each answered in time, with a typed error or a bounded answer, and
memory bounded.

Every configuration the ladder, the checker's layout and the TypeScript setup read —
``pyproject.toml``, ``pyrightconfig.json``, ``ruff.toml``, ``tsconfig.json`` and a base it
``extends``, ``package.json`` — is made a link to ``/dev/zero``, a FIFO with no writer, a 1 GB
sparse file and a directory, on real repositories checked by a real daemon (real pyright, ruff
and TypeScript). The daemon here is private to the module and runs under ``prlimit --as`` (a read
without a bound fails there instead of filling the machine); after every case its peak resident
memory (``VmHWM``) must still be under ``PEAK_RSS``, so a file read whole would show. The hook
runs as a process under its own address-space limit and a hard timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.client import Client
from prewrite.errors import PrewriteError
from prewrite.protocol import FileChange
from prewrite.runtime import RuntimePaths
from tests.support.private_daemon import (
    bounded_daemon_command,
    peak_rss,
    private_daemon,
    stop_daemon,
)
from tests.support.ts_repo import make_ts_repo

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

HOOK_AS = 1_500_000_000
PEAK_RSS = 1 << 30  # the daemon's high-water mark: a 1 GB file read whole would pass it
CHECK_S = 30.0
HOOK_DEADLINE_S = 30.0
MARGIN_S = 10.0  # a loaded 2-core machine: the client's own margin and scheduling
HOOK_MAIN = "import sys; from prewrite.hook import main; sys.exit(main(autostart=False))"


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _sparse(path: Path) -> None:
    with path.open("wb") as f:
        f.truncate(1 << 30)


def _directory(path: Path) -> None:
    path.mkdir()


KINDS: dict[str, Callable[[Path], None]] = {
    "dev_zero": _zero,
    "fifo": _fifo,
    "sparse_1gb": _sparse,
    "directory": _directory,
}

PY_FILES = {
    "pyproject.toml": "[project]\nname = 'm'\nversion = '0'\n\n[tool.ruff]\nline-length = 100\n",
    "pkg/__init__.py": "",
    "pkg/a.py": "def f() -> int:\n    return 1\n",
}

# (repository, the special file, which kinds are refused as unreadable_file; the others are
# answered: a verdict, as for a file that is not there)
CASES: dict[str, tuple[str, str, frozenset[str]]] = {
    "pyproject": ("python", "pyproject.toml", frozenset(KINDS)),
    "pyrightconfig": ("python", "pyrightconfig.json", frozenset(KINDS) - {"directory"}),
    "ruff_toml": ("python", "ruff.toml", frozenset(KINDS) - {"directory"}),
    "tsconfig": ("typescript", "tsconfig.json", frozenset({"sparse_1gb"})),
    "tsconfig_extends": ("typescript", "base.json", frozenset(KINDS) - {"directory"}),
    "package_json": ("typescript", "package.json", frozenset({"sparse_1gb"})),
}


@pytest.fixture(scope="module")
def bounded_daemon() -> Iterator[RuntimePaths]:
    """A daemon of this module's own, under an address-space limit."""
    with private_daemon(bounded=True) as paths:
        yield paths


def make_repo(base: Path, language: str) -> tuple[Path, FileChange, str]:
    """A repository (``.git`` at its top) and a change to one of its sources: (root, change,
    the changed file's path)."""
    if language == "typescript":
        root = make_ts_repo(base / "repo", 5)
        (root / "tsconfig.json").write_text(
            json.dumps({"extends": "./base.json", "compilerOptions": {"noEmit": True},
                        "include": ["src"]})
        )  # fmt: skip
        (root / "base.json").write_text(json.dumps({"compilerOptions": {"strict": True}}))
        rel, text = "src/extra.ts", "export const n: number = 1;\n"
    else:
        root = base / "repo"
        for name, content in PY_FILES.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(content)
        rel, text = "pkg/extra.py", "def g() -> int:\n    return 2\n"
    (root / ".git").mkdir()
    return root.resolve(), FileChange(rel, None, content=text), rel


def special_repo(base: Path, case: str, kind: str) -> tuple[Path, FileChange, str]:
    language, name, _refused = CASES[case]
    root, change, rel = make_repo(base, language)
    target = root / name
    if target.exists():
        target.unlink()
    KINDS[kind](target)
    return root, change, rel


def outcome(paths: RuntimePaths, root: Path, change: FileChange) -> tuple[str, float]:
    started = time.monotonic()
    try:
        with Client(paths=paths, autostart=False) as client:
            client.check(root, [change], timeout_s=CHECK_S)
    except PrewriteError as exc:
        return exc.code, time.monotonic() - started
    return "answered", time.monotonic() - started


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_daemon_answers_a_special_config_in_time_and_bounded(
    bounded_daemon: RuntimePaths, tmp_path: Path, case: str, kind: str
) -> None:
    root, change, _rel = special_repo(tmp_path, case, kind)
    code, elapsed = outcome(bounded_daemon, root, change)
    expected = "unreadable_file" if kind in CASES[case][2] else "answered"
    assert code == expected, (case, kind, code)
    assert elapsed < CHECK_S + MARGIN_S
    assert peak_rss(bounded_daemon) < PEAK_RSS
    with Client(paths=bounded_daemon, autostart=False, call_timeout_s=10.0) as client:
        assert client.status().pid > 0  # and it still serves everyone


def _run_hook(paths: RuntimePaths, data: bytes, deadline_s: float) -> tuple[int, str, float]:
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(paths.runtime_dir))
    env["PREWRITE_HOOK_DEADLINE"] = str(deadline_s)
    env.pop("PREWRITE_DAEMON_CMD", None)
    argv = ["prlimit", f"--as={HOOK_AS}", "--", sys.executable, "-c", HOOK_MAIN]
    started = time.monotonic()
    done = subprocess.run(
        argv, input=data, capture_output=True, env=env, timeout=deadline_s + MARGIN_S, check=False
    )
    return done.returncode, done.stderr.decode(), time.monotonic() - started


def write_payload(root: Path, rel: str, content: str) -> bytes:
    tool = {"file_path": str(root / rel), "content": content}
    return json.dumps(
        {"hook_event_name": "PreToolUse", "cwd": str(root), "tool_name": "Write",
         "tool_input": tool}
    ).encode()  # fmt: skip


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_hook_answers_a_special_config_within_its_deadline(
    bounded_daemon: RuntimePaths, tmp_path: Path, case: str, kind: str
) -> None:
    root, change, rel = special_repo(tmp_path, case, kind)
    code, err, elapsed = _run_hook(
        bounded_daemon, write_payload(root, rel, change.content or ""), HOOK_DEADLINE_S
    )
    assert elapsed < HOOK_DEADLINE_S + MARGIN_S
    if kind in CASES[case][2]:
        assert code == 2, err
        assert "[unreadable_file]" in err
    else:
        assert code in (0, 2), err  # a verdict either way, never a crash (exit 1) or a hang
        assert "prewrite hook failed" not in err


def test_the_hook_refuses_an_edited_file_that_is_a_fifo(
    bounded_daemon: RuntimePaths, tmp_path: Path
) -> None:
    root, _change, _rel = make_repo(tmp_path, "python")
    os.mkfifo(root / "pkg" / "pipe.py")
    code, err, elapsed = _run_hook(
        bounded_daemon, write_payload(root, "pkg/pipe.py", "x = 1\n"), HOOK_DEADLINE_S
    )
    assert (code, elapsed < HOOK_DEADLINE_S) == (2, True), err
    assert "[unreadable_file]" in err
    assert "pkg/pipe.py is a FIFO" in err


def test_the_hooks_watchdog_refuses_when_stdin_never_ends(bounded_daemon: RuntimePaths) -> None:
    """Item 9: whatever hangs, the hook answers exit 2 by its own deadline (the agent would
    let the edit through if it had to kill the hook)."""
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(bounded_daemon.runtime_dir))
    env["PREWRITE_HOOK_DEADLINE"] = "2"
    argv = [sys.executable, "-c", "import sys; from prewrite.hook import main; sys.exit(main())"]
    started = time.monotonic()
    with subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as proc:
        assert proc.stdin is not None
        proc.stdin.write(b'{"tool_name": "Write", ')  # and never more, never closed
        proc.stdin.flush()
        out, err = _wait(proc)
    assert proc.returncode == 2
    assert out == b""
    assert b"no answer within the hook's deadline" in err
    assert time.monotonic() - started < 2 + MARGIN_S


def _wait(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """The process's output once it ends by itself (stdin left open: it must not need EOF)."""
    assert proc.stdout is not None
    assert proc.stderr is not None
    try:
        proc.wait(timeout=2 + MARGIN_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.stdout.read(), proc.stderr.read()


# --- .pth: read by the environment's layout (environment.pth_dirs) ----------------------------


@pytest.fixture
def untrusted_venv_repo() -> Iterator[Path]:
    """A repository outside the session's trusted trees with a venv of its own (never run)."""
    base = Path(tempfile.mkdtemp(prefix="pw-untrusted-pth-", dir="/tmp"))
    try:
        root, _change, _rel = make_repo(base, "python")
        site = root / ".venv" / "lib" / "python3.11" / "site-packages"
        site.mkdir(parents=True)
        (root / ".venv" / "bin").mkdir()
        (root / ".venv" / "bin" / "python").write_text("#!/bin/sh\nexit 1\n")
        (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.11.0\n")
        yield root
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False, timeout=60)


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "sparse_1gb"])
def test_a_special_pth_file_is_answered_in_time_and_bounded(
    untrusted_venv_repo: Path, kind: str
) -> None:
    site = next(untrusted_venv_repo.glob(".venv/lib/python3.11/site-packages"))
    KINDS[kind](site / "evil.pth")
    change = FileChange("pkg/extra.py", None, content="def g() -> int:\n    return 2\n")
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        paths = RuntimePaths(Path(d) / "run")
        try:
            with pytest.MonkeyPatch.context() as mp:
                mp.setenv("PREWRITE_DAEMON_CMD", bounded_daemon_command())
                Client(paths=paths).close()
            code, elapsed = outcome(paths, untrusted_venv_repo, change)
            assert code in ("answered", "unreadable_file"), code
            assert elapsed < CHECK_S + MARGIN_S
            assert peak_rss(paths) < PEAK_RSS
        finally:
            stop_daemon(paths)

"""Bounds without pyright: replies under the frame limit (contents by reference, an ``apply``
decided before it writes), and a state directory the daemon cannot write, named as such.

The registry runs in-process with the type-check rung off and a lowered frame limit, so a few
hundred kilobytes stand for the 64 MiB of the real limit (tests/e2e/test_bounds.py has the real
size).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import pytest

from prewrite import change_file, new_file
from prewrite.client import Client
from prewrite.errors import DaemonUnavailable, FrameTooLarge, StateDirUnwritable
from prewrite.framing import encode_frame
from prewrite.protocol import (
    ApplyRequest,
    CandidateFile,
    CheckReply,
    CheckRequest,
    DiskResult,
    Edit,
    FileChange,
)
from prewrite.runtime import RuntimePaths
from prewrite_daemon.limits import ReplyLimits
from prewrite_daemon.session import Registry

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Generator, Iterator

NO_CHECKER = "[tool.prewrite]\nformat = false\nlint = false\ntypecheck = false\ntests = false\n"
FRAME = 256 * 1024
LIMITS = ReplyLimits(frame_bytes=FRAME, inline_bytes=32 * 1024)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pyproject.toml").write_text(NO_CHECKER)
    padding = "x" * (FRAME * 2)  # the candidate alone is over the frame limit
    (repo / "data.json").write_text(f'{{"pad": "{padding}", "flag": false}}\n')
    (repo / "small.json").write_text('{"a": 1}\n')
    return repo.resolve()


@pytest.fixture
async def registry(tmp_path: Path) -> AsyncIterator[Registry]:
    reg = Registry(tmp_path / "state", watch=False, limits=LIMITS)
    try:
        yield reg
    finally:
        await reg.stop()


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def flag_edit(root: Path) -> FileChange:
    base = hashlib.sha256((root / "data.json").read_bytes()).hexdigest()
    return FileChange("data.json", base, edits=[Edit('"flag": false', '"flag": true')])


# --- replies under the frame limit ----------------------------------------------------------


async def test_a_small_edit_to_a_large_file_applies_and_its_reply_fits(
    registry: Registry, root: Path
) -> None:
    request = ApplyRequest(str(root), [flag_edit(root)], sys.executable, 60.0)
    reply = await registry.apply(request)
    assert reply.ok, reply
    on_disk = (root / "data.json").read_bytes()
    assert on_disk.endswith(b'"flag": true}\n')
    [candidate] = reply.check.files
    assert candidate.content is None
    assert candidate.content_omitted
    assert candidate.sha256 == hashlib.sha256(on_disk).hexdigest()  # by reference
    assert [w.path for w in reply.written] == ["data.json"]
    assert len(encode_frame(reply, FRAME)) <= FRAME + 4


async def test_contents_inline_under_the_budget_and_omitted_on_request(
    registry: Registry, root: Path
) -> None:
    changes = [change_file(root, "small.json", '{"a": 2}\n'), new_file("new.json", "[]\n")]
    reply = await registry.check(CheckRequest(str(root), changes, sys.executable))
    assert [(f.path, f.content, f.content_omitted) for f in reply.files] == [
        ("small.json", '{"a": 2}\n', False),
        ("new.json", "[]\n", False),
    ]
    request = CheckRequest(str(root), changes, sys.executable, return_contents=False)
    reply = await registry.check(request)
    assert [(f.path, f.content, f.content_omitted) for f in reply.files] == [
        ("small.json", None, True),
        ("new.json", None, True),
    ]
    assert reply.files[1].sha256 == hashlib.sha256(b"[]\n").hexdigest()


async def test_an_apply_whose_reply_could_not_be_delivered_writes_nothing(
    tmp_path: Path, root: Path
) -> None:
    """Decided before the write: the client must never be told "failed" about written files."""
    reg = Registry(tmp_path / "state4k", watch=False, limits=ReplyLimits(4096, 0))
    before = snapshot(root)
    changes = [new_file(f"{'n' * 120}{i}.json", "1\n") for i in range(40)]
    try:
        with pytest.raises(FrameTooLarge, match="nothing was written"):
            await reg.apply(ApplyRequest(str(root), changes, sys.executable, 60.0))
        outcomes = reg.stats(str(root)).outcomes
    finally:
        await reg.stop()
    assert snapshot(root) == before
    assert outcomes == {"frame_too_large": 1}


def test_by_reference_keeps_deleted_files_and_spends_the_budget_in_order() -> None:
    files = [
        CandidateFile("a", "1", "ü" * 4),  # 8 bytes: fits the 10
        CandidateFile("b", "2", "abc"),  # 3 more: over
        CandidateFile("c", None),  # deleted
        CandidateFile("d", "3", "x"),  # 1 more: fits
    ]
    reply = CheckReply(True, [], [], {}, files=files)
    shrunk = ReplyLimits(FRAME, inline_bytes=10).by_reference(reply, return_contents=True)
    assert [(f.path, f.content, f.content_omitted) for f in shrunk.files] == [
        ("a", "ü" * 4, False),
        ("b", None, True),
        ("c", None, False),
        ("d", "x", False),
    ]


def test_disk_results_are_cut_to_their_reserved_room() -> None:
    limits = ReplyLimits(frame_bytes=64 * 1024)  # 16 KiB kept for the disk rungs
    noisy = DiskResult(
        "tests", "fail", 1.0, ["python", "-m", "pytest", *(f"t{i}.py" for i in range(2000))],
        [f"t{i}.py::test_x" for i in range(2000)], "line\n" * 20_000 + "the end\n",
    )  # fmt: skip
    quiet = DiskResult("build", "pass", 1.0, ["make"], [], "ok\n")
    fitted = limits.fit_disk([noisy, quiet])
    assert len(msgspec.msgpack.encode(fitted)) <= limits.disk_bytes
    assert fitted[0].output.endswith("the end\n")  # the tail is what explains a failure
    assert fitted[0].command[:3] == ["python", "-m", "pytest"]
    assert fitted[1] == quiet
    assert limits.fit_disk([quiet]) == [quiet]


# --- an unwritable state directory ----------------------------------------------------------


@contextmanager
def read_only(directory: Path) -> Generator[None]:
    """``directory`` read-only for this process: a read-only bind mount as root (root writes
    through any mode), mode 0o555 otherwise. Skips when neither is possible here."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        try:
            yield
        finally:
            directory.chmod(0o700)
        return
    mount = ["mount", "--bind", str(directory), str(directory)]
    if subprocess.run(mount, capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot bind-mount here to make a directory read-only as root")
    try:
        remount = ["mount", "-o", "remount,ro,bind", str(directory)]
        if subprocess.run(remount, capture_output=True, check=False).returncode != 0:
            pytest.skip("cannot remount a bind mount read-only here")
        yield
    finally:
        subprocess.run(["umount", str(directory)], capture_output=True, check=True)


@pytest.fixture
def runtime_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        run = Path(d) / "run"
        (run / "state").mkdir(parents=True, mode=0o700)
        run.chmod(0o700)
        yield run


def test_a_daemon_with_an_unwritable_state_dir_does_not_start_and_names_it(
    runtime_dir: Path,
) -> None:
    state = runtime_dir / "state"
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(runtime_dir))
    with read_only(state):
        done = subprocess.run(
            [sys.executable, "-m", "prewrite_daemon"],
            env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 1
        assert f"state directory {state} is not writable" in done.stderr
        assert "Traceback" not in done.stderr
        # Auto-start (what `prewrite check` does) reports the same reason, not a 30 s wait.
        with pytest.raises(DaemonUnavailable, match=f"state directory {state} is not writable"):
            Client(paths=RuntimePaths(runtime_dir), start_timeout_s=5)
    assert not (runtime_dir / "daemon.json").exists()


async def test_checks_on_a_state_dir_turned_read_only_name_it(
    runtime_dir: Path, root: Path
) -> None:
    state = runtime_dir / "state"
    reg = Registry(state, watch=False)
    try:
        with read_only(state):
            for _ in range(2):
                with pytest.raises(StateDirUnwritable, match=f"state directory {state}"):
                    await reg.check(CheckRequest(str(root), [new_file("b.json", "1\n")]))
        reply = await reg.check(CheckRequest(str(root), [new_file("b.json", "1\n")]))
        assert reply.ok  # writable again: checks work again
    finally:
        await reg.stop()


async def test_a_read_only_part_of_the_state_dir_is_named_too(
    runtime_dir: Path, root: Path
) -> None:
    """The shadow trees' directory unwritable: the check fails naming it, not internal_error."""
    state = runtime_dir / "state"
    shadows = state / "shadows"
    shadows.mkdir()
    (root / "pyproject.toml").write_text("[tool.prewrite]\nformat = false\nlint = false\n")
    reg = Registry(state, watch=False)
    try:
        with read_only(shadows):
            with pytest.raises(StateDirUnwritable, match=f"{shadows}/"):
                await reg.check(CheckRequest(str(root), [new_file("b.py", "x = 1\n")]))
    finally:
        await reg.stop()

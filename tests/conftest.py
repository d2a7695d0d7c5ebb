"""Shared fixtures: one warm daemon per test session, in its own runtime dir."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import psutil
import pytest

from prewrite.client import Client
from prewrite.errors import PrewriteError
from prewrite.runtime import RuntimePaths, read_status
from tests.support import oracle_record

if TYPE_CHECKING:
    from collections.abc import Iterator


REPO = Path(__file__).resolve().parent.parent
STOP_GRACE_S = 20.0  # a stopped daemon stops its checkers in stages; past this it is killed


@pytest.fixture(scope="session", autouse=True)
def shared_protocol_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One cache of library Protocols (``protocols.roots.default_cache_dir``) for every daemon the
    session starts, each worker's included: each has its own runtime dir, and so would scan the
    venv's libraries afresh (~20 s of CPU each) for the same, keyed, answer."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    cache = shared / "protocols"
    old = os.environ.get("PREWRITE_PROTOCOL_CACHE")
    os.environ["PREWRITE_PROTOCOL_CACHE"] = str(cache)
    try:
        yield cache
    finally:
        if old is None:
            os.environ.pop("PREWRITE_PROTOCOL_CACHE", None)
        else:
            os.environ["PREWRITE_PROTOCOL_CACHE"] = old


@pytest.fixture(scope="session", autouse=True)
def trusted_test_trees(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The session's temporary trees and the repository's caches are trusted workspaces (they
    run their own interpreter, as CI does); nothing else is — the user's own trust list is
    never read or written by the tests. Untrusted-mode tests put their repos elsewhere."""
    trust = tmp_path_factory.mktemp("trust") / "trusted"
    trust.write_text(f"{tmp_path_factory.getbasetemp().resolve()}\n{REPO}\n")
    old = os.environ.get("PREWRITE_TRUST_FILE")
    os.environ["PREWRITE_TRUST_FILE"] = str(trust)
    try:
        yield trust
    finally:
        if old is None:
            os.environ.pop("PREWRITE_TRUST_FILE", None)
        else:
            os.environ["PREWRITE_TRUST_FILE"] = old


@pytest.fixture(scope="session")
def runtime_dir() -> Iterator[Path]:
    # Short path: Unix socket paths are limited to ~107 bytes.
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        yield Path(d)


@pytest.fixture(scope="session")
def daemon(runtime_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RuntimePaths]:
    """A daemon shared by the session's end-to-end tests (started like the CLI starts it)."""
    old = os.environ.get("PREWRITE_RUNTIME_DIR")
    os.environ["PREWRITE_RUNTIME_DIR"] = str(runtime_dir)
    paths = RuntimePaths(runtime_dir)
    client = Client(paths=paths)
    client.close()
    started = read_status(paths)
    try:
        yield paths
    finally:
        try:
            with Client(paths=paths, autostart=False) as c:
                c.stop()
        except PrewriteError:
            pass  # unresponsive: the kill below
        finally:
            if started is not None:
                _kill_if_alive(started.pid)
            # The session daemon's log outlives its runtime dir (pytest keeps the last three
            # base temp dirs): an internal error in a run is diagnosed from it afterwards.
            log = paths.log_file
            if log.is_file():
                keep = tmp_path_factory.getbasetemp() / "session-daemon.log"
                with contextlib.suppress(OSError):
                    shutil.copyfile(log, keep)
            if old is None:
                os.environ.pop("PREWRITE_RUNTIME_DIR", None)
            else:
                os.environ["PREWRITE_RUNTIME_DIR"] = old


def _kill_if_alive(pid: int) -> None:
    """A daemon that did not stop within the grace time (a test left it busy) is killed, with
    its children: a session never leaves a process behind to load the next one."""
    try:
        psutil.Process(pid).wait(STOP_GRACE_S)
    except psutil.NoSuchProcess:
        return
    except psutil.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(os.getpgid(pid), signal.SIGKILL)  # its own session: checkers go with it


@pytest.fixture
def client(daemon: RuntimePaths) -> Iterator[Client]:
    with Client(paths=daemon, autostart=False) as c:
        yield c


@pytest.fixture(scope="session")
def python_exe() -> str:
    """The interpreter whose site-packages the checker resolves in e2e tests."""
    return sys.executable


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tier first. Under ``make test`` (two workers, ``--dist loadscope``) a worker that
    is free takes the next module, so the longest modules start at once, one per worker, and
    the short ones fill the gaps: no worker ends the run alone with a 5-minute test."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


_ORACLE_TOTALS: Counter[str] = Counter()  # the workers' ``oracle_record.STATS`` (under xdist)


def pytest_sessionfinish(session: pytest.Session) -> None:
    output = getattr(session.config, "workeroutput", None)
    if isinstance(output, dict):  # an xdist worker: its counts go to the controller
        cast("dict[str, object]", output)["oracle_record"] = dict(oracle_record.STATS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    stats = getattr(node, "workeroutput", {}).get("oracle_record", {})
    _ORACLE_TOTALS.update(cast("dict[str, int]", stats))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many cold-oracle answers came from records (``tests/support/oracle_record.py``)."""
    totals = _ORACLE_TOTALS + Counter(oracle_record.STATS)
    if any(totals.values()):
        terminalreporter.write_line(
            f"cold oracle: {totals['read']} recorded answers read ({totals['checked']} of them "
            f"also run cold, equal), {totals['run']} cold runs, {totals['unrecordable']} "
            f"unrecordable{' (PREWRITE_ORACLE=live)' if oracle_record.live() else ''}"
        )

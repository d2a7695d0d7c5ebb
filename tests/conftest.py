"""Shared fixtures: one warm daemon per test session, in its own runtime dir."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.client import Client
from prewrite.runtime import RuntimePaths

if TYPE_CHECKING:
    from collections.abc import Iterator


REPO = Path(__file__).resolve().parent.parent


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
def daemon(runtime_dir: Path) -> Iterator[RuntimePaths]:
    """A daemon shared by the session's end-to-end tests (started like the CLI starts it)."""
    old = os.environ.get("PREWRITE_RUNTIME_DIR")
    os.environ["PREWRITE_RUNTIME_DIR"] = str(runtime_dir)
    paths = RuntimePaths(runtime_dir)
    client = Client(paths=paths)
    client.close()
    try:
        yield paths
    finally:
        try:
            with Client(paths=paths, autostart=False) as c:
                c.stop()
        finally:
            if old is None:
                os.environ.pop("PREWRITE_RUNTIME_DIR", None)
            else:
                os.environ["PREWRITE_RUNTIME_DIR"] = old


@pytest.fixture
def client(daemon: RuntimePaths) -> Iterator[Client]:
    with Client(paths=daemon, autostart=False) as c:
        yield c


@pytest.fixture(scope="session")
def python_exe() -> str:
    """The interpreter whose site-packages the checker resolves in e2e tests."""
    return sys.executable

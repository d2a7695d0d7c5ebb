"""The protocol abuse tests' daemon: one per module for the tests that leave it running (its runtime
dir starts too open, 0755), and a raw connection to it per test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.faults.raw_daemon import DaemonProc, RawConnection, running_daemon, short_runtime_dir

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(scope="module")
def shared() -> Iterator[DaemonProc]:
    """One daemon for the tests that leave it running; its runtime dir starts too open (0755)."""
    with short_runtime_dir() as runtime_dir:
        runtime_dir.mkdir(mode=0o755)
        runtime_dir.chmod(0o755)
        with running_daemon(runtime_dir) as daemon:
            yield daemon


@pytest.fixture
def conn(shared: DaemonProc) -> Iterator[RawConnection]:
    c = RawConnection(shared.paths.socket)
    try:
        yield c
    finally:
        c.close()

"""The libraries' Protocols per environment (``protocols.library``): real scan processes over
pyright's bundled typeshed and real venvs in temporary directories."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import time
import zipfile
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite_daemon.languages.python.names.symbol_changes import STDLIB_PROTOCOL_MEMBERS
from prewrite_daemon.languages.python.protocols.files import MAX_SOURCE_BYTES, read_bounded
from prewrite_daemon.languages.python.protocols.library import (
    MAX_ATTEMPTS,
    LibraryProtocols,
    ScanState,
    pause_scans,
    resume_scans,
)
from prewrite_daemon.languages.python.protocols.names import LibraryProtocolSet, reachable_protocols
from prewrite_daemon.languages.python.protocols.roots import for_environment
from tests.support.setups import make_venv

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

pytestmark = pytest.mark.timeout(300)

SCAN_S = 240.0  # a typeshed scan on a loaded two-core machine takes a few seconds
# A member of the Protocol ``_Options`` in the python-crontab stubs pyright bundles (typeshed)
STUB_MEMBER = "day_of_week_start_index_zero"
PROTOCOL = "from typing import Protocol\n\nclass {cls}(Protocol):\n    {member}: int\n"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache dir for the module: typeshed is scanned once."""
    return tmp_path_factory.mktemp("protocols")


def install_wheel(python: str, where: Path, version: str, module: str) -> None:
    """``pip install`` (offline) a wheel of ``shapes`` holding ``module`` into ``python``'s env."""
    name = f"shapes-{version}"
    files = {
        "shapes/__init__.py": module,
        f"{name}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: shapes\nVersion: {version}\n",
        f"{name}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    record = [f"{path},sha256={_digest(text)},{len(text.encode())}" for path, text in files.items()]
    files[f"{name}.dist-info/RECORD"] = "\n".join([*record, f"{name}.dist-info/RECORD,,"]) + "\n"
    wheel = where / f"{name}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-index",
         "--no-deps", str(wheel)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip


def _digest(text: str) -> str:
    raw = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_a_bundled_stub_of_a_package_not_installed_counts(tmp_path: Path, cache: Path) -> None:
    site = make_venv(tmp_path)
    assert not list(site.glob("crontab*"))  # python-crontab is not installed there
    found = for_environment([site], cache_dir=cache).wait(SCAN_S)
    assert found is not None
    assert STUB_MEMBER in found.members
    assert {"fileno", "read", "write", "__call__"} & found.members == {"fileno", "read", "write"}
    assert "Protocol" in found.aliases
    # the scan of typeshed's stdlib finds every name the planner's hard-coded floor lists
    assert found.members >= STDLIB_PROTOCOL_MEMBERS


def test_a_bundled_stub_counts_only_where_it_is_imported(tmp_path: Path, cache: Path) -> None:
    site = make_venv(tmp_path)
    found = for_environment([site], cache_dir=cache).wait(SCAN_S)
    assert found is not None
    assert STUB_MEMBER in found.members  # reachable or not: sound for a caller without imports
    assert STUB_MEMBER in reachable_protocols(found, ["crontab"]).members
    assert STUB_MEMBER not in reachable_protocols(found, ["os", "yaml.nodes"]).members
    always = reachable_protocols(found, [])
    assert always.members >= STDLIB_PROTOCOL_MEMBERS  # the stdlib is always seen
    assert "Protocol" in always.aliases


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_stubs_reached_through_stubs_and_site_packages(tmp_path: Path, cache: Path) -> None:
    """A typeshed (as ``typeshedPath`` names one) whose stubs import each other, and a tree
    outside the root importing one of them: each counts exactly when something seen imports
    it."""
    typeshed = write_tree(
        tmp_path / "typeshed",
        {
            "stdlib/os.pyi": "import builtins\n",
            "stubs/types-alpha/alpha/__init__.pyi": "from alpha.sub import *\n",
            "stubs/types-alpha/alpha/sub.pyi": "import beta\n"
            + PROTOCOL.format(cls="A", member="alpha_member"),
            "stubs/beta/beta.pyi": PROTOCOL.format(cls="B", member="beta_member"),
            "stubs/gamma/gamma.pyi": PROTOCOL.format(cls="G", member="gamma_member"),
            "stubs/delta/delta.pyi": PROTOCOL.format(cls="D", member="delta_member"),
            "stubs/eps/eps.pyi": "from typing import Protocol as EpsProto\n",
        },
    )
    tree = write_tree(
        tmp_path / "shared",
        {"uses.py": "try:\n    import gamma.x as g\nexcept ImportError:\n    g = None\n"},
    )
    found = for_environment([], [tree], [typeshed], cache_dir=cache).wait(SCAN_S)
    assert found is not None
    made = {"alpha_member", "beta_member", "gamma_member", "delta_member"}
    assert made <= found.members
    assert "EpsProto" in found.aliases

    def reached(library: LibraryProtocolSet, *imports: str) -> set[str]:
        return set(reachable_protocols(library, imports).members & made)

    assert reached(found) == {"gamma_member"}  # the tree imports gamma
    assert reached(found, "alpha") == {"alpha_member", "beta_member", "gamma_member"}
    assert reached(found, "beta") == {"beta_member", "gamma_member"}  # beta imports nothing
    assert reached(found, "delta.x", "gamma") == {"delta_member", "gamma_member"}
    assert "EpsProto" in reachable_protocols(found, ["eps"]).aliases
    assert "EpsProto" not in reachable_protocols(found, ["alpha"]).aliases

    # the tree changes: a new answer, from the typeshed level's facts and imports kept on disk
    (tree / "uses.py").write_text("import delta\n")
    again = for_environment([], [tree], [typeshed], cache_dir=cache).wait(SCAN_S)
    assert again is not None
    assert reached(again) == {"delta_member"}
    assert reached(again, "alpha") == {"alpha_member", "beta_member", "delta_member"}


def test_kept_on_disk_and_invalidated_by_an_install(tmp_path: Path, cache: Path) -> None:
    site = make_venv(tmp_path)
    python = str(tmp_path / ".venv" / "bin" / "python")
    first = for_environment([site], cache_dir=cache).wait(SCAN_S)
    assert first is not None
    assert "fresh_member" not in first.members

    again = for_environment([site], cache_dir=cache)
    again.prefetch()  # the disk caches only: no scan
    assert again.wait(SCAN_S, scan=False) == first
    assert again.statistics().runs == 1

    install_wheel(python, tmp_path, "1.0", PROTOCOL.format(cls="Fresh", member="fresh_member"))
    after = for_environment([site], cache_dir=cache)
    after.prefetch()
    assert after.wait(SCAN_S, scan=False) is None  # the listing moved: the caches do not answer
    assert after.statistics().state is ScanState.IDLE
    found = after.wait(SCAN_S)
    assert found is not None
    assert "fresh_member" in found.members
    assert after.statistics().runs == 2  # the lookup, then the scan

    # edited in place, as the watcher's ``libraries`` events count: the stamp moves too
    module = site / "shapes" / "__init__.py"
    module.write_text(PROTOCOL.format(cls="Edited", member="edited_member"))
    edited = for_environment([site], cache_dir=cache).wait(SCAN_S)
    assert edited is not None
    assert "edited_member" in edited.members
    assert "fresh_member" not in edited.members


def test_fifos_links_to_devices_and_huge_files_are_skipped(tmp_path: Path, cache: Path) -> None:
    tree = tmp_path / "shared"
    tree.mkdir()
    (tree / "ok.py").write_text(PROTOCOL.format(cls="Ok", member="ok_member"))
    os.mkfifo(tree / "fifo.py")
    (tree / "zero.py").symlink_to("/dev/zero")
    huge = tree / "huge.py"
    huge.write_text(PROTOCOL.format(cls="Huge", member="huge_member"))
    os.truncate(huge, MAX_SOURCE_BYTES + 1)  # past pyright's own limit: it reads none of it
    for path in ("fifo.py", "zero.py", "huge.py"):
        assert read_bounded(str(tree / path)) is None
    found = for_environment([], outside=[tree], cache_dir=cache).wait(SCAN_S)
    assert found is not None
    assert "ok_member" in found.members
    assert "huge_member" not in found.members


def test_the_scan_runs_isolated(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    hook = f"import pathlib\npathlib.Path({str(marker)!r}).touch()\n"
    here = tmp_path / "cwd"
    here.mkdir()
    for name in ("sitecustomize.py", "usercustomize.py", "typing.py", "json.py"):
        (here / name).write_text(hook)
    tree = tmp_path / "scanned"
    tree.mkdir()
    (tree / "sitecustomize.py").write_text(hook + PROTOCOL.format(cls="S", member="isolated"))
    (tree / "typing.py").write_text(hook + "Protocol = object\n")
    monkeypatch.chdir(here)
    monkeypatch.setenv("PYTHONPATH", str(here))
    monkeypatch.setenv("PYTHONSTARTUP", str(here / "typing.py"))
    found = for_environment([], outside=[tree], cache_dir=cache).wait(SCAN_S)
    assert found is not None
    assert "isolated" in found.members  # the scanned files were read...
    assert not marker.exists()  # ...and nothing of them or of the cwd ran


def test_a_failed_scan_is_logged_and_retried_once(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    levels = [{"kind": "tree", "roots": [str(tmp_path)], "key": None}]
    library = LibraryProtocols(blocker / "cache", levels)  # the cache dir cannot be made
    for attempt in range(1, MAX_ATTEMPTS + 2):
        assert library.wait(30) is None
        stats = library.statistics()
        assert stats.state is ScanState.FAILED
        assert stats.runs == min(attempt, MAX_ATTEMPTS)
    assert library.get() is None


def test_a_scan_past_its_deadline_is_killed(tmp_path: Path) -> None:
    levels = [{"kind": "tree", "roots": [str(tmp_path)], "key": None}]
    library = LibraryProtocols(tmp_path / "cache", levels, timeout_s=0.001)
    assert library.wait(30) is None
    stats = library.statistics()
    assert stats.state is ScanState.FAILED
    assert stats.error is not None
    assert "longer than" in stats.error


def _scan_processes() -> list[psutil.Process]:
    me = psutil.Process()
    return [
        p
        for p in me.children()
        if "prewrite_daemon.languages.python.protocols.scan" in " ".join(p.cmdline())
    ]


def _wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_scan_waits_while_requests_are_served(tmp_path: Path) -> None:
    """Started while paused, it starts stopped; resumed, it answers."""
    library = for_environment([], cache_dir=tmp_path / "cache")  # typeshed: seconds of work
    pause_scans()
    try:
        assert library.get() is None
        assert _wait_for(lambda: len(_scan_processes()) == 1)
        (scan,) = _scan_processes()
        assert _wait_for(lambda: scan.status() == psutil.STATUS_STOPPED)
    finally:
        resume_scans()
    assert _wait_for(lambda: scan.status() != psutil.STATUS_STOPPED)
    assert library.wait(SCAN_S) is not None


PAUSED_PARENT = """
import sys, time
from pathlib import Path
from prewrite_daemon.languages.python.protocols.roots import for_environment
from prewrite_daemon.languages.python.protocols.library import _live, pause_scans
library = for_environment([], cache_dir=Path(sys.argv[1]))
library.get()
while not _live:
    time.sleep(0.01)
pause_scans()
print(next(iter(_live)).pid, flush=True)
time.sleep(600)
"""


def test_a_paused_scan_ends_when_its_daemon_is_killed(tmp_path: Path) -> None:
    """The daemon SIGKILLed while a scan is stopped: the kernel hangs the orphaned group up."""
    with subprocess.Popen(
        [sys.executable, "-c", PAUSED_PARENT, str(tmp_path / "cache")],
        stdout=subprocess.PIPE, text=True,
    ) as parent:  # fmt: skip
        try:
            assert parent.stdout is not None
            scan = psutil.Process(int(parent.stdout.readline()))
            assert _wait_for(lambda: scan.status() == psutil.STATUS_STOPPED)
        finally:
            parent.kill()
            parent.wait(30)
    assert _wait_for(lambda: not scan.is_running() or scan.status() == psutil.STATUS_ZOMBIE)


def test_time_paused_does_not_count_against_a_scans_deadline(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "m.py").write_text(PROTOCOL.format(cls="P", member="paused_member"))
    levels = [{"kind": "tree", "roots": [str(tree)], "key": None}]
    # A deadline a loaded two-core machine meets (a scan of one file, its interpreter's start
    # included, took over 1.5 s at load 9), paused twice as long.
    library = LibraryProtocols(tmp_path / "cache", levels, timeout_s=4.0)
    pause_scans()
    try:
        assert library.get() is None
        time.sleep(8.0)  # paused twice as long as the deadline
    finally:
        resume_scans()
    found = library.wait(SCAN_S)
    assert found is not None, library.statistics()
    assert library.statistics().state is ScanState.READY

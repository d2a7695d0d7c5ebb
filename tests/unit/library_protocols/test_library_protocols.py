"""The libraries' Protocols per environment (``protocols.library``), what a scan finds and keeps:
bundled stubs count where they are imported, stubs reached through stubs and site-packages, the
answer kept on disk and invalidated by an install, FIFOs, links to devices and huge files skipped.
Real scan processes over pyright's bundled typeshed and real venvs in temporary directories.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import zipfile
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.python.names.symbol_changes import STDLIB_PROTOCOL_MEMBERS
from prewrite_daemon.languages.python.protocols.files import MAX_SOURCE_BYTES, read_bounded
from prewrite_daemon.languages.python.protocols.library import ScanState
from prewrite_daemon.languages.python.protocols.names import LibraryProtocolSet, reachable_protocols
from prewrite_daemon.languages.python.protocols.roots import default_cache_dir, for_environment
from tests.support.setups import make_venv
from tests.unit.library_protocols.library_helpers import PROTOCOL, SCAN_S

if TYPE_CHECKING:
    from pathlib import Path


pytestmark = pytest.mark.timeout(300)


# A member of the Protocol ``_Options`` in the python-crontab stubs pyright bundles (typeshed)
STUB_MEMBER = "day_of_week_start_index_zero"


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


def test_the_cache_may_be_shared_by_daemons_with_other_runtime_dirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PREWRITE_PROTOCOL_CACHE`` names the cache whatever the runtime dir; without it, the
    cache is the runtime dir's state."""
    monkeypatch.setenv("PREWRITE_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.delenv("PREWRITE_PROTOCOL_CACHE", raising=False)
    assert default_cache_dir() == tmp_path / "run" / "state" / "protocols"
    monkeypatch.setenv("PREWRITE_PROTOCOL_CACHE", str(tmp_path / "shared"))
    assert default_cache_dir() == tmp_path / "shared"
    assert for_environment([]).cache_dir == tmp_path / "shared"

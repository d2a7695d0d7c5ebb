"""Issue 20, item 5: the daemon imports nothing from the directory it was started from.

``prewrite`` is run as an agent runs it, from inside a folder holding a ``yaml.py`` and a
``prewrite/`` package that would each leave a marker when imported (and the package would shadow
the client's). The daemon it starts must come up, check a YAML file (the module that parses
YAML is imported then), and no marker may appear; a ``PYTHONPATH`` naming such a folder (a
repository's ``.envrc`` may set one) is not read either. Its children run in no caller's
directory: the daemon's own working directory is ``/``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite.client import Client
from prewrite.protocol import FileChange
from prewrite.runtime import RuntimePaths, read_status
from tests.support.private_daemon import stop_daemon

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

PREWRITE = str(Path(sys.executable).with_name("prewrite"))


def _trap(directory: Path, markers: Path, name: str) -> None:
    touch = f"open({str(markers / name)!r}, 'w').close()\n"
    (directory / "yaml.py").write_text(touch)
    package = directory / "prewrite"
    package.mkdir()
    (package / "__init__.py").write_text(touch.replace(name, name + "-package"))


@pytest.fixture
def trapped() -> Iterator[tuple[Path, Path, Path]]:
    """(the folder an agent starts from, a PYTHONPATH folder, the marker folder)."""
    base = Path(tempfile.mkdtemp(prefix="pw-iso-", dir="/tmp"))
    cwd, on_path, markers = base / "cwd", base / "pythonpath", base / "markers"
    for d in (cwd, on_path, markers):
        d.mkdir()
    _trap(cwd, markers, "cwd")
    (on_path / "yaml.py").write_text(f"open({str(markers / 'pythonpath')!r}, 'w').close()\n")
    try:
        yield cwd, on_path, markers
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False, timeout=60)


def test_the_daemon_imports_nothing_from_the_callers_folder(
    trapped: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    cwd, on_path, markers = trapped
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        paths = RuntimePaths(Path(d) / "run")
        env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(paths.runtime_dir), PYTHONPATH=str(on_path))
        env.pop("PREWRITE_DAEMON_CMD", None)
        try:
            started = subprocess.run(
                [PREWRITE, "daemon", "start"], cwd=cwd, env=env, capture_output=True, text=True,
                timeout=120, check=False,
            )  # fmt: skip
            assert started.returncode == 0, started.stderr
            status = read_status(paths)
            assert status is not None
            assert psutil.Process(status.pid).cwd() == "/"
            root = tmp_path / "repo"
            (root / ".git").mkdir(parents=True)
            change = FileChange("conf.yaml", None, content="a: 2\nb: [1, 2]\n")
            with Client(paths=paths, autostart=False) as client:
                reply = client.check(root, [change], timeout_s=60)
            assert reply.ok, reply
            assert any(r.rung == "parse" and r.outcome == "pass" for r in reply.rungs), reply.rungs
            assert sorted(p.name for p in markers.iterdir()) == []
        finally:
            stop_daemon(paths)

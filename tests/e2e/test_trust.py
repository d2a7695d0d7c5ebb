"""The trust model: an untrusted workspace is checked without running anything it contains.

The repository's venv is booby-trapped: its ``python`` and ``ruff`` and a ``.pth`` file each leave
a marker when run. Checked untrusted, no marker appears and the verdict still agrees with the cold
``pyright`` (which, as CI does, runs the venv); ``apply`` writes but runs no tests, ``finish``
is refused. Once the user trusts the root, the same check runs them, as CI would.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.errors import UntrustedWorkspace
from prewrite.trust import set_trusted
from tests.support.oracle import surplus
from tests.support.setups import make_venv, venv_python, whole_setup_oracle, write

if TYPE_CHECKING:
    from collections.abc import Iterator

    from prewrite import Client
    from prewrite.protocol import FileChange

pytestmark = pytest.mark.e2e

BAD = "from extpkg import e\n\nx: int = e()\n"


def trapped_repo(base: Path, markers: Path) -> Path:
    root = base / "ws"
    write(root, {
        "pyproject.toml": "[tool.prewrite]\nformat = false\nfinish = "
        f"[{{name = 'build', command = ['touch', '{markers}/finish']}}]\n",
        "app.py": "from extpkg import e\n\nx: str = e()\n",
        "test_app.py": f"open('{markers}/tests', 'w').close()\n\n\ndef test_x() -> None:\n"
        "    pass\n",
    })  # fmt: skip
    site = make_venv(root)
    write(site, {
        "extpkg/__init__.py": "def e() -> str:\n    return 'e'\n",
        "trap.pth": f"import pathlib; pathlib.Path('{markers}/pth').touch()\n",
    })  # fmt: skip
    bin_dir = root / ".venv" / "bin"
    real = next(p for p in bin_dir.iterdir() if p.name.startswith("python3."))
    (bin_dir / "python").unlink()
    _script(bin_dir / "python", f'touch {markers}/python; exec "{real}" "$@"')
    daemon_ruff = Path(sys.executable).parent / "ruff"
    _script(bin_dir / "ruff", f'touch {markers}/ruff; exec "{daemon_ruff}" "$@"')
    return root


def _script(path: Path, body: str) -> None:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


@pytest.fixture
def untrusted(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A trapped repo outside the session's trusted trees, and its marker directory."""
    base = Path(tempfile.mkdtemp(prefix="pw-untrusted-", dir="/tmp"))
    markers = base / "markers"
    markers.mkdir()
    try:
        yield trapped_repo(base, markers), markers
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_untrusted_check_runs_nothing_and_agrees_with_pyright(
    client: Client, untrusted: tuple[Path, Path], tmp_path: Path
) -> None:
    root, markers = untrusted
    changes = [change_file(root, "app.py", BAD)]
    reply = client.check(root, changes, python=venv_python(root))
    assert sorted(p.name for p in markers.iterdir()) == []  # nothing of the repo ran
    assert not reply.ok
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("app.py", "reportAssignmentType")]
    assert any(n.startswith("untrusted workspace") for n in reply.not_verified)

    oracle_markers = tmp_path / "oracle-markers"
    oracle_markers.mkdir()
    oracle = whole_setup_oracle(lambda b: trapped_repo(b, oracle_markers), changes, tmp_path)
    assert surplus(reply.diagnostics, oracle) == []
    assert surplus(oracle, reply.diagnostics) == []


def test_untrusted_apply_writes_but_runs_no_tests_and_finish_is_refused(
    client: Client, untrusted: tuple[Path, Path]
) -> None:
    root, markers = untrusted
    good = "from extpkg import e\n\nx: str = e() + '!'\n"
    reply = client.apply(root, [change_file(root, "app.py", good)], python=venv_python(root))
    assert reply.ok, reply
    assert (root / "app.py").read_text() == good
    assert [(d.rung, d.outcome) for d in reply.disk] == [("tests", "skipped")]
    assert "not trusted" in reply.disk[0].output
    with pytest.raises(UntrustedWorkspace):
        client.finish(root)
    assert sorted(p.name for p in markers.iterdir()) == []


def test_trusting_the_root_runs_its_interpreter_and_ruff_as_ci_does(
    client: Client, untrusted: tuple[Path, Path], trusted_test_trees: Path
) -> None:
    root, markers = untrusted
    set_trusted(root, True, trusted_test_trees)
    try:
        changes: list[FileChange] = [change_file(root, "app.py", BAD)]
        reply = client.check(root, changes, python=venv_python(root))
        assert not reply.ok
        assert not any(n.startswith("untrusted") for n in reply.not_verified)
        assert {"python", "ruff"} <= {p.name for p in markers.iterdir()}
        client.finish(root)
        assert (markers / "finish").exists()
    finally:
        set_trusted(root, False, trusted_test_trees)

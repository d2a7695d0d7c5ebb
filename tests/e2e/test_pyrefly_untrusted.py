"""pyrefly in an untrusted workspace: prewrite's own pyrefly, told the packages read from disk.

The repository is ``test_trust``'s booby-trapped one (its ``python``, its ``ruff`` and a ``.pth``
file each leave a marker when run), configured for pyrefly, with a trapped ``pyrefly`` of its own
beside its interpreter and an editable install (a ``.pth`` naming a directory outside the venv).
Left to itself, pyrefly runs the project's ``.venv/bin/python`` to find the packages; prewrite
passes ``--skip-interpreter-query`` and the directories instead. The patch's errors are ones
pyrefly can only see through those packages (``extpkg.e`` and ``editpkg.g`` return ``str``): a
red verdict naming both proves they were found, and no marker proves nothing of the workspace
ran to find them. A configuration that would run a command (``script-command``) is refused,
whether on disk or brought by the patch, never judged with it dropped. Trusted, the same check
runs the workspace's own pyrefly and lets it run the interpreter, as its own run does, and
answers the same.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.errors import UntrustedWorkspace
from prewrite.trust import set_trusted
from prewrite_daemon.backends.cli_tool import bundled_binary
from tests.e2e.test_trust import trapped_repo
from tests.support.setups import install_editable, venv_python, write

if TYPE_CHECKING:
    from collections.abc import Iterator

    from prewrite import Client
    from prewrite.protocol import CheckReply

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

BAD = "from extpkg import e\nfrom editpkg import g\n\nx: int = e()\ny: int = g()\n"
SCRIPT = "# /// script\n# dependencies = []\n# ///\nprint('hi')\n"


@pytest.fixture
def untrusted() -> Iterator[tuple[Path, Path]]:
    """A trapped repo configured for pyrefly, outside the session's trusted trees, and its
    marker directory."""
    base = Path(tempfile.mkdtemp(prefix="pw-pyrefly-untrusted-", dir="/tmp")).resolve()
    markers = base / "markers"
    markers.mkdir()
    try:
        root = trapped_repo(base, markers)
        with (root / "pyproject.toml").open("a") as pyproject:
            pyproject.write("\n[tool.pyrefly]\n")
        site = next((root / ".venv").glob("lib/python3*/site-packages"))
        write(base, {"editsrc/editpkg/__init__.py": "def g() -> str:\n    return 'g'\n"})
        install_editable(site, "editpkg", base / "editsrc")
        (site / "pyrefly-0.0.1.dist-info").mkdir()  # its own pyrefly, trapped
        own = root / ".venv" / "bin" / "pyrefly"
        own.write_text(
            f'#!/bin/sh\ntouch {markers}/pyrefly\nexec "{bundled_binary("pyrefly")}" "$@"\n'
        )
        own.chmod(0o755)
        yield root, markers
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _check(client: Client, root: Path, **files: str) -> CheckReply:
    changes = [change_file(root, rel, text) for rel, text in files.items()]
    return client.check(root, changes, python=venv_python(root))


def _found(reply: CheckReply) -> list[tuple[str, int, str, str]]:
    return sorted(
        (d.path, d.line, d.rule, d.message) for d in reply.diagnostics if d.source == "pyrefly"
    )


EXPECTED = [
    ("app.py", 4, "bad-assignment", "`str` is not assignable to `int`"),  # extpkg, read
    ("app.py", 5, "bad-assignment", "`str` is not assignable to `int`"),  # editpkg, via its .pth
]


def test_untrusted_pyrefly_finds_the_packages_and_runs_nothing(
    client: Client, untrusted: tuple[Path, Path]
) -> None:
    root, markers = untrusted
    reply = _check(client, root, **{"app.py": BAD})
    assert not reply.ok, reply
    assert _found(reply) == EXPECTED
    judged = "judged by pyrefly 1.5.0 (bundled; the workspace has 0.0.1)"
    assert any(judged in v for v in reply.verified), reply.verified
    assert any(n.startswith("untrusted workspace") for n in reply.not_verified)
    assert sorted(p.name for p in markers.iterdir()) == []


def test_a_command_in_pyrefly_s_settings_is_refused_not_dropped(
    client: Client, untrusted: tuple[Path, Path]
) -> None:
    root, markers = untrusted
    (root / "tool.py").write_text(SCRIPT)  # a PEP 723 script: pyrefly asks script-command
    settings = f"\n[tool.pyrefly]\nscript-command = ['touch', '{markers}/script']\n"
    on_disk = (root / "pyproject.toml").read_text()
    patched = on_disk.replace("\n[tool.pyrefly]\n", settings)
    with pytest.raises(UntrustedWorkspace, match="script-command"):  # brought by the patch
        _check(client, root, **{"app.py": BAD, "pyproject.toml": patched})
    (root / "pyproject.toml").write_text(patched)
    with pytest.raises(UntrustedWorkspace, match="script-command"):  # on disk
        _check(client, root, **{"app.py": BAD})
    assert sorted(p.name for p in markers.iterdir()) == []


def test_trusted_pyrefly_runs_the_interpreter_and_answers_the_same(
    client: Client, untrusted: tuple[Path, Path], trusted_test_trees: Path
) -> None:
    root, markers = untrusted
    set_trusted(root, True, trusted_test_trees)
    try:
        reply = _check(client, root, **{"app.py": BAD})
        assert _found(reply) == EXPECTED
        assert not any(n.startswith("untrusted") for n in reply.not_verified)
        judged = "judged by pyrefly 0.0.1 (the workspace's own)"
        assert any(judged in v for v in reply.verified), reply.verified
        assert {"pyrefly", "python"} <= {p.name for p in markers.iterdir()}
    finally:
        set_trusted(root, False, trusted_test_trees)

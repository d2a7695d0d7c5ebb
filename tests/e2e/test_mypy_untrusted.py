"""mypy in an untrusted workspace: prewrite's own mypy, the workspace's packages read from disk.

The repository is ``test_trust``'s booby-trapped one (its ``python``, its ``ruff`` and a ``.pth``
file each leave a marker when run), configured for mypy. The patch's error is one mypy can only
see through the venv's packages (``extpkg.e`` returns ``str``): a red verdict proves the packages
were found, and no marker proves nothing of the workspace ran to find them (mypy asks the shim,
``backends.mypy_command.untrusted_shim``, not the venv's interpreter). A configuration that
would load a plugin — the repository's code — is refused, never judged with it dropped.

The patch (``x: str`` to ``x: int``) keeps the file's size: it is also the regression test for
dmypy's change detection, which rounds mtimes down to the second (``backends.dmypy._touch``;
before, about every other run answered green).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.errors import UntrustedWorkspace
from tests.e2e.test_trust import BAD, trapped_repo
from tests.support.setups import venv_python

if TYPE_CHECKING:
    from collections.abc import Iterator

    from prewrite import Client

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


@pytest.fixture
def untrusted() -> Iterator[tuple[Path, Path]]:
    """A trapped repo outside the session's trusted trees, and its marker directory."""
    base = Path(tempfile.mkdtemp(prefix="pw-mypy-untrusted-", dir="/tmp")).resolve()
    markers = base / "markers"
    markers.mkdir()
    try:
        yield trapped_repo(base, markers), markers
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _configure(root: Path, mypy: str) -> None:
    """mypy configured; ``extpkg`` marked typed (mypy reads an installed package's code only
    under PEP 561's ``py.typed``: without it ``e()`` is ``Any`` to mypy, trusted or not)."""
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + f"\n[tool.mypy]\n{mypy}")
    (next((root / ".venv").glob("lib/python3*/site-packages")) / "extpkg" / "py.typed").touch()


def test_untrusted_mypy_finds_the_packages_and_runs_nothing(
    client: Client, untrusted: tuple[Path, Path]
) -> None:
    root, markers = untrusted
    _configure(root, "strict = true\n")
    reply = client.check(root, [change_file(root, "app.py", BAD)], python=venv_python(root))
    assert not reply.ok, reply
    (found,) = [d for d in reply.diagnostics if d.source == "mypy"]
    assert (found.path, found.rule) == ("app.py", "assignment")
    assert 'expression has type "str"' in found.message  # extpkg's own annotation, read
    assert any("judged by mypy" in v and "bundled with prewrite" in v for v in reply.verified)
    assert sorted(p.name for p in markers.iterdir()) == []


def test_an_untrusted_mypy_plugin_is_refused_not_dropped(
    client: Client, untrusted: tuple[Path, Path]
) -> None:
    root, markers = untrusted
    _configure(root, 'plugins = ["extpkg.plugin"]\n')
    with pytest.raises(UntrustedWorkspace, match="plugins"):
        client.check(root, [change_file(root, "app.py", BAD)], python=venv_python(root))
    assert sorted(p.name for p in markers.iterdir()) == []

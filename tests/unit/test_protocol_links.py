"""Sources the workspace links in from outside its root (``ShadowTree.links``): the checker reads
them, so ``PythonLanguage.new_graph`` has their Protocols scanned (a real shadow, venv and scan
process)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.python.language import PYTHON, linked_sources
from prewrite_daemon.shadow.tree import ShadowTree
from tests.support.setups import make_venv, venv_python

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.languages.python.names.deps import NameGraph

pytestmark = pytest.mark.timeout(300)

SCAN_S = 240.0
PROTOCOL = "from typing import Protocol\n\nclass {cls}(Protocol):\n    {member}: int\n"


def members(graph: NameGraph) -> frozenset[str]:
    """The graph's Protocol member names, once its scan has answered."""
    deadline = time.monotonic() + SCAN_S
    while (found := graph.protocols()) is None:
        assert time.monotonic() < deadline, "the Protocol scan did not answer"
        time.sleep(0.2)
    return found


def test_sources_linked_from_outside_the_root_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREWRITE_RUNTIME_DIR", str(tmp_path / "runtime"))  # its own scan cache
    outside = tmp_path / "outside"
    (outside / "lib").mkdir(parents=True)
    (outside / "lib" / "shapes.py").write_text(PROTOCOL.format(cls="D", member="dir_member"))
    (outside / "single").write_text(PROTOCOL.format(cls="F", member="file_member"))
    (outside / "marker").write_text(PROTOCOL.format(cls="T", member="typed_member"))
    root = tmp_path / "ws"
    root.mkdir()
    (root / "main.py").write_text("import vendored.shapes\nimport proto\n")
    (root / "vendored").symlink_to(outside / "lib", target_is_directory=True)
    (root / "proto.py").symlink_to(outside / "single")  # read as ``proto.py``, whatever its name
    (root / "py.typed").symlink_to(outside / "marker")  # mirrored, but no source
    make_venv(tmp_path)
    python = venv_python(tmp_path)
    env = PYTHON.environment(root, python, python, trusted=True)
    layout = env.layout()
    shadow = ShadowTree(root, tmp_path / "shadow", PYTHON.is_mirrored, PYTHON.config_name)
    shadow.create()
    assert set(shadow.links) == {"vendored", "proto.py", "py.typed"}

    found = members(PYTHON.new_graph(root, layout, env, shadow.links))
    assert {"dir_member", "file_member"} <= found
    assert "typed_member" not in found
    # without the links (what the caller does not pass) the linked Protocols are not seen
    assert "dir_member" not in members(PYTHON.new_graph(root, layout, env))


def test_only_links_out_of_the_root_are_sources_of_their_own(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("")
    links = {
        "a": str(tmp_path / "dir"),
        "b.py": str(tmp_path / "file"),
        "c.pyi": str(tmp_path / "file"),
        "pyproject.toml": str(tmp_path / "file"),
        "inside": "../shadow/inside",  # relative: a target inside the root
        "gone.py": str(tmp_path / "missing"),
    }
    dirs, files = linked_sources(links, PYTHON.is_source)
    assert dirs == [tmp_path / "dir"]
    assert files == [tmp_path / "file", tmp_path / "file", tmp_path / "missing"]

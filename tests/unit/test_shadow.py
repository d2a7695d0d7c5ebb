"""The shadow tree: what it mirrors, the events a sync reports, and same-stamp rewrites."""

from __future__ import annotations

import os
from pathlib import Path

from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.shadow.tree import ShadowTree


def make(tmp_path: Path) -> tuple[Path, ShadowTree]:
    root = tmp_path / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/a.py").write_text("A = 1\n")
    (root / "README.md").write_text("not mirrored\n")
    (root / ".hidden").mkdir()
    (root / ".hidden/x.py").write_text("hidden\n")
    (root / "venv").mkdir()
    (root / "venv/pyvenv.cfg").write_text("home = /usr\n")
    shadow = ShadowTree(root, tmp_path / "shadow", PYTHON.is_mirrored)
    shadow.create()
    return root, shadow


def test_mirrors_python_files_only_and_links_root_venvs(tmp_path: Path) -> None:
    _root, shadow = make(tmp_path)
    assert sorted(shadow.files) == ["pkg/a.py"]
    assert (shadow.shadow_root / "venv").is_symlink()
    assert not (shadow.shadow_root / "README.md").exists()


def test_sync_reports_created_changed_and_deleted(tmp_path: Path) -> None:
    root, shadow = make(tmp_path)
    (root / "pkg/b.py").write_text("B = 2\n")
    (root / "pkg/a.py").write_text("A = 10\n")
    scan = shadow.sync()
    kinds = {(Path(e.path).name, e.kind) for e in scan.events}
    assert kinds == {("b.py", "created"), ("a.py", "changed")}
    (root / "pkg/b.py").unlink()
    scan = shadow.sync()
    assert [(Path(e.path).name, e.kind) for e in scan.events] == [("b.py", "deleted")]
    assert not (shadow.shadow_root / "pkg/b.py").exists()
    assert shadow.sync().changed == []


def test_a_same_size_rewrite_with_the_same_mtime_is_still_seen(tmp_path: Path) -> None:
    root, shadow = make(tmp_path)
    target = root / "pkg/a.py"
    before = target.stat()
    target.write_text("A = 2\n")  # same size
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert target.stat().st_mtime_ns == before.st_mtime_ns
    assert shadow.pending() == ["pkg/a.py"]
    assert shadow.sync().changed == ["pkg/a.py"]
    assert shadow.read_text("pkg/a.py") == "A = 2\n"

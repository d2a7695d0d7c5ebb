"""`apply` end to end: the ladder, the all-or-nothing write, then the affected tests."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite import Client, change_file, new_file

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import ApplyReply, FileChange

pytestmark = pytest.mark.e2e

PYPROJECT = "[tool.prewrite]\ntest_timeout = 20\n"
FILES = {
    "pyproject.toml": PYPROJECT,
    "pkg/__init__.py": "",
    "pkg/calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "pkg/slow.py": "def nap() -> None:\n    return None\n",
    "tests/test_calc.py": (
        "from pkg.calc import add\n\n\ndef test_add() -> None:\n    assert add(1, 2) == 3\n"
    ),
    "tests/test_slow.py": (
        "import time\n\nfrom pkg.slow import nap\n\n\n"
        "def test_nap() -> None:\n    nap()\n    time.sleep(0 if nap() is None else 600)\n"
    ),
    "tests/test_other.py": "def test_other() -> None:\n    assert True\n",
}


def make_repo(root: Path, pyproject: str = PYPROJECT) -> Path:
    for rel, text in {**FILES, "pyproject.toml": pyproject}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def apply(client: Client, root: Path, *changes: FileChange) -> ApplyReply:
    return client.apply(root, list(changes), python=sys.executable, timeout_s=120)


def test_a_green_patch_is_written_and_its_tests_run(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "green")
    body = "def add(a: int, b: int) -> int:\n    total = a + b\n    return total\n"
    extra = new_file("pkg/extra.py", "X = 1\n")
    reply = apply(client, root, change_file(root, "pkg/calc.py", body), extra)
    assert reply.ok, reply
    assert (root / "pkg/calc.py").read_text() == body
    assert (root / "pkg/extra.py").read_text() == "X = 1\n"
    assert sorted(f.path for f in reply.written) == ["pkg/calc.py", "pkg/extra.py"]
    [tests] = reply.disk
    assert tests.outcome == "pass"
    assert "tests/test_calc.py" in tests.command
    assert "tests/test_other.py" not in tests.command  # does not import what changed
    assert not list(root.rglob("*.prewrite-*.tmp"))


def test_a_failing_test_after_the_write_is_reported(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "failing")
    wrong = "def add(a: int, b: int) -> int:\n    return a - b\n"
    reply = apply(client, root, change_file(root, "pkg/calc.py", wrong))
    assert reply.check.ok  # type-correct, so it was written...
    assert not reply.ok  # ...and the test caught it
    assert (root / "pkg/calc.py").read_text() == wrong
    [tests] = reply.disk
    assert tests.outcome == "fail"
    assert tests.failed == ["tests/test_calc.py::test_add"]
    assert "assert" in tests.output
    assert not reply.rolled_back


def test_a_red_patch_writes_nothing(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "red")
    before = snapshot(root)
    bad = "def add(a: int, b: int) -> int:\n    return str(a + b)\n"
    reply = apply(client, root, change_file(root, "pkg/calc.py", bad), new_file("pkg/n.py", ""))
    assert not reply.ok
    assert reply.check.failed_rung == "typecheck"
    assert reply.written == []
    assert reply.disk == []
    assert snapshot(root) == before


def test_a_hanging_test_is_killed_at_its_timeout(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "hang", PYPROJECT.replace("20", "3"))
    hang = "def nap() -> int:\n    return 1\n"  # no longer None: the test sleeps 600 s
    reply = apply(client, root, change_file(root, "pkg/slow.py", hang))
    [tests] = reply.disk
    assert tests.outcome == "timeout"
    assert "killed after 3s" in tests.output
    assert tests.ms < 60_000
    assert not reply.ok
    leftovers = [
        p for p in psutil.process_iter(["cmdline"])
        if "tests/test_slow.py" in " ".join(p.info["cmdline"] or [])
    ]  # fmt: skip
    assert leftovers == []


def test_rollback_on_fail_restores_the_previous_bytes(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "rollback", PYPROJECT + "rollback_on_fail = true\n")
    before = snapshot(root)
    wrong = "def add(a: int, b: int) -> int:\n    return a * b\n"
    reply = apply(
        client, root, change_file(root, "pkg/calc.py", wrong), new_file("pkg/sub/new.py", "")
    )
    assert reply.rolled_back
    assert not reply.ok
    assert snapshot(root) == before
    assert not (root / "pkg/sub").exists()


def test_stats_include_the_write_and_the_disk_rungs(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "stats")
    apply(client, root, change_file(root, "pkg/calc.py", FILES["pkg/calc.py"] + "\n"))
    apply(client, root, change_file(root, "pkg/calc.py", FILES["pkg/calc.py"].replace("+", "-")))
    stats = {r.rung: (r.runs, r.caught) for r in client.stats(root).rungs}
    assert stats["write"] == (2, 0)
    assert stats["tests"] == (2, 1)


def test_finish_rungs_run_once_at_the_end(client: Client, tmp_path: Path) -> None:
    finish = (
        'finish = [{name = "marker", command = ["python3", "-c", '
        "\"import pathlib; pathlib.Path('finished').write_text('yes')\"], timeout = 30},"
        ' {name = "broken", command = ["python3", "-c", "raise SystemExit(3)"]}]\n'
    )
    root = make_repo(tmp_path / "finish", PYPROJECT + finish)
    body = FILES["pkg/calc.py"] + "\n"
    plain = apply(client, root, change_file(root, "pkg/calc.py", body))
    assert [d.rung for d in plain.disk] == ["tests"]  # finish rungs wait for the end
    assert not (root / "finished").exists()
    done = client.finish(root)
    assert [(d.rung, d.outcome) for d in done.disk] == [("marker", "pass"), ("broken", "fail")]
    assert not done.ok
    assert (root / "finished").read_text() == "yes"
    with_finish = client.apply(
        root, [change_file(root, "pkg/calc.py", FILES["pkg/calc.py"])], python=sys.executable,
        finish=True,
    )  # fmt: skip
    assert [d.rung for d in with_finish.disk] == ["tests", "marker", "broken"]

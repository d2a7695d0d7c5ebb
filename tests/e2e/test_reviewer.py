"""The review rung through the real daemon: a trusted workspace's reviewer refutes a patch that
contradicts the caller's intent (check and apply stop at ``review``; nothing is written; the
record and ``stats`` count the catch) and approves one that keeps it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from prewrite import Client, change_file

pytestmark = pytest.mark.e2e

CALC = "def add(a: int, b: int) -> int:\n    return a + b\n"
# Refutes a patch that makes add subtract; approves anything else. Counts its runs.
REVIEWER = """\
import json, pathlib, sys
data = sys.stdin.read()
runs = pathlib.Path(__file__).with_name("runs.txt")
runs.write_text(runs.read_text() + "x" if runs.exists() else "x")
if "+    return a - b" in data and "add returns the sum" in data:
    answer = {"verdict": "refute", "ground": "intent_mismatch",
              "evidence": "pkg/calc.py:2 subtracts where the intent says sum"}
else:
    answer = {"verdict": "approve", "ground": "none", "evidence": ""}
print(json.dumps(answer))
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace under the session's trusted trees (conftest), naming its reviewer."""
    root = tmp_path.resolve() / "reviewed"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "calc.py").write_text(CALC)
    (root / "review.py").write_text(REVIEWER)
    (root / "pyproject.toml").write_text(
        f'[tool.prewrite]\ntests = false\nreviewer = {{command = ["{sys.executable}", '
        '"review.py"], timeout = 30}\n'
    )
    return root


SUBTRACT = CALC.replace("a + b", "a - b")
INTENT = "add returns the sum of its arguments"


def test_a_refuted_patch_stops_at_review_and_is_counted(client: Client, root: Path) -> None:
    reply = client.check(
        root, [change_file(root, "pkg/calc.py", SUBTRACT)], python=sys.executable, intent=INTENT
    )
    assert not reply.ok
    assert reply.failed_rung == "review"
    [found] = reply.diagnostics
    assert (found.path, found.line, found.rule, found.source) == (
        "pkg/calc.py", 2, "intent_mismatch", "reviewer"
    )  # fmt: skip
    review = next(r for r in reply.rungs if r.rung == "review")
    assert json.loads(review.detail)["evidence"].startswith("pkg/calc.py:2")
    typecheck = next(r for r in reply.rungs if r.rung == "typecheck")
    assert typecheck.outcome == "pass"  # the reviewer comes after everything else passed

    applied = client.apply(
        root, [change_file(root, "pkg/calc.py", SUBTRACT)], python=sys.executable, intent=INTENT
    )
    assert not applied.ok
    assert applied.check.failed_rung == "review"
    assert applied.written == []
    assert (root / "pkg" / "calc.py").read_text() == CALC

    stats = client.stats(root)
    assert stats.outcomes == {"failed:review": 2}
    [counted] = [r for r in stats.rungs if r.rung == "review"]
    assert (counted.runs, counted.caught, counted.failed_open) == (2, 2, 0)


def test_an_approved_patch_is_written(client: Client, root: Path) -> None:
    body = CALC.replace("return a + b", "total = a + b\n    return total")
    reply = client.apply(
        root, [change_file(root, "pkg/calc.py", body)], python=sys.executable, intent=INTENT
    )
    assert reply.ok, reply
    assert next(r for r in reply.check.rungs if r.rung == "review").outcome == "pass"
    assert (root / "pkg" / "calc.py").read_text() == body
    assert (root / "runs.txt").read_text() == "x"


def test_the_cli_passes_the_intent(root: Path, tmp_path: Path) -> None:
    prewrite = str(Path(sys.executable).with_name("prewrite"))
    change = change_file(root, "pkg/calc.py", SUBTRACT)
    patch = tmp_path / "patch.json"
    patch.write_text(json.dumps({"changes": [
        {"path": change.path, "base_sha256": change.base_sha256, "content": SUBTRACT}
    ]}))  # fmt: skip
    argv = [prewrite, "check", "--root", str(root), "--patch", str(patch), "--no-autostart",
            "--python", sys.executable]  # fmt: skip
    refuted = subprocess.run([*argv, "--intent", INTENT], capture_output=True, text=True)
    assert refuted.returncode == 1, refuted.stderr
    assert "pkg/calc.py:2:1: error: the reviewer refutes the patch (intent_mismatch)" in (
        refuted.stdout
    )
    assert "FAILED at review" in refuted.stdout
    unstated = subprocess.run(argv, capture_output=True, text=True)  # no intent: no mismatch
    assert unstated.returncode == 0, unstated.stdout + unstated.stderr

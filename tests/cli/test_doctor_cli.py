"""``prewrite doctor`` as a user runs it: the client execs ``python -I -m prewrite_daemon.doctor``,
whose text and JSON answers and exit status are read here. No daemon is needed or started.

The doctor runs isolated (``-I``), so it imports the installed ``prewrite_daemon``; when that is
not this checkout's (a second worktree beside an editable install), the test cannot run this
checkout's doctor and says so instead of testing another one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import prewrite_daemon

CHECKOUT = Path(__file__).resolve().parents[2]
WORKFLOW = "jobs:\n  types:\n    steps:\n      - run: mypy src tests --strict\n"


def _isolated_daemon_package() -> str:
    probe = "import prewrite_daemon; print(prewrite_daemon.__file__)"
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    return done.stdout.strip()


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    if Path(_isolated_daemon_package()) != Path(prewrite_daemon.__file__):
        pytest.skip(f"`python -I` imports another prewrite_daemon than {CHECKOUT}'s")
    run = tmp_path_factory.mktemp("run")
    paths = f"{CHECKOUT / 'client'}{os.pathsep}{CHECKOUT / 'daemon'}"  # this checkout's client
    return dict(os.environ, PREWRITE_RUNTIME_DIR=str(run), PYTHONPATH=paths)


def prewrite(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "prewrite", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".github/workflows").mkdir(parents=True)
    (tmp_path / ".github/workflows/ci.yml").write_text(WORKFLOW)
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.py").write_text("x = 1\n")
    return tmp_path.resolve()


def test_text(env: dict[str, str], repo: Path) -> None:
    done = prewrite(env, "doctor", str(repo), "--python", sys.executable)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert out.startswith(f"prewrite doctor: {repo}\n")
    assert "CI files read: .github/workflows/ci.yml" in out
    for rung in ("format: ruff format", "lint: ruff check", "typecheck: pyright", "tests: pytest"):
        assert f"\n{rung} — " in out
    assert "✗ checker: CI runs mypy (.github/workflows/ci.yml:4)" in out
    assert out.rstrip().endswith("prewrite doctor: ✗ 1 mismatch(es) with CI")


def test_json(env: dict[str, str], repo: Path) -> None:
    done = prewrite(env, "doctor", "--json", "--python", sys.executable, str(repo))
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert (report["ok"], report["root"]) == (False, str(repo))
    assert [(m["kind"], m["where"]) for m in report["mismatches"]] == [
        ("checker", ".github/workflows/ci.yml:4")
    ]
    assert report["ci"][0]["targets"] == ["src", "tests"]
    assert report["ci"][0]["flags"] == ["--strict"]
    assert {r["rung"] for r in report["rungs"]} == {"format", "lint", "typecheck", "tests"}
    assert report["setup"]["daemon"]["running"] is False


def test_the_current_directory_and_a_clean_repo(env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "prewrite", "doctor", "--python", sys.executable],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"prewrite doctor: {tmp_path.resolve()}" in done.stdout


def test_bad_input_and_help(env: dict[str, str], tmp_path: Path) -> None:
    missing = prewrite(env, "doctor", str(tmp_path / "missing"))
    assert missing.returncode == 2
    assert "not a directory" in missing.stderr
    helped = prewrite(env, "doctor", "--help")
    assert helped.returncode == 0
    flat = " ".join(helped.stdout.split())
    assert "0 no mismatch 1 mismatches" in flat
    assert ".pre-commit-config.yaml" in flat

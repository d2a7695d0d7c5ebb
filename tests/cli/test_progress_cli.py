"""A first check that takes a while, through the real CLI, daemon and pyright: it says what it is
doing on stderr, ``--timeout`` is the command's own deadline, and a check cut short leaves the
checker warming for the retry.

The repository is generated: a hub module and ``IMPORTERS`` modules that call it, so a change of
the hub's signature makes the daemon check every importer (seconds, not milliseconds).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.cli.test_cli_e2e import make_cli, stop_for_sure

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.cli.transcript import Cli, Transcript

pytestmark = pytest.mark.e2e

IMPORTERS = 400
HUB = "def f(x: int) -> int:\n    return x\n"
WIDER = "def f(x: int, y: int = 0) -> int:\n    return x + y\n"  # every importer is re-checked


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "hub.py").write_text(HUB)
    for n in range(IMPORTERS):
        body = f"from pkg.hub import f\n\n\ndef g{n}(a: int) -> int:\n    return f(a) + {n}\n"
        (root / "pkg" / f"m{n}.py").write_text(body)
    return root


@pytest.fixture
def cli() -> Iterator[Cli]:
    """A private runtime dir; the daemon is started by the first check (autostart)."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        c = make_cli(Path(d) / "run")
        try:
            yield c
        finally:
            stop_for_sure(c, set())


def _check(cli: Cli, repo: Path, *args: str, **env: str) -> Transcript:
    patch = {"changes": [{"path": "pkg/hub.py", "edits": [{"find": HUB, "replace": WIDER}]}]}
    argv = ["check", "--root", str(repo), "--python", sys.executable, "--patch", "-", *args]
    run = cli if not env else type(cli)(cli.paths, {**cli.env, **env}, cli.timeout_s)
    return run(*argv, stdin=json.dumps(patch))


def _checker(cli: Cli) -> tuple[int | None, int]:
    status = cli("status", "--json")
    assert status.code == 0, status.err
    [ws] = json.loads(status.out)["workspaces"]
    return ws["server_pid"], ws["restarts"]


@pytest.mark.timeout(300)
def test_a_long_first_check_says_what_it_is_doing_on_stderr(cli: Cli, repo: Path) -> None:
    t = _check(cli, repo, PREWRITE_PROGRESS_AFTER_S="0")
    assert t.code == 0, t.err
    lines = [line for line in t.err.splitlines() if re.match(r"prewrite: \d+s: ", line)]
    assert lines, f"no progress line in:\n{t.err}"
    assert any("pyright" in line for line in lines), lines
    assert t.out.splitlines()[-1].startswith("prewrite: ok: 0 new error(s)")  # stdout as ever
    assert f"in {IMPORTERS + 1} type-checked file(s)" in t.out.splitlines()[-1]
    quiet = _check(cli, repo, "--quiet", PREWRITE_PROGRESS_AFTER_S="0")
    assert quiet.code == 0, quiet.err
    assert not re.search(r"prewrite: \d+s: ", quiet.err), quiet.err


@pytest.mark.timeout(300)
def test_the_timeout_counts_the_daemon_start_and_a_check_cut_short_keeps_warming(
    cli: Cli, repo: Path
) -> None:
    cut = _check(cli, repo, "--timeout", "1", "--quiet")
    assert cut.code == 2, cut.out
    # The daemon's start came out of the second: the ladder was given what was left.
    found = re.search(r"error \[timeout\]: no verdict within ([\d.]+)s", cut.err)
    assert found is not None, cut.err
    assert float(found.group(1)) < 1.0
    pid, restarts = _checker(cli)
    assert pid is not None  # started by the warm-up, which the request's deadline did not end
    done = _check(cli, repo, "--quiet")
    assert done.code == 0, done.err
    assert _checker(cli) == (pid, restarts)  # the same checker: not started again

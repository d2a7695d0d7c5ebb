"""The warm ``ruff server`` path answers exactly as the CLI path does, or leaves it to the CLI.

Differential: every file of the httpx workload, as it is and mutated (unformatted, an unused
import, an undefined name, a literal ``is`` comparison, a syntax error), formatted and linted
through a server-backed ``Ruff`` and through the CLI-only one, under httpx's ruff configuration
and in a copy without any (where lint selects only the breakage rules). Then faults: a server
killed under a request, a server that cannot start, an executable too old to have one.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.protocol import Diagnostic
from prewrite_daemon.backends.child import signal_group
from prewrite_daemon.ladder import ruff_warm
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.ruff_server import RuffServer
from tests.support.workloads import cache_dir
from tests.unit.ruff_rungs.ruff_helpers import prime_warm

if TYPE_CHECKING:
    from collections.abc import Callable

TIMEOUT_S = 30.0
HTTPX = cache_dir() / "httpx-0.28.1" / "src"
MUTATIONS: tuple[Callable[[str], str], ...] = (
    lambda t: t,
    lambda t: "import os, sys\n" + t.replace("    ", "  ") + "\nx = undefined_name\n",
    lambda t: t + "\nif x is 1 :\n    pass\nreturn 3\n",
    lambda t: t + "\ndef broken(:\n",
    lambda t: t.replace("\n", "\r\n") + "s = 'é😀' ;  z = (undefined2,)\n",
)


def _tree(tmp_path: Path, configured: bool) -> Path:
    if not HTTPX.is_dir():
        pytest.skip("the httpx workload is not cached (run the e2e setup)")
    root = tmp_path.resolve() / "httpx"
    shutil.copytree(HTTPX, root, ignore=shutil.ignore_patterns(".ruff_cache", "__pycache__"))
    if not configured:
        (root / "pyproject.toml").unlink()
    return root


Answer = tuple[tuple[str | None, str], list[Diagnostic]]


async def _answers(ruff: Ruff, root: Path) -> dict[tuple[str, int], Answer]:
    answers: dict[tuple[str, int], Answer] = {}
    for path in sorted(root.rglob("*.py")):  # noqa: ASYNC240  (a test's own tree)
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        for n, mutate in enumerate(MUTATIONS):
            candidate = mutate(text)
            formatted = await ruff.format(rel, candidate, TIMEOUT_S)
            found = await ruff.lint(rel, candidate, TIMEOUT_S)
            answers[rel, n] = (formatted, found)
    return answers


@pytest.mark.parametrize("configured", [True, False], ids=["configured", "unconfigured"])
async def test_the_server_answers_what_the_cli_answers_on_httpx(
    tmp_path: Path, configured: bool
) -> None:
    root = _tree(tmp_path, configured)
    cli = Ruff(root, sys.executable, warm=False)
    warm = Ruff(root, sys.executable)
    try:
        expected = await _answers(cli, root)
        got = await _answers(warm, root)
    finally:
        await warm.stop()
    differ = [key for key in expected if expected[key] != got[key]]
    assert differ == [], f"{len(differ)} answer(s) differ: " + "; ".join(
        _difference(key, expected[key], got[key]) for key in differ[:5]
    )
    assert any(found for _fmt, found in expected.values())  # findings were compared, not []
    assert warm.warm is not None
    stats = warm.warm.statistics()
    assert stats.failures == 0
    assert stats.served > 0.75 * 2 * len(expected)  # the server answered, not the CLI again


def _difference(key: tuple[str, int], cli: Answer, server: Answer) -> str:
    (cli_fmt, cli_found), (srv_fmt, srv_found) = cli, server
    parts = [f"{key}:"]
    if cli_fmt != srv_fmt:
        parts.append(f"format {cli_fmt!r:.200} != {srv_fmt!r:.200}")
    if cli_found != srv_found:
        parts.append(f"lint {cli_found!r} != {srv_found!r}")
    return " ".join(parts)


# --- faults: the CLI answers, the same ---------------------------------------------------------

BROKEN = "import os\nx = undefined_name\nif x is 1 :\n    y=( 1,2 )\n"


@pytest.fixture
def small(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["E", "F", "I"]\n')
    return root


async def _primed(root: Path) -> Ruff:
    """A server-backed ``Ruff`` whose server has answered."""
    ruff = Ruff(root, sys.executable)
    await prime_warm(ruff)
    return ruff


async def test_a_server_killed_under_a_request_leaves_the_answer_to_the_cli(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli = Ruff(small, sys.executable, warm=False)
    expected = (
        await cli.format("pkg/m.py", BROKEN, TIMEOUT_S),
        await cli.lint("pkg/m.py", BROKEN, TIMEOUT_S),
    )
    ruff = await _primed(small)
    assert ruff.warm is not None
    real_lint = RuffServer.lint

    async def killed(self: RuffServer, path: str, text: str, timeout_s: float) -> object:
        assert self.pid is not None
        os.killpg(self.pid, signal.SIGKILL)  # mid-request: the reply never comes
        return await real_lint(self, path, text, timeout_s)

    monkeypatch.setattr(RuffServer, "lint", killed)
    try:
        found = await ruff.lint("pkg/m.py", BROKEN, TIMEOUT_S)
        assert ruff.warm.statistics().failures == 1
        monkeypatch.setattr(RuffServer, "lint", real_lint)
        formatted = await ruff.format("pkg/m.py", BROKEN, TIMEOUT_S)
        again = await ruff.lint("pkg/m.py", BROKEN, TIMEOUT_S)
    finally:
        await ruff.stop()
    assert (formatted, found) == expected
    assert again == expected[1]
    stats = ruff.warm.statistics()
    assert stats.starts >= 2  # a new server took over after the crash
    assert stats.disabled == ""


async def test_a_server_that_hangs_times_out_to_the_cli(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli = Ruff(small, sys.executable, warm=False)
    expected = await cli.lint("pkg/m.py", BROKEN, TIMEOUT_S)
    ruff = await _primed(small)
    assert ruff.warm is not None
    failed_before = ruff.warm.statistics().failures  # a loaded machine may fail a priming call
    monkeypatch.setattr(ruff_warm, "CALL_S", 0.2)  # after priming: only the stopped call is cut
    server = next(iter(ruff.warm._slots.values())).server  # pyright: ignore[reportPrivateUsage]
    assert server.pid is not None
    os.killpg(server.pid, signal.SIGSTOP)  # alive, silent
    try:
        assert await ruff.lint("pkg/m.py", BROKEN, TIMEOUT_S) == expected
    finally:
        signal_group(server.pid, signal.SIGCONT)  # if the stop has not killed it
        await ruff.stop()
    assert ruff.warm.statistics().failures == failed_before + 1


async def test_a_ruff_without_a_usable_server_is_left_to_the_cli(small: Path) -> None:
    fake = small.parent / "bin" / "ruff"
    fake.parent.mkdir()
    real = Path(Ruff(small, sys.executable, warm=False).exe)
    # An old ruff: answers its version, has no server; everything else goes to the real one.
    fake.write_text(
        f'#!/bin/sh\ncase "$1" in --version) echo "ruff 0.4.10";; server) exit 2;; '
        f'*) exec {real} "$@";; esac\n'
    )
    fake.chmod(0o755)
    ruff = Ruff(small, sys.executable)
    ruff.exe = str(fake)
    ruff.warm = ruff_warm.WarmRuff(str(fake), small, "E9,F63,F7,F82")
    cli = Ruff(small, sys.executable, warm=False)
    try:
        assert await ruff.lint("pkg/m.py", BROKEN, TIMEOUT_S) == await cli.lint(
            "pkg/m.py", BROKEN, TIMEOUT_S
        )
    finally:
        await ruff.stop()
    stats = ruff.warm.statistics()
    assert stats.starts == 0
    assert "0.4.10" in stats.disabled


async def test_a_configuration_changed_on_disk_restarts_the_server(small: Path) -> None:
    ruff = await _primed(small)
    assert ruff.warm is not None
    try:
        assert [d.rule for d in await ruff.lint("pkg/m.py", "import os\n", TIMEOUT_S)] == ["F401"]
        (small / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["E"]\n')
        starts = ruff.warm.statistics().starts
        assert await ruff.lint("pkg/m.py", "import os\n", TIMEOUT_S) == []  # never the old F401
        assert ruff.warm.statistics().starts == starts + 1
    finally:
        await ruff.stop()


async def test_concurrent_calls_on_one_file_each_get_their_own_text(small: Path) -> None:
    ruff = await _primed(small)
    texts = [f"x{n}=( {n}, )\n" for n in range(8)]
    try:
        out = await asyncio.gather(*(ruff.format("pkg/m.py", t, TIMEOUT_S) for t in texts))
    finally:
        await ruff.stop()
    assert out == [(f"x{n} = ({n},)\n", "") for n in range(8)]

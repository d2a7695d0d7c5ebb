"""A new user's first session with ``prewrite`` (issue 23): the bundled demo repository copied and
committed, a daemon of the user's own (its runtime dir, its trust list), and how to read what
the console script printed."""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import msgspec

from prewrite.protocol import CheckReply, Diagnostic, FileChange, Patch
from tests.cli.test_cli_e2e import make_cli, stop_for_sure
from tests.support.git_diffs import init_repo

if TYPE_CHECKING:
    from collections.abc import Generator, Mapping

    from tests.cli.transcript import Cli, Transcript

DEMO = Path(__file__).resolve().parents[2] / "bench" / "demo" / "repo"
PYTHON = sys.executable  # the interpreter the checker resolves, the oracle's, and the tests'


def demo_repo(dest: Path, extra: Mapping[str, str] | None = None) -> Path:
    """A git repository at ``dest`` holding ``bench/demo/repo`` (plus ``extra``), committed."""
    shutil.copytree(DEMO, dest)
    return init_repo(dest, extra or {}).resolve()


def checkouts_of_this_interpreter() -> list[Path]:
    """The repositories whose venv ``PYTHON`` is (through a symlinked ``.venv`` too): a user who
    runs a workspace's tests with it trusts them, as the session's own trust list does."""
    prefix = Path(sys.prefix)
    return sorted({prefix.parent, prefix.resolve().parent})


@contextmanager
def newcomer_cli() -> Generator[Cli]:
    """``prewrite`` with a runtime dir and a trust list of its own: no daemon running yet (the
    first command starts one), no workspace trusted; the daemon is stopped on the way out."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        trust = Path(d) / "trusted"
        trust.write_text("".join(f"{p}\n" for p in checkouts_of_this_interpreter()))
        cli = make_cli(Path(d) / "run")
        cli = dataclasses.replace(cli, env={**cli.env, "PREWRITE_TRUST_FILE": str(trust)})
        try:
            yield cli
        finally:
            stop_for_sure(cli, set())


def patch_file(dest: Path, changes: list[FileChange]) -> Path:
    dest.write_bytes(msgspec.json.encode(Patch(changes=changes)))
    return dest


def one_object(t: Transcript) -> dict[str, Any]:
    """Stdout is exactly one JSON object, on one line."""
    assert t.out.count("\n") == 1, (t.out, t.err)
    assert t.out.endswith("\n"), t.out
    obj = msgspec.json.decode(t.out)
    assert isinstance(obj, dict), t.out
    return cast("dict[str, Any]", obj)


def keys_at_every_depth(value: object) -> set[str]:
    if isinstance(value, dict):
        items = cast("dict[str, object]", value).items()
        return {k for k, _ in items}.union(*(keys_at_every_depth(v) for _, v in items))
    if isinstance(value, list):
        return set[str]().union(*(keys_at_every_depth(v) for v in cast("list[object]", value)))
    return set()


def verdict(t: Transcript) -> CheckReply:
    """A ``check --json`` answer, decoded as the reply it prints the fields of."""
    return msgspec.json.decode(t.out, type=CheckReply)


def keyed(diagnostics: list[Diagnostic]) -> list[tuple[str, int, int, str, str, str]]:
    return sorted((d.path, d.line, d.column, d.severity, d.rule, d.message) for d in diagnostics)


def disk(root: Path) -> dict[str, bytes]:
    """Every file of the work tree (``.git`` aside), byte for byte."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }

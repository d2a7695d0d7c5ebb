"""Issue 23's scripted newcomer check: the path a new user takes with the ``prewrite`` console
script on a copy of the bundled demo (``bench/demo/repo``), each test with a daemon of its own
that its first command starts (a private runtime dir and trust list; stopped at the end).

The first check on a fresh daemon against a cold ``pyright`` run on the patched tree; ``prewrite
status``; ``--json`` on every exit; file contents only on request; an edit without a hash; a
``git diff`` as the patch; and ``apply``'s exit status by what happened to the disk.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import pytest

from bench.demo import green_patch, red_patch
from prewrite.changes import change_file, delete_file, new_file
from tests.support.git_diffs import staged_diff
from tests.support.newcomer import (
    DEMO,
    PYTHON,
    demo_repo,
    disk,
    keyed,
    keys_at_every_depth,
    newcomer_cli,
    one_object,
    patch_file,
    verdict,
)
from tests.support.oracle import ColdOracle, normalize_paths, surplus, write_patched_copy

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from prewrite.protocol import FileChange
    from tests.cli.transcript import Cli, Transcript

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

MONEY = "shop/money.py"
FORMAT_DEF = "    def format(self) -> str:"
AS_PROPERTY = {"find": FORMAT_DEF, "replace": "    @property\n" + FORMAT_DEF}  # breaks checkout.py
SCALED = (
    '    def scaled(self, factor: float) -> "Money":\n'
    "        return Money(round(self.cents * factor), self.currency)\n\n"
)
WITH_SCALED = {"find": FORMAT_DEF, "replace": SCALED + FORMAT_DEF}
DOUBLED = '    def doubled(self) -> "Money":\n        return self.scaled(2)\n\n'
HALF = (
    "from shop.cart import Cart\nfrom shop.money import Money\n\n\n"
    "def half(cart: Cart) -> Money:\n    return Money(cart.total().cents // 2)\n"
)
TEST_MONEY = (
    "from shop.money import Money\n\n\n"
    'def test_format() -> None:\n    assert Money(150).format() == "1.50 EUR"\n'
)
TESTS_ON = "\n[tool.prewrite]\ntests = true\ntest_timeout = 60\n"
RED_CALL = ("shop/checkout.py", "reportCallIssue")


@pytest.fixture(scope="module")
def user() -> Iterator[Cli]:
    """One new user's daemon for the module (each test has a repository of its own); the first
    check's test starts a daemon of its own (``fresh``)."""
    with newcomer_cli() as cli:
        yield cli


@pytest.fixture
def fresh() -> Iterator[Cli]:
    """A user with no daemon running yet: the first command starts one."""
    with newcomer_cli() as cli:
        yield cli


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return demo_repo(tmp_path / "shop")


def run(user: Cli, command: str, root: Path, *args: str, stdin: str | None = None) -> Transcript:
    return user(command, "--root", str(root), "--python", PYTHON, *args, stdin=stdin)


def edit_patch(dest: Path, *edits: dict[str, str]) -> Path:
    """An anchored edit of money.py as a model writes one: no ``base_sha256`` at all."""
    dest.write_text(json.dumps({"changes": [{"path": MONEY, "edits": list(edits)}]}))
    return dest


@pytest.mark.parametrize("patch", [red_patch, green_patch], ids=["red", "green"])
def test_the_first_check_on_a_fresh_daemon_is_the_cold_clis_verdict(
    fresh: Cli, shop: Path, tmp_path: Path, patch: Callable[[Path], list[FileChange]]
) -> None:
    changes = patch(shop)
    started = time.perf_counter()
    patch_json = str(patch_file(tmp_path / "p.json", changes))
    t = run(fresh, "check", shop, "--patch", patch_json, "--json")
    first_s = time.perf_counter() - started
    started = time.perf_counter()
    cold = ColdOracle(shop, PYTHON).introduced(write_patched_copy(shop, changes, tmp_path / "cold"))
    cold_s = time.perf_counter() - started
    print(
        f"first check, the daemon started by it: {first_s:.2f} s; cold pyright x2: {cold_s:.2f} s"
    )
    reply = verdict(t)
    ours = normalize_paths(reply.diagnostics, shop)
    assert (surplus(ours, cold), surplus(cold, ours)) == ([], []), t.out
    red = any(d.severity == "error" for d in cold)
    assert red == (patch is red_patch)
    assert (t.code, reply.ok) == ((1, False) if red else (0, True)), t.err
    if red:
        assert RED_CALL in {(d.path, d.rule) for d in ours}


def test_status_answers_with_the_workspace_and_its_trust(user: Cli, shop: Path) -> None:
    def row() -> list[str]:
        t = user("status")
        assert t.code == 0, t.err
        header = next(line for line in t.out.splitlines() if line.startswith("TRUST"))
        assert header.split()[0] == "TRUST"
        [line] = [line for line in t.out.splitlines() if line.endswith(f"  {shop}")]
        return line.split()

    green = str(edit_patch(shop.parent / "p.json", WITH_SCALED))
    assert run(user, "check", shop, "--patch", green).code == 0  # opens the workspace
    assert row()[:2] == ["untrusted", "python"]
    assert user("trust", str(shop)).code == 0
    assert row()[:5] == ["untrusted", "(next", "check:", "trusted)", "python"]  # reopened next
    assert run(user, "check", shop, "--patch", green).code == 0
    assert row()[:2] == ["trusted", "python"]


def _stale(shop: Path) -> Path:
    patch = patch_file(shop.parent / "p.json", [change_file(shop, MONEY, "x = 1\n")])
    with (shop / MONEY).open("a") as f:
        f.write("# edited meanwhile\n")
    return patch


def _nowhere(shop: Path) -> Path:
    return edit_patch(shop.parent / "p.json", {"find": "def nowhere(", "replace": "def f("})


def _outside(shop: Path) -> Path:
    return patch_file(shop.parent / "p.json", [new_file("../outside.py", "x = 1\n")])


@pytest.mark.parametrize(
    ("make", "code"),
    [(_stale, "stale_base"), (_nowhere, "find_mismatch"), (_outside, "path_outside_workspace")],
    ids=["stale-base", "find-nowhere", "outside-the-root"],
)
def test_json_on_an_error_is_one_error_object_and_exit_2(
    user: Cli, shop: Path, make: Callable[[Path], Path], code: str
) -> None:
    patch = make(shop)
    before = disk(shop)
    for command in ("check", "apply"):
        t = run(user, command, shop, "--patch", str(patch), "--json")
        assert t.code == 2, (t.out, t.err)
        error = one_object(t)
        assert list(error) == ["error"]
        assert sorted(error["error"]) == ["code", "details", "message"]
        assert error["error"]["code"] == code
        assert isinstance(error["error"]["details"], list)
        assert disk(shop) == before
    assert not (shop.parent / "outside.py").exists()


def test_json_verdicts_carry_no_wire_tag_and_no_file_text_unless_asked(
    user: Cli, shop: Path
) -> None:
    breaking = str(edit_patch(shop.parent / "r.json", AS_PROPERTY))
    red = run(user, "check", shop, "--patch", breaking, "--json")
    assert red.code == 1, red.err
    assert "op" not in keys_at_every_depth(one_object(red))

    green = edit_patch(shop.parent / "g.json", WITH_SCALED)
    expected = (shop / MONEY).read_text().replace(FORMAT_DEF, WITH_SCALED["replace"])
    for command, more in (("check", ()), ("check", ("--contents",)), ("apply", ())):
        t = run(user, command, shop, "--patch", str(green), "--json", *more)
        assert t.code == 0, (t.out, t.err)
        obj = one_object(t)
        assert "op" not in keys_at_every_depth(obj)
        files = obj["files"] if command == "check" else obj["check"]["files"]
        assert [f["path"] for f in files] == [MONEY]
        if more:
            assert [f["content"] for f in files] == [expected]
        else:
            assert "def scaled" not in t.out
            assert [f.get("content") for f in files] == [None]
    assert (shop / MONEY).read_text() == expected


def test_an_edit_without_a_hash_means_the_file_on_disk_now(user: Cli, shop: Path) -> None:
    with (shop / MONEY).open("a") as f:  # the user's own uncommitted edit
        f.write("\n\nZERO = Money(0)\n")
    now = (shop / MONEY).read_text()
    red = edit_patch(shop.parent / "r.json", AS_PROPERTY)
    green = edit_patch(shop.parent / "g.json", WITH_SCALED)

    t = run(user, "check", shop, "--patch", str(red), "--json")
    assert t.code == 1, t.err
    assert {(d.path, d.rule) for d in verdict(t).diagnostics} == {RED_CALL}
    t = run(user, "apply", shop, "--patch", str(red))
    assert t.code == 1, t.err
    assert (shop / MONEY).read_text() == now

    expected = now.replace(FORMAT_DEF, WITH_SCALED["replace"])
    t = run(user, "check", shop, "--patch", str(green), "--json", "--contents")
    assert t.code == 0, t.err
    assert [f.content for f in verdict(t).files] == [expected]
    t = run(user, "apply", shop, "--patch", str(green))
    assert t.code == 0, t.err
    assert (shop / MONEY).read_text() == expected


@pytest.mark.parametrize("red", [True, False], ids=["red", "green"])
def test_a_git_diff_is_judged_as_the_same_json_patch(user: Cli, shop: Path, red: bool) -> None:
    """A modified file, a new file and a deleted file, as ``git diff`` writes them."""
    money = (shop / MONEY).read_text()
    edit = AS_PROPERTY if red else WITH_SCALED
    money = money.replace(FORMAT_DEF, edit["replace"])
    after = {MONEY: money, "shop/discount.py": HALF, "shop/__init__.py": None}
    diff = staged_diff(shop, after)
    assert "new file mode" in diff
    assert "deleted file mode" in diff
    (shop.parent / "d.diff").write_text(diff)
    changes = [
        change_file(shop, MONEY, money),
        new_file("shop/discount.py", HALF),
        delete_file(shop, "shop/__init__.py"),
    ]
    as_json = run(
        user, "check", shop, "--patch", str(patch_file(shop.parent / "p.json", changes)), "--json"
    )
    from_file = run(user, "check", shop, "--diff", str(shop.parent / "d.diff"), "--json")
    from_stdin = run(user, "check", shop, "--diff", "-", "--json", stdin=diff)
    assert as_json.code == (1 if red else 0), as_json.err
    for t in (from_file, from_stdin):
        assert t.code == as_json.code, t.err
        assert keyed(verdict(t).diagnostics) == keyed(verdict(as_json).diagnostics)
        assert verdict(t).checked_files == verdict(as_json).checked_files


def test_apply_exit_status_says_what_happened_to_the_disk(user: Cli, tmp_path: Path) -> None:
    pyproject = (DEMO / "pyproject.toml").read_text() + TESTS_ON
    shop = demo_repo(tmp_path / "shop", {"pyproject.toml": pyproject, "test_money.py": TEST_MONEY})
    money = shop / MONEY

    before = disk(shop)
    t = run(user, "apply", shop, "--patch", str(edit_patch(tmp_path / "r.json", AS_PROPERTY)))
    assert t.code == 1, (t.out, t.err)
    assert t.out.endswith("prewrite: apply refused: nothing was written\n")
    assert disk(shop) == before

    expected = money.read_text().replace(FORMAT_DEF, WITH_SCALED["replace"])
    t = run(user, "apply", shop, "--patch", str(edit_patch(tmp_path / "g.json", WITH_SCALED)))
    assert t.code == 0, (t.out, t.err)  # written; an untrusted workspace's tests are not run
    assert f"prewrite: wrote {MONEY}\n" in t.out
    assert "prewrite: tests: skipped: the workspace is not trusted (prewrite trust ROOT)\n" in t.out
    assert money.read_text() == expected

    assert user("trust", str(shop)).code == 0
    passing = {"find": FORMAT_DEF, "replace": DOUBLED + FORMAT_DEF}
    t = run(user, "apply", shop, "--patch", str(edit_patch(tmp_path / "p.json", passing)))
    assert t.code == 0, (t.out, t.err)
    assert "prewrite: tests: pass in " in t.out
    assert "test_money.py" in t.out

    failing = {"find": "{self.cents / 100:.2f}", "replace": "{self.cents / 100:.3f}"}
    expected = money.read_text().replace(failing["find"], failing["replace"])
    t = run(user, "apply", shop, "--patch", str(edit_patch(tmp_path / "f.json", failing)))
    assert t.code == 3, (t.out, t.err)
    assert "prewrite: tests: fail in " in t.out
    assert "  failed: test_money.py::test_format\n" in t.out
    assert t.out.endswith("prewrite: apply FAILED after the write: the files hold the patch\n")
    assert money.read_text() == expected

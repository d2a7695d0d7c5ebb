"""TypeScript end to end: the daemon's verdict on a TS workspace, for TypeScript 5 and 7.

Each test drives the real daemon (``tsserver`` of 5.9.3, ``tsc --lsp`` of 7.0.2) on a small
workspace with its own TypeScript, and checks the verdict against what cold ``tsc`` says the
patch introduced (the oracle: the patched tree written to a copy).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import Client, change_file, delete_file, new_file
from prewrite.errors import InvalidWorkspace
from tests.support.ts_repo import install_libx, make_ts_repo
from tests.support.ts_verdict import assert_matches_tsc

if TYPE_CHECKING:
    from collections.abc import Iterator

    from prewrite.protocol import CheckReply, FileChange

pytestmark = pytest.mark.e2e

MAJORS = [5, 7]
UNUSED_LOCAL = "export function {name}(): number {{\n  const u = 1;\n  return 2;\n}}\n"
HALF = "export function half(n: number): number {\n  return n / 2;\n}\n"


@pytest.fixture(scope="module", params=MAJORS, ids=lambda m: f"ts{m}")
def repo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    major: int = request.param
    return make_ts_repo(tmp_path_factory.mktemp(f"ts{major}") / "repo", major)


def check(client: Client, root: Path, changes: list[FileChange], tmp: Path) -> CheckReply:
    reply = client.check(root, changes, timeout_s=120)
    assert_matches_tsc(reply, root, changes, tmp)
    return reply


def test_body_edit_is_green(client: Client, repo: Path, tmp_path: Path) -> None:
    text = (repo / "src/geometry.ts").read_text().replace("Math.hypot(", "Math.hypot(0 + ")
    reply = check(client, repo, [change_file(repo, "src/geometry.ts", text)], tmp_path)
    assert reply.ok, reply.diagnostics
    # distance() declares its return type: no importer can see its body
    assert reply.checked_files == ["src/geometry.ts"]


def test_an_edit_importers_can_see_rechecks_them(
    client: Client, repo: Path, tmp_path: Path
) -> None:
    text = (repo / "src/geometry.ts").read_text() + "export const unit = 1;\n"
    reply = check(client, repo, [change_file(repo, "src/geometry.ts", text)], tmp_path)
    assert reply.ok, reply.diagnostics
    assert {"src/geometry.ts", "src/index.ts", "src/shapes/index.ts"} <= set(reply.checked_files)


def test_signature_change_breaks_an_importer(client: Client, repo: Path, tmp_path: Path) -> None:
    text = (repo / "src/geometry.ts").read_text().replace("b: Point)", "b: Point, scale: number)")
    reply = check(client, repo, [change_file(repo, "src/geometry.ts", text)], tmp_path)
    assert not reply.ok
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("src/index.ts", "TS2554")]


def test_new_and_deleted_modules(client: Client, repo: Path, tmp_path: Path) -> None:
    index = (repo / "src/index.ts").read_text()
    uses = index + 'import { half } from "./util/half.js";\nexport const h: string = half(4);\n'
    made = [
        new_file(
            "src/util/half.ts", "export function half(n: number): number {\n  return n / 2;\n}\n"
        ),
        change_file(repo, "src/index.ts", uses),
    ]
    reply = check(client, repo, made, tmp_path / "new")
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("src/index.ts", "TS2322")]
    gone = check(client, repo, [delete_file(repo, "src/geometry.ts")], tmp_path / "gone")
    assert not gone.ok
    assert {(d.path, d.rule) for d in gone.diagnostics} == {
        ("src/index.ts", "TS2307"),
        ("src/shapes/index.ts", "TS2307"),
    }
    assert not (repo / "src/util").exists()  # the repository is never written


def test_an_old_error_that_moves_is_not_new(client: Client, repo: Path, tmp_path: Path) -> None:
    broken = "export const bad: number = 'x';\n"
    (repo / "src/old.ts").write_text(broken)
    try:
        reply = check(
            client, repo, [change_file(repo, "src/old.ts", "// moved\n\n" + broken)], tmp_path
        )
        assert reply.ok, reply.diagnostics
    finally:
        (repo / "src/old.ts").unlink()


def test_a_syntax_error_is_red(client: Client, repo: Path, tmp_path: Path) -> None:
    reply = check(client, repo, [new_file("src/broken.ts", "export const = ;\n")], tmp_path)
    assert not reply.ok
    assert all(d.rule.startswith("TS1") for d in reply.diagnostics), reply.diagnostics


def test_a_syntax_error_hides_semantic_errors_as_tsc_does(
    client: Client, repo: Path, tmp_path: Path
) -> None:
    """tsc reports only syntax errors once any file has one: importers' new type errors too."""
    text = (repo / "src/geometry.ts").read_text().replace("b: Point)", "b: string) {{")
    reply = check(client, repo, [change_file(repo, "src/geometry.ts", text)], tmp_path)
    assert not reply.ok
    assert {d.path for d in reply.diagnostics} == {"src/geometry.ts"}


def test_an_install_behind_the_daemon_is_seen(client: Client, repo: Path, tmp_path: Path) -> None:
    index = (repo / "src/index.ts").read_text()
    patch = [change_file(repo, "src/index.ts", index + "export const again: number = make();\n")]
    before = check(client, repo, patch, tmp_path / "before")
    assert before.ok
    try:
        install_libx(repo, "2.0.0", "string")  # make() -> string now
        after = check(client, repo, patch, tmp_path / "after")
        assert not after.ok
        assert after.environment != before.environment
    finally:
        install_libx(repo, "1.0.0", "number")


def test_a_tsconfig_edit_behind_the_daemon_is_seen(
    client: Client, repo: Path, tmp_path: Path
) -> None:
    patch = [new_file("src/unused.ts", UNUSED_LOCAL.format(name="f"))]
    assert check(client, repo, patch, tmp_path / "before").ok
    config = repo / "tsconfig.json"
    original = config.read_text()
    data = json.loads(original)
    data["compilerOptions"]["noUnusedLocals"] = True
    config.write_text(json.dumps(data))
    try:
        after = check(client, repo, patch, tmp_path / "after")
        assert [d.rule for d in after.diagnostics] == ["TS6133"]
        assert not after.ok
    finally:
        config.write_text(original)


def test_a_tsconfig_change_in_the_patch_is_judged_with_it(
    client: Client, repo: Path, tmp_path: Path
) -> None:
    data = json.loads((repo / "tsconfig.json").read_text())
    data["compilerOptions"]["noUnusedLocals"] = True
    code = new_file(
        "src/unused2.ts", "export function g(): number {\n  const u = 1;\n  return 2;\n}\n"
    )
    patch = [change_file(repo, "tsconfig.json", json.dumps(data)), code]
    reply = client.check(repo, patch, timeout_s=120)
    assert not reply.ok
    assert [d.rule for d in reply.diagnostics] == ["TS6133"]


def test_a_workspace_without_typescript_is_told_the_fix(client: Client, tmp_path: Path) -> None:
    (tmp_path / "tsconfig.json").write_text("{}")
    (tmp_path / "a.ts").write_text("export const a = 1;\n")
    with pytest.raises(InvalidWorkspace, match="npm install"):
        client.check(tmp_path, [change_file(tmp_path, "a.ts", "export const a = 2;\n")])


def test_one_patch_across_python_and_typescript_is_one_verdict(
    client: Client, tmp_path: Path, python_exe: str
) -> None:
    """Each file goes to its own warm checker; the verdict carries what both found."""
    root = make_ts_repo(tmp_path / "mixed", 7)
    (root / "tools").mkdir()
    (root / "tools" / "gen.py").write_text("def count() -> int:\n    return 1\n")
    ts = (root / "src/index.ts").read_text() + "export const wrong: string = d;\n"
    py = "def count() -> int:\n    return 'one'\n"
    patch = [change_file(root, "src/index.ts", ts), change_file(root, "tools/gen.py", py)]
    reply = client.check(root, patch, python=python_exe, timeout_s=120)
    assert not reply.ok
    assert sorted((d.path, d.rule) for d in reply.diagnostics) == [
        ("src/index.ts", "TS2322"),
        ("tools/gen.py", "reportReturnType"),
    ]
    assert {"src/index.ts", "tools/gen.py"} <= set(reply.checked_files)
    languages = {w.language for w in client.status().workspaces if w.root == str(root)}
    assert languages == {"python", "typescript"}
    green = [change_file(root, "tools/gen.py", "def count() -> int:\n    return 2\n")]
    assert client.check(root, green, python=python_exe, timeout_s=120).ok


@pytest.mark.parametrize("major", MAJORS, ids=lambda m: f"ts{m}")
def test_a_base_config_outside_the_root_is_followed_and_watched(
    client: Client, tmp_path: Path, major: int
) -> None:
    """``extends: "../shared/base.json"`` resolves from the shadow too, and an edit of that
    file behind the daemon's back is never answered from the old settings."""
    shared = tmp_path / "shared"
    shared.mkdir()
    base = shared / "base.json"
    base.write_text(json.dumps({"compilerOptions": {"strict": True, "noUnusedLocals": False}}))
    root = make_ts_repo(tmp_path / "app", major)
    config = {"extends": "../shared/base.json", "compilerOptions": {"noEmit": True,
              "target": "es2022", "module": "nodenext"}, "include": ["src"]}  # fmt: skip
    (root / "tsconfig.json").write_text(json.dumps(config))
    patch = [new_file("src/unused.ts", UNUSED_LOCAL.format(name="f"))]
    for oracle_dir in ("before", "after"):  # the oracle's copy sees the same ../shared
        (tmp_path / oracle_dir).mkdir()
        (tmp_path / oracle_dir / "shared").symlink_to(shared, target_is_directory=True)
    assert check(client, root, patch, tmp_path / "before").ok
    base.write_text(json.dumps({"compilerOptions": {"strict": True, "noUnusedLocals": True}}))
    after = check(client, root, patch, tmp_path / "after")
    assert [d.rule for d in after.diagnostics] == ["TS6133"]


@pytest.fixture
def outside_trust() -> Iterator[Path]:
    """A directory outside the session's trusted trees."""
    base = Path(tempfile.mkdtemp(prefix="pw-untrusted-ts-", dir="/tmp"))
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_an_untrusted_workspace_never_runs_its_own_typescript(
    client: Client, outside_trust: Path
) -> None:
    """Untrusted, a workspace is checked with prewrite's own TypeScript, whether its own is
    installed inside the root (its code: never run) or linked from outside it
    (``test_ts_untrusted.py`` has the layouts above the root)."""
    patch = [new_file("src/extra.ts", "export const e: number = 1;\n")]
    root = make_ts_repo(outside_trust / "linked", 7)
    reply = client.check(root, patch, timeout_s=120)
    assert reply.ok
    assert any("prewrite's own TypeScript" in line for line in reply.not_verified)
    inside = make_ts_repo(outside_trust / "own", 5)
    link = inside / "node_modules" / "typescript"
    target = link.resolve()
    link.unlink()
    shutil.copytree(target, link, symlinks=True)  # as `npm install` leaves it: a real copy
    marker = outside_trust / "ran"
    for program in ("tsserver.js", "tsc.js"):
        (link / "lib" / program).write_text(f"require('fs').writeFileSync({str(marker)!r}, 'x');\n")
    wrong = [new_file("src/extra.ts", "export const e: number = 'one';\n")]
    reply = client.check(inside, wrong, timeout_s=120)
    assert [d.rule for d in reply.diagnostics] == ["TS2322"]
    assert any("prewrite's own TypeScript" in line for line in reply.not_verified)
    assert not marker.exists()

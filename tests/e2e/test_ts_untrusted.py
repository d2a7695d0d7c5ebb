"""Issue 20 items 2 and 19: an untrusted TypeScript workspace never runs its own TypeScript.

Whatever node would find from an untrusted root — the root's ``node_modules``, an ancestor's
(the monorepo layout: ``repo/node_modules`` beside ``repo/web/tsconfig.json``), a symlinked
``node_modules`` or ``node_modules/typescript`` resolving into a folder above — is the
repository's code. The workspace is checked with prewrite's own pinned TypeScript instead, and
the receipt says so. The workspace's TypeScript here is booby-trapped: its ``tsserver.js`` and
``tsc.js`` leave a marker and then run the real TypeScript 5.9.3, so a run would still answer
correctly and only the marker tells. Trusted, the same layout runs its own (the marker appears).
Every way in is driven: ``check`` (warm and cold), ``apply``, the hook, the editor proxy; and a
tsserver plugin the workspace's tsconfig names is not loaded either.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.hook import run_hook
from prewrite_daemon.languages.typescript.pinned import PINNED_VERSION, pinned_typescript
from tests.support.lsp_editor import editor
from tests.support.ts_oracle import TsColdOracle, write_patched_copy
from tests.support.ts_repo import make_ts_repo, toolchain

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from prewrite import Client
    from prewrite.protocol import CheckReply, FileChange
    from prewrite.runtime import RuntimePaths

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

GEOMETRY = "src/geometry.ts"
PINNED_LINE = f"typecheck: prewrite's own TypeScript {PINNED_VERSION} judged"


def trapped_typescript(package: Path, marker: Path) -> None:
    """A ``typescript`` package whose programs leave ``marker`` before running the real one."""
    real = toolchain(5)
    (package / "lib").mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "typescript", "version": "5.9.3"}))
    for program in ("tsserver.js", "tsc.js"):
        (package / "lib" / program).write_text(
            f"require('fs').appendFileSync({str(marker)!r}, {program + ' '!r});\n"
            f"require({str(real / 'lib' / program)!r});\n"
        )


def monorepo(base: Path, marker: Path) -> Path:
    """``repo/node_modules/typescript`` (trapped) and ``repo/web`` (the root, with a ``.git``
    at ``repo``): node finds the root's TypeScript in its parent's ``node_modules``."""
    web = make_ts_repo(base / "repo" / "web", 5)
    (web / "node_modules" / "typescript").unlink()  # only libx is the root's own
    trapped_typescript(base / "repo" / "node_modules" / "typescript", marker)
    (base / "repo" / ".git").mkdir()
    return web


def linked_modules(base: Path, marker: Path) -> Path:
    """``web/node_modules`` is a symlink to ``repo/vendor/modules``, a folder above the root."""
    web = monorepo(base, marker)
    vendor = base / "repo" / "vendor" / "modules"
    vendor.parent.mkdir(parents=True)
    shutil.move(web / "node_modules", vendor)
    shutil.move(base / "repo" / "node_modules" / "typescript", vendor / "typescript")
    (web / "node_modules").symlink_to("../vendor/modules", target_is_directory=True)
    return web


def linked_package(base: Path, marker: Path) -> Path:
    """``web/node_modules/typescript`` links to ``repo/tools/typescript`` (a ``file:`` dep)."""
    web = monorepo(base, marker)
    shutil.move(base / "repo" / "node_modules" / "typescript", base / "repo" / "tools")
    (web / "node_modules" / "typescript").symlink_to("../../tools", target_is_directory=True)
    return web


LAYOUTS: dict[str, Callable[[Path, Path], Path]] = {
    "parent-node_modules": monorepo,
    "symlinked-node_modules": linked_modules,
    "symlinked-package": linked_package,
}


@pytest.fixture
def outside_trust() -> Iterator[Path]:
    """A directory outside the session's trusted trees (the daemon's trust list)."""
    if pinned_typescript() is None:
        pytest.skip("prewrite's own TypeScript is not installed: run `make install`")
    base = Path(tempfile.mkdtemp(prefix="pw-untrusted-ts-", dir="/tmp"))
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def assert_pinned_verdict(
    reply: CheckReply, root: Path, changes: list[FileChange], tmp: Path
) -> None:
    """The verdict is cold ``tsc`` of prewrite's pinned TypeScript on the patched tree."""
    pinned = pinned_typescript()
    assert pinned is not None
    tree = write_patched_copy(root, changes, tmp / "patched")
    introduced = TsColdOracle(root, pinned.package).introduced(tree)
    got = sorted((d.path, d.line, d.rule) for d in reply.diagnostics)
    assert got == sorted((d.path, d.line, d.rule) for d in introduced)
    assert reply.ok == (not introduced)


@pytest.mark.parametrize("layout", LAYOUTS, ids=list(LAYOUTS))
def test_untrusted_checks_with_the_pinned_typescript_and_never_runs_its_own(
    client: Client, outside_trust: Path, tmp_path: Path, layout: str
) -> None:
    marker = outside_trust / "ran"
    root = LAYOUTS[layout](outside_trust, marker)
    text = (root / GEOMETRY).read_text()
    red = [change_file(root, GEOMETRY, text.replace("): number {", "): string {"))]
    reply = client.check(root, red, timeout_s=120)
    assert not reply.ok
    assert {d.rule for d in reply.diagnostics} == {"TS2322"}
    assert_pinned_verdict(reply, root, red, tmp_path / "red")
    assert any(PINNED_LINE in line for line in reply.not_verified), reply.not_verified

    green = [change_file(root, GEOMETRY, text + "export const unit: number = 1;\n")]
    applied = client.apply(root, green, timeout_s=120)
    assert applied.ok, applied
    assert (root / GEOMETRY).read_text() == green[0].content
    assert not marker.exists(), marker.read_text()


def test_the_receipt_and_status_name_the_pinned_typescript(
    client: Client, outside_trust: Path
) -> None:
    marker = outside_trust / "ran"
    root = monorepo(outside_trust, marker)
    patch = [change_file(root, GEOMETRY, (root / GEOMETRY).read_text() + "\n")]
    reply = client.check(root, patch, timeout_s=120)
    assert reply.ok
    own = (outside_trust / "repo" / "node_modules" / "typescript").resolve()
    [line] = [n for n in reply.not_verified if n.startswith("untrusted workspace")]
    assert f"{PINNED_LINE}; the workspace's typescript 5.9.3 at {own} was not run" in line
    [status] = [w for w in client.status().workspaces if w.root == str(root)]
    assert status.checker == f"typescript {PINNED_VERSION} (tsserver, prewrite's own)"
    assert not marker.exists()


def test_the_cold_path_uses_the_pinned_typescript(client: Client, outside_trust: Path) -> None:
    """A patch to the checker's settings is judged cold (``tsc``): the pinned one's, too."""
    marker = outside_trust / "ran"
    root = monorepo(outside_trust, marker)
    config = json.loads((root / "tsconfig.json").read_text())
    config["compilerOptions"]["noUnusedLocals"] = True
    unused = "export function f(): number {\n  const u = 1;\n  return 2;\n}\n"
    patch = [
        change_file(root, "tsconfig.json", json.dumps(config, indent=2)),
        change_file(root, GEOMETRY, (root / GEOMETRY).read_text() + unused),
    ]
    reply = client.check(root, patch, timeout_s=120)
    assert [d.rule for d in reply.diagnostics] == ["TS6133"]
    assert not marker.exists()


@pytest.mark.usefixtures("nothing_registered")
def test_the_hook_judges_with_the_pinned_typescript(
    daemon: RuntimePaths, outside_trust: Path
) -> None:
    marker = outside_trust / "ran"
    root = monorepo(outside_trust, marker)
    text = (root / GEOMETRY).read_text()
    bad = {"file_path": str(root / GEOMETRY), "content": text.replace("): number {", "): string {")}
    data = json.dumps(
        {"hook_event_name": "PreToolUse", "cwd": str(root), "tool_name": "Write",
         "tool_input": bad, "session_id": "s", "transcript_path": "/dev/null"}
    ).encode()  # fmt: skip
    code, _out, err = run_hook(data, paths=daemon, roots=[str(root)], deadline_s=120)
    assert code == 2, err
    assert "TS2322" in err
    assert (root / GEOMETRY).read_text() == text
    assert not marker.exists()


def test_a_tsserver_plugin_the_workspace_names_is_not_loaded(
    client: Client, outside_trust: Path
) -> None:
    """``compilerOptions.plugins`` names a package of the repository: tsserver would load it
    from beside the workspace's TypeScript, or from the tsconfig's folder with
    ``--allowLocalPluginLoads`` (checked by hand: it then runs); the pinned one looks beside
    itself only."""
    marker = outside_trust / "ran"
    root = monorepo(outside_trust, marker)
    config = json.loads((root / "tsconfig.json").read_text())
    config["compilerOptions"]["plugins"] = [{"name": "evil-plugin"}]
    (root / "tsconfig.json").write_text(json.dumps(config))
    for modules in (root / "node_modules", outside_trust / "repo" / "node_modules"):
        plugin = modules / "evil-plugin"
        plugin.mkdir()
        (plugin / "package.json").write_text('{"name": "evil-plugin", "main": "index.js"}')
        (plugin / "index.js").write_text(
            f"require('fs').appendFileSync({str(marker)!r}, 'plugin ');\n"
            "module.exports = () => ({ create: (info) => info.languageService });\n"
        )
    text = (root / GEOMETRY).read_text()
    red = [change_file(root, GEOMETRY, text.replace("): number {", "): string {"))]
    reply = client.check(root, red, timeout_s=120)
    assert {d.rule for d in reply.diagnostics} == {"TS2322"}
    assert not marker.exists()


async def test_the_editor_proxy_serves_with_the_pinned_typescript(
    daemon: RuntimePaths, outside_trust: Path
) -> None:
    """``prewrite lsp`` on the untrusted root: diagnostics of an unsaved buffer, its own
    TypeScript never run."""
    del daemon  # the session's daemon serves the editor
    marker = outside_trust / "ran"
    root = monorepo(outside_trust, marker)
    text = (root / GEOMETRY).read_text()
    async with editor(root) as ed:
        ed.open(GEOMETRY, text.replace("): number {", "): string {"))
        found = await ed.diagnostics_until(GEOMETRY, lambda d: bool(d))
    assert {str(d.code) for d in found} == {"TS2322"}
    assert not marker.exists()


@pytest.fixture
def nothing_registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's roots are the explicit one only (not the session's trust list)."""
    (tmp_path / "trusted").write_text("")
    monkeypatch.setenv("PREWRITE_TRUST_FILE", str(tmp_path / "trusted"))
    monkeypatch.delenv("PREWRITE_HOOK_ROOTS", raising=False)


def test_a_trusted_workspace_runs_its_own_typescript(client: Client, tmp_path: Path) -> None:
    """The same layout in the session's trusted tree: its own TypeScript runs, as CI's does."""
    marker = tmp_path / "ran"
    root = monorepo(tmp_path, marker)
    text = (root / GEOMETRY).read_text()
    red = [change_file(root, GEOMETRY, text.replace("): number {", "): string {"))]
    reply = client.check(root, red, timeout_s=120)
    assert {d.rule for d in reply.diagnostics} == {"TS2322"}
    assert not any(n.startswith("untrusted") for n in reply.not_verified)
    assert "tsserver.js" in marker.read_text().split()  # its own tsserver judged
    [status] = [w for w in client.status().workspaces if w.root == str(root)]
    assert status.checker == "typescript 5.9.3 (tsserver)"

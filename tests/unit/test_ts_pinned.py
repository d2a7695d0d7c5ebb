"""Which TypeScript judges a workspace (``languages/ts_pinned.py``), on temporary trees.

Nothing is run here: the choice is made from paths alone. The end-to-end side (the daemon
checks with the chosen one, and a trapped TypeScript never leaves its marker) is
``tests/e2e/test_ts_untrusted.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import UntrustedWorkspace
from prewrite_daemon.languages.typescript.pinned import (
    PINNED_VERSION,
    choose_typescript,
    is_repository_code,
    pinned_typescript,
    repository_reach,
)

if TYPE_CHECKING:
    from collections.abc import Iterator


def install(package: Path, version: str = PINNED_VERSION) -> Path:
    (package / "lib").mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "typescript", "version": version}))
    for program in ("tsserver.js", "tsc.js"):
        (package / "lib" / program).write_text("")
    return package


@pytest.fixture
def toolchain(tmp_path: Path) -> Path:
    """A pinned toolchain as ``make install`` leaves it."""
    install(tmp_path / "toolchain" / "node_modules" / "typescript")
    return tmp_path / "toolchain"


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    """``repo/node_modules/typescript`` and the root ``repo/web``."""
    install(tmp_path / "repo" / "node_modules" / "typescript", "5.4.5")
    (tmp_path / "repo" / "web").mkdir()
    return tmp_path / "repo" / "web"


def test_trusted_keeps_its_own(monorepo: Path, toolchain: Path) -> None:
    choice = choose_typescript(monorepo, True, toolchain)
    assert (choice.ts.version, choice.ts.pinned, choice.note) == ("5.4.5", False, None)


def test_untrusted_gets_the_pinned_one_and_the_note_says_whose_was_not_run(
    monorepo: Path, toolchain: Path
) -> None:
    choice = choose_typescript(monorepo, False, toolchain)
    assert choice.ts.pinned
    assert choice.ts.package == (toolchain / "node_modules" / "typescript").resolve()
    own = monorepo.parent / "node_modules" / "typescript"
    assert choice.note == (
        f"typecheck: prewrite's own TypeScript {PINNED_VERSION} judged; the workspace's "
        f"typescript 5.4.5 at {own.resolve()} was not run"
    )


def test_untrusted_without_any_typescript_of_its_own_is_still_checked(
    tmp_path: Path, toolchain: Path
) -> None:
    (tmp_path / "bare").mkdir()
    choice = choose_typescript(tmp_path / "bare", False, toolchain)
    assert choice.ts.pinned
    assert choice.note == (
        f"typecheck: prewrite's own TypeScript {PINNED_VERSION} judged; the workspace has no "
        "TypeScript installed"
    )


@pytest.mark.parametrize("version", [None, "5.8.2"], ids=["missing", "another-version"])
def test_without_the_pinned_one_the_repositorys_own_is_refused_naming_make_install(
    monorepo: Path, tmp_path: Path, version: str | None
) -> None:
    toolchain = tmp_path / "no-toolchain"
    if version is not None:
        install(toolchain / "node_modules" / "typescript", version)
    assert pinned_typescript(toolchain) is None
    with pytest.raises(UntrustedWorkspace, match="make install") as raised:
        choose_typescript(monorepo, False, toolchain)
    assert "in or above the root" in str(raised.value)


def test_a_symlink_resolving_above_the_root_is_the_repositorys(tmp_path: Path) -> None:
    """``web/node_modules/typescript`` -> ``../../tools/typescript`` (an npm ``file:`` dep)."""
    tools = install(tmp_path / "repo" / "tools" / "typescript")
    web = tmp_path / "repo" / "web"
    (web / "node_modules").mkdir(parents=True)
    (web / "node_modules" / "typescript").symlink_to("../../tools/typescript")
    with pytest.raises(UntrustedWorkspace):
        choose_typescript(web, False, tmp_path / "no-toolchain")
    trusted = choose_typescript(web, True, tmp_path / "no-toolchain")
    assert trusted.ts.package == tools
    assert is_repository_code(trusted.ts, web)


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[Path]:
    """A writable directory outside the temporary tree's reach (a global install's place)."""
    for candidate in ("/var/tmp", "/dev/shm"):
        top = Path(candidate)
        if os.access(top, os.W_OK) and repository_reach(top) != repository_reach(tmp_path):
            made = Path(tempfile.mkdtemp(prefix="pw-global-ts-", dir=top))
            try:
                yield made
            finally:
                shutil.rmtree(made, ignore_errors=True)
            return
    pytest.skip("no writable directory outside the temporary tree's reach")


def test_an_install_outside_the_repositorys_reach_runs_without_the_pinned_one(
    tmp_path: Path, elsewhere: Path
) -> None:
    outside = install(elsewhere / "lib" / "node_modules" / "typescript", "5.4.5")
    root = tmp_path / "linked"
    (root / "node_modules").mkdir(parents=True)
    (root / "node_modules" / "typescript").symlink_to(outside)
    choice = choose_typescript(root, False, tmp_path / "no-toolchain")
    assert (choice.ts.package, choice.ts.pinned) == (outside.resolve(), False)
    assert choice.note == (
        f"typescript 5.4.5 (tsserver) is installed outside the repository, at {outside.resolve()}"
    )


def test_an_outside_package_whose_program_resolves_into_the_repository_is_its_code(
    tmp_path: Path, elsewhere: Path
) -> None:
    outside = install(elsewhere / "typescript")
    evil = tmp_path / "repo" / "evil.js"
    evil.parent.mkdir()
    evil.write_text("")
    (outside / "lib" / "tsserver.js").unlink()
    (outside / "lib" / "tsserver.js").symlink_to(evil)
    root = tmp_path / "repo" / "web"
    (root / "node_modules").mkdir(parents=True)
    (root / "node_modules" / "typescript").symlink_to(outside)
    with pytest.raises(UntrustedWorkspace):
        choose_typescript(root, False, tmp_path / "no-toolchain")


def test_the_reach_is_the_highest_directory_short_of_the_filesystem_root() -> None:
    assert repository_reach(Path("/srv/repos/shop/web")) == Path("/srv")
    assert repository_reach(Path("/app")) == Path("/app")

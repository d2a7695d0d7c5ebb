"""Protected snippets: a patch may not remove text ``[tool.prewrite] protect`` names, nor delete
the file holding it; the rule's shape is validated, and the rule cannot be patched away."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from prewrite import change_file
from prewrite.errors import (
    ERROR_CLASSES,
    BadRequest,
    ForbiddenPath,
    PrewriteError,
    ProtectedSnippet,
)
from prewrite.protocol import CheckReply, CheckRequest, FileChange
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.config_values import ProtectRule
from prewrite_daemon.ladder.protect import check_protected
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder

LOADER = '<script src="/analytics.js"></script>'
RULES = (ProtectRule("templates/*.html", LOADER), ProtectRule("base.html", "<!-- keep -->"))
PAGE = f"<html><head>\n{LOADER}\n</head><body></body></html>\n"
PYPROJECT = f"""[project]
name = "w"
version = "0"

[tool.prewrite]
protect = [{{path = "templates/*.html", text = '{LOADER}'}}]
"""


def judged(
    path: str, old: str | None, new: str | None, rules: tuple[ProtectRule, ...] = RULES
) -> None:
    check_protected(PreparedPatch(Path("/ws"), (FileEdit(path, old, new),)), rules)


def test_removing_a_protected_snippet_is_refused_naming_file_and_text() -> None:
    with pytest.raises(ProtectedSnippet) as info:
        judged("templates/home.html", PAGE, PAGE.replace(LOADER, ""))
    err = info.value
    assert err.code == "protected_snippet"
    assert ERROR_CLASSES["protected_snippet"] is ProtectedSnippet
    assert err.message.startswith("templates/home.html: ")
    [detail] = err.details
    assert detail.path == "templates/home.html"
    assert "analytics.js" in detail.message
    assert "templates/*.html" in detail.message
    assert "removes it" in detail.message


def test_deleting_the_file_that_holds_it_is_refused() -> None:
    with pytest.raises(ProtectedSnippet) as info:
        judged("templates/home.html", PAGE, None)
    assert "deletes the file" in info.value.details[0].message


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("templates/home.html", PAGE, PAGE.replace("<body>", "<body class='x'>")),  # kept
        ("templates/home.html", PAGE, f"<!doctype html>\n<head>{LOADER}</head>\n"),  # moved
        ("templates/home.html", "<p>no loader</p>\n", "<p>still none</p>\n"),  # never held it
        ("templates/new.html", None, "<p>a new page</p>\n"),  # a new file
        ("static/home.html", PAGE, PAGE.replace(LOADER, "")),  # not matched by the glob
        ("templates/home.html", PAGE.replace("\n", "\r\n"), PAGE.replace("\n", "\r\n")),
    ],
    ids=["kept", "moved", "never-held", "new-file", "other-path", "crlf-unchanged"],
)
def test_patches_that_keep_it_or_never_had_it_pass(
    path: str, old: str | None, new: str | None
) -> None:
    judged(path, old, new)


def test_a_pattern_without_a_slash_matches_any_files_name() -> None:
    with pytest.raises(ProtectedSnippet):
        judged("site/deep/Base.HTML", "<!-- keep -->\n<p></p>", "<p></p>")


def test_a_multiline_snippet_is_found_in_a_crlf_file() -> None:
    rule = (ProtectRule("*.html", "<head>\n<meta charset=utf-8>"),)
    old = "<html>\r\n<head>\r\n<meta charset=utf-8>\r\n</head>\r\n"
    with pytest.raises(ProtectedSnippet):
        judged("a.html", old, old.replace("<meta charset=utf-8>", ""), rule)


def test_every_loss_is_named_once_refused() -> None:
    patch = PreparedPatch(
        Path("/ws"),
        (
            FileEdit("templates/a.html", PAGE, ""),
            FileEdit("templates/b.html", PAGE, None),
            FileEdit("templates/c.html", PAGE, PAGE + "<p>more</p>"),
        ),
    )
    with pytest.raises(ProtectedSnippet) as info:
        check_protected(patch, RULES)
    assert [d.path for d in info.value.details] == ["templates/a.html", "templates/b.html"]


# --- configuration ---------------------------------------------------------------------------


def write(root: Path, table: str) -> Path:
    (root / "pyproject.toml").write_text(f'[project]\nname = "w"\nversion = "0"\n\n{table}')
    return root


def test_rules_are_read_from_the_table(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, PYPROJECT.split("\n\n", 1)[1]))
    assert config.protect == (ProtectRule("templates/*.html", LOADER),)
    assert load_config(write(tmp_path, "")).protect == ()


@pytest.mark.parametrize(
    "value",
    [
        '"templates/*.html"',
        '[{path = "a.html"}]',
        '[{text = "x"}]',
        '[{path = "a.html", text = ""}]',
        '[{path = "", text = "x"}]',
        '[{path = "a.html", text = 3}]',
        '[{path = "a.html", text = "x", extra = 1}]',
        '["a.html"]',
    ],
)
def test_a_bad_shape_is_a_bad_request(tmp_path: Path, value: str) -> None:
    with pytest.raises(BadRequest, match="protect must be a list"):
        load_config(write(tmp_path, f"[tool.prewrite]\nprotect = {value}\n"))


# --- through the ladder ----------------------------------------------------------------------


async def never_typecheck(patch: PreparedPatch, timeout_s: float) -> CheckReply:
    raise AssertionError("a protected snippet is refused before the type check")


async def ladder_refusal(root: Path, change: FileChange) -> PrewriteError:
    ladder = Ladder(root, load_config(root), Ruff(root, sys.executable), never_typecheck, ())
    with pytest.raises(PrewriteError) as info:
        await ladder.run(CheckRequest(str(root), [change], timeout_s=60))
    assert [(r.rung, r.outcome) for r in ladder.reports][:2] == [
        ("policy", "pass"),
        ("anchor", "fail"),
    ]
    return info.value


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = write(tmp_path.resolve(), PYPROJECT.split("\n\n", 1)[1])
    (path / "templates").mkdir()
    (path / "templates" / "home.html").write_text(PAGE)
    return path


async def test_the_ladder_refuses_it_at_the_anchor_rung(root: Path) -> None:
    exc = await ladder_refusal(root, change_file(root, "templates/home.html", "<p>bare</p>\n"))
    assert isinstance(exc, ProtectedSnippet)


async def test_the_rule_itself_cannot_be_patched_away(root: Path) -> None:
    without = PYPROJECT.split("[tool.prewrite]")[0]
    exc = await ladder_refusal(root, change_file(root, "pyproject.toml", without))
    assert isinstance(exc, ForbiddenPath)
    assert "protect" in str(exc)

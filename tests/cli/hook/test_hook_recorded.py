"""``prewrite hook`` fed recorded Claude Code ``PreToolUse`` payloads, against the real daemon.

The payloads under ``tests/data/hook/`` are what Claude Code sends for each edit shape (Write, Edit,
Edit with replace_all, MultiEdit), with ``@ROOT@`` standing for the temporary repository. Exit 2
refuses the edit and stderr is the reason the model reads; exit 0 lets it through, with
``additionalContext`` on stdout when there is something to tell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.hook import run_hook
from tests.cli.hook.hook_helpers import SERVICE, context, recorded

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.runtime import RuntimePaths


pytestmark = pytest.mark.e2e


def test_a_write_that_breaks_a_type_in_its_file_is_refused(
    daemon: RuntimePaths, repo: Path
) -> None:
    code, out, err = run_hook(recorded("write_breaks_type.json", repo), paths=daemon)
    assert code == 2, (out, err)
    assert err.startswith(
        "prewrite refused this Write of pkg/service.py: it introduces 1 error(s) in the file it "
        "edits (caught by the typecheck rung)."
    )
    assert "pkg/service.py:5:12: error: Type" in err
    assert "[reportReturnType]" in err
    assert (repo / "pkg/service.py").read_text() == SERVICE


def test_an_edit_whose_old_text_occurs_twice_is_refused_with_both_sites(
    daemon: RuntimePaths, repo: Path
) -> None:
    code, _out, err = run_hook(recorded("edit_ambiguous.json", repo), paths=daemon)
    assert code == 2
    assert err.startswith("prewrite refused this Edit of pkg/models.py [find_ambiguous]")
    assert "include more surrounding lines to make it unique, or set replace_all" in err
    assert "matches 2 places" in err
    assert "line 15:     return user.name" in err
    assert "line 19:     return user.name" in err


def test_replace_all_is_expanded_and_allowed(daemon: RuntimePaths, repo: Path) -> None:
    code, out, err = run_hook(recorded("edit_replace_all.json", repo), paths=daemon)
    assert (code, out, err) == (0, "", "")


def test_a_rename_that_breaks_only_another_file_is_allowed_with_the_break_reported(
    daemon: RuntimePaths, repo: Path
) -> None:
    code, out, err = run_hook(recorded("edit_rename.json", repo), paths=daemon)
    assert (code, err) == (0, "")
    said = context(out)
    assert said.startswith(
        "prewrite: this edit of pkg/models.py is allowed, but it introduces 1 error(s) in 1 "
        "other file(s)"
    )
    assert 'pkg/service.py:1:30: error: "make_user" is unknown import symbol' in said


def test_any_file_mode_refuses_the_same_rename(daemon: RuntimePaths, repo: Path) -> None:
    with (repo / "pyproject.toml").open("a") as f:
        f.write('\n[tool.prewrite.hook]\nblock = "any-file"\n')
    code, _out, err = run_hook(recorded("edit_rename.json", repo), paths=daemon)
    assert code == 2
    assert "pkg/service.py:1:30: error:" in err


def test_a_bad_hook_setting_refuses_and_names_it(daemon: RuntimePaths, repo: Path) -> None:
    with (repo / "pyproject.toml").open("a") as f:
        f.write('\n[tool.prewrite.hook]\nblock = "sometimes"\n')
    code, _out, err = run_hook(recorded("edit_rename.json", repo), paths=daemon)
    assert code == 2
    assert "block must be one of edited-file, any-file, never" in err


def test_a_syntactically_broken_edit_is_refused(daemon: RuntimePaths, repo: Path) -> None:
    code, _out, err = run_hook(recorded("edit_syntax_error.json", repo), paths=daemon)
    assert code == 2
    assert "caught by the parse rung" in err
    assert "pkg/models.py:11:" in err


def test_a_multiedit_applies_its_edits_in_order(daemon: RuntimePaths, repo: Path) -> None:
    code, out, err = run_hook(recorded("multiedit.json", repo), paths=daemon)
    assert (code, out, err) == (0, "", "")

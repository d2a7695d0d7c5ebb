"""Protected snippets through the real daemon: ``protected_snippet`` crosses the wire as its own
class, before any check runs; edits that keep the snippet go on through the ladder, where the
HTML page is judged by the parse rung."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, delete_file
from prewrite.errors import ProtectedSnippet

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite import Client
    from prewrite.protocol import CheckReply, FileChange

pytestmark = pytest.mark.e2e

LOADER = '<script src="/analytics.js"></script>'
PYPROJECT = f"""[project]
name = "prot"
version = "0"
dependencies = []

[tool.prewrite]
protect = [{{path = "templates/*.html", text = '{LOADER}'}}]
"""
BASE = (
    f"<!doctype html>\n<html><head>\n{LOADER}\n</head>\n"
    "<body>{% if user %}<p>{{ user.name }}</p>{% endif %}</body></html>\n"
)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("protect")
    (root / "templates").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "templates" / "base.html").write_text(BASE)
    (root / "app.py").write_text("X = 1\n")
    return root


def run(client: Client, root: Path, *changes: FileChange) -> CheckReply:
    return client.check(root, list(changes), python=sys.executable)


def test_removing_the_snippet_is_refused_with_its_own_code(client: Client, repo: Path) -> None:
    with pytest.raises(ProtectedSnippet) as info:
        run(client, repo, change_file(repo, "templates/base.html", BASE.replace(LOADER, "")))
    assert info.value.code == "protected_snippet"
    assert [d.path for d in info.value.details] == ["templates/base.html"]
    assert "analytics.js" in info.value.details[0].message


def test_deleting_the_file_is_refused(client: Client, repo: Path) -> None:
    with pytest.raises(ProtectedSnippet):
        run(client, repo, delete_file(repo, "templates/base.html"))


def test_an_edit_that_keeps_it_is_judged_by_the_ladder(client: Client, repo: Path) -> None:
    kept = BASE.replace("<body>", '<body class="home">')
    reply = run(client, repo, change_file(repo, "templates/base.html", kept))
    assert reply.ok, reply.diagnostics
    outcomes = {r.rung: r.outcome for r in reply.rungs}
    assert (outcomes["anchor"], outcomes["parse"]) == ("pass", "pass")

    broken = BASE.replace("{% endif %}", "")  # still holds the loader; the template breaks
    reply = run(client, repo, change_file(repo, "templates/base.html", broken))
    assert reply.failed_rung == "parse"
    assert [d.line for d in reply.diagnostics] == [5]

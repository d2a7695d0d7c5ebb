"""The format checks through the real daemon: refused at the parse rung, or green with a note.

A Python workspace (no tsconfig) holding YAML, Markdown, CSS and JavaScript: each is verifiable
by default now, a patch that breaks one is answered at the parse rung with the line, and a file
that was already broken can still be edited, the receipt naming what was wrong.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, new_file

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite import Client
    from prewrite.protocol import CheckReply, FileChange

pytestmark = pytest.mark.e2e

FILES = {
    "pyproject.toml": '[project]\nname = "fmt"\nversion = "0"\ndependencies = []\n',
    "pkg/__init__.py": "",
    "deploy/stack.yaml": "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n"
    "    Properties:\n      BucketName: !Sub '${AWS::StackName}-data'\n",
    "docs/guide.md": "# Guide\n\n1. Install:\n   ```bash\n   pip install fmt\n   ```\n2. Run.\n",
    "docs/broken.md": "# Broken\n\nText.\n\n```py\nprint('never closed')\n",
    "web/site.css": ".card {\n  color: red;\n  & .title { font-weight: bold; }\n}\n",
    "web/app.js": "export const A = () => <div>{1}</div>;\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("formats")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def run(client: Client, *changes: FileChange, root: Path) -> CheckReply:
    return client.check(root, list(changes), python=sys.executable)


def test_a_repeated_yaml_key_is_refused_at_its_line(client: Client, repo: Path) -> None:
    text = FILES["deploy/stack.yaml"] + "  Bucket:\n    Type: AWS::S3::Bucket\n"
    reply = run(client, change_file(repo, "deploy/stack.yaml", text), root=repo)
    assert reply.failed_rung == "parse"
    [found] = reply.diagnostics
    assert (found.path, found.line, found.rule, found.source) == (
        "deploy/stack.yaml", 6, "duplicate-key", "yaml"
    )  # fmt: skip
    assert "'Bucket'" in found.message
    assert "line 6" in found.message


def test_yaml_with_application_tags_is_green(client: Client, repo: Path) -> None:
    text = FILES["deploy/stack.yaml"] + "Outputs:\n  Arn:\n    Value: !GetAtt Bucket.Arn\n"
    reply = run(client, change_file(repo, "deploy/stack.yaml", text), root=repo)
    assert reply.ok, reply.diagnostics
    assert any(r.rung == "parse" and r.outcome == "pass" for r in reply.rungs)


def test_an_unclosed_code_fence_is_refused_at_its_opening(client: Client, repo: Path) -> None:
    text = FILES["docs/guide.md"] + "\n```python\nimport fmt\n"
    reply = run(client, change_file(repo, "docs/guide.md", text), root=repo)
    assert reply.failed_rung == "parse"
    [found] = reply.diagnostics
    assert (found.path, found.line, found.rule) == ("docs/guide.md", 9, "unclosed-fence")


def test_a_fence_in_a_list_and_new_markdown_are_green(client: Client, repo: Path) -> None:
    text = FILES["docs/guide.md"] + "3. Check:\n   ~~~\n   fmt --check\n   ~~~\n"
    page = new_file("docs/new.md", "---\ntitle: New\n---\n# New\n")
    reply = run(client, change_file(repo, "docs/guide.md", text), page, root=repo)
    assert reply.ok, reply.diagnostics


def test_an_already_broken_markdown_file_stays_editable_with_a_note(
    client: Client, repo: Path
) -> None:
    text = FILES["docs/broken.md"].replace("Text.", "Better text.")
    reply = run(client, change_file(repo, "docs/broken.md", text), root=repo)
    assert reply.ok, reply.diagnostics
    [note] = [n for n in reply.not_verified if n.startswith("docs/broken.md")]
    assert "code fence ``` opened here never closes" in note
    assert "line 5" in note


def test_css_and_javascript_are_checked_by_their_parsers(client: Client, repo: Path) -> None:
    css = change_file(repo, "web/site.css", FILES["web/site.css"] + "a { color: blue;\n")
    reply = run(client, css, root=repo)
    assert (reply.failed_rung, reply.diagnostics[0].line) == ("parse", 5)
    js = change_file(repo, "web/app.js", FILES["web/app.js"] + "export function f() {\n")
    reply = run(client, js, root=repo)
    assert (reply.failed_rung, reply.diagnostics[0].source) == ("parse", "javascript")
    green = change_file(repo, "web/app.js", FILES["web/app.js"] + "export const b = 2;\n")
    assert run(client, green, root=repo).ok

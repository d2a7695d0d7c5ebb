"""The validation ladder end to end: each rung catches its own failure and stops the ladder.

Real daemon, real ruff, real pyright, a temporary repository that configures ruff (so the
format rung is on) and carries one pre-existing lint finding.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from prewrite import Client, change_file, new_file
from prewrite.changes import sha256_hex
from prewrite.errors import FindAmbiguous, FindMismatch, ForbiddenPath, UnverifiableExtension
from prewrite.protocol import CheckReply, Edit, FileChange

pytestmark = pytest.mark.e2e

PYPROJECT = """[project]
name = "lad"
version = "0"
dependencies = []

[tool.ruff]
line-length = 100

[tool.ruff.lint]
select = ["E", "F"]

[tool.pyright]
typeCheckingMode = "standard"
"""
FILES = {
    "pyproject.toml": PYPROJECT,
    "pkg/__init__.py": "",
    "pkg/core.py": "def total(xs: list[int]) -> int:\n    return sum(xs)\n",
    "pkg/old.py": "import os\n\n\ndef f() -> int:\n    return 1\n",
    "pkg/twice.py": (
        "A = 1\nB = 1\n\n\ndef g() -> int:\n    return 1\n\n\ndef h() -> int:\n    return 1\n"
    ),
    "data/config.json": '{"a": 1}\n',
    "README.md": "# lad\n",
}


def write_repo(root: Path) -> Path:
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_repo(tmp_path_factory.mktemp("ladder"))


def run(client: Client, root: Path, *changes: FileChange) -> CheckReply:
    return client.check(root, list(changes), python=sys.executable)


def outcomes(reply: CheckReply) -> dict[str, str]:
    return {r.rung: r.outcome for r in reply.rungs}


def edit(root: Path, path: str, *pairs: tuple[str, str]) -> FileChange:
    base = sha256_hex((root / path).read_bytes())
    return FileChange(path, base, edits=[Edit(f, r) for f, r in pairs])


def test_a_green_patch_passes_every_rung(client: Client, repo: Path) -> None:
    reply = run(client, repo, edit(repo, "pkg/core.py", ("return sum(xs)", "return sum(xs) + 0")))
    assert reply.ok, reply.diagnostics
    assert reply.failed_rung is None
    assert outcomes(reply) == {
        **{r: "pass" for r in ("policy", "anchor", "parse", "format", "lint", "typecheck")},
        "review": "off",  # no [tool.prewrite] reviewer: off by default
    }
    assert reply.files[0].content == "def total(xs: list[int]) -> int:\n    return sum(xs) + 0\n"
    assert not reply.files[0].formatted  # already formatted as given


@pytest.mark.parametrize(
    ("path", "error"),
    [
        (".github/workflows/ci.yml", ForbiddenPath),
        (".env", ForbiddenPath),
        ("requirements.txt", ForbiddenPath),
        ("notes.txt", UnverifiableExtension),
    ],
)
def test_the_policy_rung_refuses_before_anything_else(
    client: Client, repo: Path, path: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        run(client, repo, FileChange(path, None, content="x\n"))


def test_dependency_tables_are_refused_tool_tables_are_judged(client: Client, repo: Path) -> None:
    deps = PYPROJECT.replace("dependencies = []", 'dependencies = ["requests"]')
    with pytest.raises(ForbiddenPath) as info:
        run(client, repo, change_file(repo, "pyproject.toml", deps))
    assert any("project.dependencies" in d.message for d in info.value.details)
    strict = PYPROJECT.replace('"standard"', '"strict"')
    loose = new_file("pkg/loose.py", "def ident(x):\n    return x\n")
    reply = run(client, repo, change_file(repo, "pyproject.toml", strict), loose)
    assert reply.failed_rung == "typecheck"
    assert "reportMissingParameterType" in {d.rule for d in reply.diagnostics}


def test_anchor_mismatch_names_the_closest_real_lines(client: Client, repo: Path) -> None:
    with pytest.raises(FindMismatch) as info:
        run(client, repo, edit(repo, "pkg/core.py", ("return sum(ys)", "return 0")))
    assert info.value.code == "find_mismatch"
    assert "line 2" in info.value.details[1].message


def test_anchor_ambiguity_lists_every_site(client: Client, repo: Path) -> None:
    with pytest.raises(FindAmbiguous) as info:
        run(client, repo, edit(repo, "pkg/twice.py", ("    return 1", "    return 2")))
    sites = [d.message for d in info.value.details[1:]]
    assert [s.split(":")[0] for s in sites] == ["line 6", "line 10"]


def test_a_syntax_error_stops_the_ladder_at_parse(client: Client, repo: Path) -> None:
    reply = run(client, repo, change_file(repo, "pkg/core.py", "def total(xs:\n"))
    assert reply.failed_rung == "parse"
    assert [(d.path, d.rule, d.source) for d in reply.diagnostics] == [
        ("pkg/core.py", "syntax", "python")
    ]
    assert outcomes(reply)["format"] == "skipped"
    assert outcomes(reply)["typecheck"] == "skipped"


def test_invalid_json_and_toml_fail_parse(client: Client, repo: Path) -> None:
    reply = run(client, repo, change_file(repo, "data/config.json", '{"a": 1,,}\n'))
    assert (reply.failed_rung, reply.diagnostics[0].source) == ("parse", "json")
    reply = run(client, repo, change_file(repo, "pyproject.toml", PYPROJECT + "[broken\n"))
    assert (reply.failed_rung, reply.diagnostics[0].source) == ("parse", "tomllib")


def test_the_formatted_candidate_flows_into_the_type_check(client: Client, repo: Path) -> None:
    # ruff format removes the blank lines; the type error is reported where it is after that.
    text = (
        "def total(xs: list[int]) -> int:\n\n\n\n    return sum(xs)\n\n\n\n\nx: str = total([1])\n"
    )
    reply = run(client, repo, change_file(repo, "pkg/core.py", text))
    formatted = reply.files[0].content or ""
    assert formatted.count("\n") < text.count("\n")
    assert reply.files[0].formatted
    x_line = formatted.splitlines().index("x: str = total([1])") + 1
    assert x_line != text.splitlines().index("x: str = total([1])") + 1
    assert reply.failed_rung == "typecheck"
    assert [(d.line, d.rule) for d in reply.diagnostics] == [(x_line, "reportAssignmentType")]


def test_a_new_lint_finding_stops_the_ladder_before_the_type_check(
    client: Client, repo: Path
) -> None:
    text = "def total(xs: list[int]) -> int:\n    return sum(xs) + undefined_name\n"
    reply = run(client, repo, change_file(repo, "pkg/core.py", text))
    assert reply.failed_rung == "lint"
    assert [(d.rule, d.source) for d in reply.diagnostics] == [("F821", "ruff")]
    assert outcomes(reply)["typecheck"] == "skipped"


def test_a_lint_finding_that_existed_before_is_not_reported(client: Client, repo: Path) -> None:
    text = FILES["pkg/old.py"] + "\n\ndef g() -> int:\n    return 2\n"
    reply = run(client, repo, change_file(repo, "pkg/old.py", text))
    assert reply.ok, reply.diagnostics


def test_stats_count_what_each_rung_caught(client: Client, tmp_path: Path) -> None:
    root = write_repo(tmp_path / "scripted")
    green = edit(root, "pkg/core.py", ("sum(xs)", "sum(xs) + 1"))
    scripted: list[list[FileChange]] = [
        [green],
        [green],
        [FileChange("notes.txt", None, content="x")],  # policy
        [edit(root, "pkg/core.py", ("nothing like this", "x"))],  # anchor
        [change_file(root, "pkg/core.py", "def (\n")],  # parse
        [change_file(root, "pkg/core.py", "x = undefined_name\n")],  # lint
        [change_file(root, "pkg/core.py", "x: int = 'a'\n")],  # typecheck
    ]
    for changes in scripted:
        try:
            run(client, root, *changes)
        except (UnverifiableExtension, FindMismatch):
            pass
    stats = client.stats(root)
    caught = {r.rung: r.caught for r in stats.rungs}
    assert stats.verdicts == len(scripted)
    assert caught == {"policy": 1, "anchor": 1, "parse": 1, "format": 0, "lint": 1, "typecheck": 1}
    assert stats.outcomes == {
        "ok": 2,
        "unverifiable_extension": 1,
        "find_mismatch": 1,
        "failed:parse": 1,
        "failed:lint": 1,
        "failed:typecheck": 1,
    }
    runs = {r.rung: r.runs for r in stats.rungs}
    # Each failure stops the ladder: later rungs did not run for it.
    assert runs == {"policy": 7, "anchor": 6, "parse": 5, "format": 4, "lint": 4, "typecheck": 3}
    cli = subprocess.run(
        [
            str(Path(sys.executable).with_name("prewrite")),
            "stats",
            "--root",
            str(root),
            "--no-autostart",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "7 verdict(s)" in cli.stdout
    assert any(line.split()[:3] == ["lint", "4", "1"] for line in cli.stdout.splitlines())

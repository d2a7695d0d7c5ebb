"""No false reds on real files: every YAML, Markdown, CSS and JavaScript file of pinned packages.

The corpus (``tests/support/format_corpus.py``) is fetched from the registries on first use and
cached. Each file must pass its format's check unchanged, and a harmless edit (a comment line
appended in the file's own syntax) must not be refused. The few files the checks flag are
broken on purpose in their package (fixtures of linters' "bad input" tests): they are listed
here with the reason, asserted to be caught, and still editable (the rung is comparative).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.parse import parse_error, parse_patch
from tests.support.format_corpus import SUFFIXES, CorpusFile, CorpusUnavailable, corpus

pytestmark = pytest.mark.slow

MINIMUM = 50  # files per format, the bar
KNOWN_BROKEN = {
    ("ansible-core==2.17.7", "test/integration/targets/yaml_parsing/playbook.yml"): (
        "a repeated key on purpose (its line says `yamllint disable rule:key-duplicates`)"
    ),
    ("cfn-lint==1.20.0", "test/fixtures/templates/bad/duplicate.yaml"): "a repeated key, a fixture",
    ("cfn-lint==1.20.0", "test/fixtures/templates/bad/template.yaml"): "invalid YAML, a fixture",
    ("cfn-lint==1.20.0", "test/fixtures/templates/bad/core/config_invalid_yaml.yaml"): (
        "invalid YAML, a fixture"
    ),
}
COMMENT = {
    "yaml": "# prewrite: a harmless comment\n",
    "markdown": "\n<!-- prewrite: a harmless comment -->\n",
    "css": "/* prewrite: a harmless comment */\n",
    "javascript": "// prewrite: a harmless comment\n",
}


@pytest.fixture(scope="module")
def files() -> dict[str, list[CorpusFile]]:
    try:
        return corpus()
    except CorpusUnavailable as exc:
        pytest.skip(str(exc))


def _with_comment(text: str, kind: str) -> str:
    return text + ("\n" if text and not text.endswith("\n") else "") + COMMENT[kind]


@pytest.mark.parametrize("kind", list(SUFFIXES))
def test_real_files_round_trip_with_no_false_rejection(
    files: dict[str, list[CorpusFile]], kind: str
) -> None:
    real = files[kind]
    assert len(real) >= MINIMUM, f"only {len(real)} {kind} files in the corpus"
    flagged: set[tuple[str, str]] = set()
    refused: list[str] = []
    for file in real:
        if parse_error(file.path, file.text) is not None:
            flagged.add((file.package, file.path))
        edit = FileEdit(file.path, file.text, _with_comment(file.text, kind))
        introduced, _ = parse_patch(PreparedPatch(Path("/corpus"), (edit,)))
        refused += [f"{file.package} {d.path}:{d.line}: {d.message}" for d in introduced]
    expected = {key for key in KNOWN_BROKEN if key[1].lower().endswith(SUFFIXES[kind])}
    packages = len({f.package for f in real})
    print(f"{kind}: {len(real)} files from {packages} packages, {len(flagged)} already broken")
    assert refused == []  # no harmless edit refused
    assert flagged == expected  # unchanged, every file passes but the ones broken on purpose

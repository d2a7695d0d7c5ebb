"""Recorded cold runs (``tests/support/oracle_record.py``): a record is read only for the same
input, a changed input runs cold, a record that drifted fails, live mode reads none."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.protocol import Diagnostic
from tests.support import oracle_record

if TYPE_CHECKING:
    from pathlib import Path


def _diag(message: str) -> Diagnostic:
    return Diagnostic(
        path="m.py", line=1, column=1, end_line=1, end_column=2, severity="error",
        rule="reportX", message=message, source="Pyright",
    )  # fmt: skip


@pytest.fixture
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(oracle_record, "RECORDS", tmp_path / "records")
    monkeypatch.setattr(oracle_record, "_checked", set[str]())
    monkeypatch.setattr(oracle_record, "STATS", dict.fromkeys(oracle_record.STATS, 0))
    monkeypatch.delenv("PREWRITE_ORACLE", raising=False)
    return tmp_path / "records"


def _tree(tmp_path: Path, text: str) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir(exist_ok=True)
    (tree / "m.py").write_text(text)
    return tree


class Runs:
    def __init__(self, answer: list[Diagnostic]) -> None:
        self.answer, self.count = answer, 0

    def __call__(self) -> list[Diagnostic]:
        self.count += 1
        return list(self.answer)


def test_the_same_input_is_read_and_checked_cold_once(tmp_path: Path, records: Path) -> None:
    tree = _tree(tmp_path, "x = 1\n")
    runs = Runs([_diag("a")])
    for _ in range(3):
        assert oracle_record.answer(["pyright", "1"], ["env"], tree, runs) == [_diag("a")]
    # recorded by the first, run cold again by the first read (the live check), then read
    assert runs.count == 2
    assert len(list(records.rglob("*.json.gz"))) == 1


def test_any_change_of_the_input_runs_cold(tmp_path: Path, records: Path) -> None:
    tree = _tree(tmp_path, "x = 1\n")
    oracle_record.answer(["pyright", "1"], ["env"], tree, Runs([]))
    for checker, inputs, text in [
        (["pyright", "2"], ["env"], "x = 1\n"),
        (["pyright", "1"], ["env2"], "x = 1\n"),
        (["pyright", "1"], ["env"], "x = 2\n"),
    ]:
        runs = Runs([_diag("new")])
        tree = _tree(tmp_path, text)
        assert oracle_record.answer(checker, inputs, tree, runs) == [_diag("new")]
        assert runs.count == 1
        _tree(tmp_path, "x = 1\n")
    assert len(list(records.rglob("*.json.gz"))) == 4


def test_a_record_that_drifted_from_the_cold_run_fails(tmp_path: Path, records: Path) -> None:
    tree = _tree(tmp_path, "x = 1\n")
    oracle_record.answer(["pyright", "1"], [], tree, Runs([_diag("recorded")]))
    with pytest.raises(oracle_record.OracleRecordStale, match="differs from a cold run"):
        oracle_record.answer(["pyright", "1"], [], tree, Runs([_diag("cold says otherwise")]))


def test_live_mode_reads_no_record(
    tmp_path: Path, records: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _tree(tmp_path, "x = 1\n")
    oracle_record.answer(["pyright", "1"], [], tree, Runs([_diag("recorded")]))
    monkeypatch.setenv("PREWRITE_ORACLE", "live")
    runs = Runs([_diag("cold")])
    assert oracle_record.answer(["pyright", "1"], [], tree, runs) == [_diag("cold")]
    assert runs.count == 1


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pyproject.toml", '[tool.pyright]\nextraPaths = ["../shared"]\n'),
        ("pyproject.toml", '[tool.mypy]\nmypy_path = "/opt/stubs"\n'),
        ("pyrightconfig.json", '{"stubPath": "~/stubs"}'),
        ("tsconfig.json", '{"extends": "../base.json"}'),
    ],
)
def test_a_tree_whose_configuration_points_outside_is_never_recorded(
    tmp_path: Path, records: Path, name: str, text: str
) -> None:
    tree = _tree(tmp_path, "x = 1\n")
    (tree / name).write_text(text)
    runs = Runs([])
    oracle_record.answer(["pyright", "1"], [], tree, runs)
    oracle_record.answer(["pyright", "1"], [], tree, runs)
    assert runs.count == 2
    assert not records.exists()


def test_a_build_backends_root_anchored_patterns_are_not_paths(
    tmp_path: Path, records: Path
) -> None:
    tree = _tree(tmp_path, "x = 1\n")
    (tree / "pyproject.toml").write_text('[tool.hatch.build]\ninclude = ["/httpx"]\n')
    oracle_record.answer(["pyright", "1"], [], tree, Runs([]))
    assert len(list(records.rglob("*.json.gz"))) == 1

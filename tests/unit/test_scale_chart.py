"""The scale bench's pure parts: its chart's reading of results files (older ones lack the
checker and the line count) and the TypeScript repository's salted edits (comments in ``//``,
anchors that must match exactly once)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from bench.scale_chart import point, positions, write_scale_chart
from bench.scale_repos import EFFECT_REPO, SQLALCHEMY_REPO, replace_once

if TYPE_CHECKING:
    from pathlib import Path


def _results(files: int, lines: int | None, **p50: float | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "workload": f"repo{files} 1.0 (src/ + tsconfig.json)",
        "files": files,
        "cold_ms": 30_000,
        "cold_error": None,
        "patches": [{"kind": k, "p50_ms": v} for k, v in p50.items()],
    }
    if lines is not None:
        out["lines"], out["checker"] = lines, "TypeScript 5.9.3 (tsserver)"
    else:
        out["pyright"] = "pyright 1.1.414"
    return out


def test_point_reads_costs_and_leaves_unanswered_out() -> None:
    p = point(_results(255, None, first_check=4474, leaf_body=None))
    assert p.files == 255
    assert p.lines is None
    assert p.costs["cold"] == 30_000
    assert p.costs["first_check"] == 4474
    assert p.costs["leaf_body"] is None
    assert p.costs["interface"] is None
    assert p.label == "repo255 1.0\npyright 1.1.414"


def test_failed_cold_run_is_not_a_cost() -> None:
    results = _results(10, 100)
    results["cold_error"] = "no answer within 300 s"
    assert point(results).costs["cold"] is None


def test_chart_is_written_from_results_files(tmp_path: Path) -> None:
    sources: list[Path] = []
    for i, (files, lines) in enumerate(((255, None), (362, 234_683))):
        source = tmp_path / f"scale-{i}.json"
        source.write_text(json.dumps(_results(files, lines, first_check=1000.0 * (i + 1))))
        sources.append(source)
    (tmp_path / "scale-broken.json").write_text("{")
    out = write_scale_chart([*sources, tmp_path / "scale-broken.json"], tmp_path / "c.png")
    assert out is not None
    assert out.read_bytes()[:4] == b"\x89PNG"
    assert write_scale_chart([tmp_path / "scale-broken.json"], tmp_path / "none.png") is None


def test_typescript_edits_are_salted_and_commented_in_its_syntax() -> None:
    text = f"import x from 'y'\n{EFFECT_REPO.signature}"
    assert EFFECT_REPO.comment(text, 3).endswith("// prewrite scale bench: a comment (run 3)\n")
    assert SQLALCHEMY_REPO.comment("x = 1\n", 3).endswith(
        "# prewrite scale bench: a comment (run 3)\n"
    )
    assert EFFECT_REPO.suffix == ".ts"
    assert SQLALCHEMY_REPO.suffix == ".py"
    body = EFFECT_REPO.hub_body(text, 2)
    assert '"run 2"' in body
    assert EFFECT_REPO.signature not in body
    assert "pwSuffix" in EFFECT_REPO.new_parameter(text, 2)
    assert "): number =>" in EFFECT_REPO.return_annotation(text, 2)


def test_an_anchor_found_twice_stops_the_bench() -> None:
    with pytest.raises(ValueError, match="exactly once"):
        replace_once("a\na\n", "a\n", "b\n")


def test_one_repository_under_two_checkers_is_drawn_side_by_side() -> None:
    ts5, ts7, other = (point(_results(n, 1000 * n)) for n in (362, 362, 255))
    xs = positions([other, ts5, ts7], by_lines=True)
    assert xs[0] == 255_000
    assert xs[1] == 362_000
    assert xs[2] == pytest.approx(362_000 * 1.04)
    assert positions([other], by_lines=False) == {0: 255}

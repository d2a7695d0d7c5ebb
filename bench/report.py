"""The bench's outputs: ``results.json`` (everything measured), ``results.md`` (the tables) and
the targets of the issue, evaluated on the measurements (reported, never asserted).

This module writes them; the page is ``bench.report_markdown``, the targets
``bench.report_targets``, reading a measured value ``bench.report_values``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from bench.report_markdown import markdown
from bench.report_targets import evaluate_targets

if TYPE_CHECKING:
    from pathlib import Path

SCHEMA = 1


def write(results: dict[str, Any], out: Path) -> tuple[Path, Path]:
    results["schema"] = SCHEMA
    results["targets"] = evaluate_targets(results)
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / "results.json", out / "results.md"
    json_path.write_text(json.dumps(results, indent=2) + "\n")
    md_path.write_text(markdown(results))
    return json_path, md_path

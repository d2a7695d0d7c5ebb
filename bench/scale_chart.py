"""The scale bench's chart: each cost against repository size, log-log (issue 24).

One point per ``scale*.json`` (``bench.scale``, one per repository and checker) and cost: the cold
CLI, the first check of a just-started daemon, the warm body edits of a leaf and of a hub (p50),
and the interface changes (green p50 and red). Size is lines of source where every result
records it (results since the TypeScript shape), else files: lines compare a 235k-line package
of 362 TypeScript modules with 883 short Django modules fairly, files do not. A cost with no
answer is left out, not drawn as zero. ``python -m bench.scale_chart [json ...] [--out png]``
redraws it from existing results without running anything.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: write files only

import matplotlib.pyplot as plt  # after use(): the backend first

RESULTS = Path(__file__).parent / "results"
COSTS = (
    ("cold CLI", "cold"),
    ("first check", "first_check"),
    ("leaf body p50", "leaf_body"),
    ("hub body p50", "hub_body"),
    ("interface p50", "interface"),
    ("interface (red)", "interface_red"),
)
MARKERS = ("o", "s", "^", "v", "D", "X")


@dataclass(frozen=True)
class Point:
    """One repository's run: its label, size and costs in ms (None: not answered)."""

    label: str
    files: int
    lines: int | None
    costs: dict[str, float | None]


def point(results: dict[str, Any]) -> Point:
    """A results file read into a point; keys missing from older results count as not answered."""
    kinds = {p["kind"]: p for p in results.get("patches", [])}
    costs: dict[str, float | None] = {}
    for _, key in COSTS:
        if key == "cold":
            value = None if results.get("cold_error") else results.get("cold_ms")
        else:
            value = kinds.get(key, {}).get("p50_ms")
        costs[key] = float(value) if isinstance(value, int | float) and value > 0 else None
    checker = str(results.get("checker") or results.get("pyright") or "")
    label = results["workload"].split(" (")[0] + (f"\n{checker}" if checker else "")
    return Point(label, int(results.get("files", 0)), results.get("lines"), costs)


def _size(p: Point, by_lines: bool) -> float:
    return float(p.lines if by_lines and p.lines else p.files)


def positions(points: list[Point], by_lines: bool) -> dict[int, float]:
    """Each point's x: its size, nudged right by 4% per earlier point of the same size (one
    repository under two checkers), so that their markers and labels do not hide each other."""
    seen: dict[float, int] = {}
    out: dict[int, float] = {}
    for i, p in enumerate(points):
        size = _size(p, by_lines)
        out[i] = size * 1.04 ** seen.get(size, 0)
        seen[size] = seen.get(size, 0) + 1
    return out


def write_scale_chart(sources: list[Path], out: Path) -> Path | None:
    """Draw the points of ``sources`` (unreadable files skipped) to ``out``; None if none."""
    points: list[Point] = []
    for source in sources:
        try:
            points.append(point(json.loads(source.read_text())))
        except (OSError, ValueError, KeyError):
            continue
    points = [p for p in points if p.files > 0]
    if not points:
        return None
    by_lines = all(p.lines for p in points)
    fig, axes = plt.subplots(1, 1, figsize=(9, 6), squeeze=False)
    ax = axes[0][0]
    # Points, not lines: the repositories differ in language and checker, not only in size, so
    # a line between two of them would draw a trend that is not there.
    points.sort(key=lambda p: (_size(p, by_lines), p.label))
    xs = positions(points, by_lines)
    for (name, key), marker in zip(COSTS, MARKERS, strict=True):
        shown = [(xs[i], c) for i, p in enumerate(points) if (c := p.costs[key]) is not None]
        if shown:
            ax.scatter([x for x, _ in shown], [y for _, y in shown], marker=marker, label=name)
    for i, p in enumerate(points):
        ax.annotate(p.label, xy=(xs[i], 1.0), xycoords=("data", "axes fraction"),
                    xytext=(0, 4 + 22 * (i % 2)), textcoords="offset points", fontsize=7,
                    ha="center", va="bottom")  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("repository size: " + ("lines of source" if by_lines else "source files"))
    ax.set_ylabel("ms (log scale)")
    ax.set_title("prewrite scale bench: cost against repository size", pad=52)
    ax.grid(which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)  # pyright: ignore[reportUnknownMemberType]  (matplotlib's **kwargs)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale_chart", description=__doc__)
    parser.add_argument("sources", nargs="*", type=Path, help="(bench/results/scale*.json)")
    parser.add_argument("--out", type=Path, default=RESULTS / "scale.png")
    args = parser.parse_args(argv)
    written = write_scale_chart(args.sources or sorted(RESULTS.glob("scale*.json")), args.out)
    print(written or "no scale results to draw")
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())

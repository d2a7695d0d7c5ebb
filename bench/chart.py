"""The PNG: cold vs first check vs warm vs floor vs dmypy per workload, on a log scale.

Two panels: the 1-file body-only edit (interface preserved) and the signature change that
breaks importers (interface changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")  # no display: write files only

import matplotlib.pyplot as plt  # after use(): the backend first

from bench.report_values import get

if TYPE_CHECKING:
    from pathlib import Path

SERIES = (
    ("cold CLI", ("cold", "{kind}", "ms")),
    ("daemon first check", ("daemon", "first_check_ms")),
    ("warm p50", ("daemon", "patches", "{kind}", "p50")),
    ("floor p50", ("floor", "patches", "{kind}", "p50")),
    ("dmypy warm p50", ("dmypy", "patches", "{kind}", "p50")),
)
PANELS = (("body_1", "1-file body-only edit"), ("signature", "signature change (breaks importers)"))


def _value(workload: dict[str, Any], path: tuple[str, ...], kind: str) -> float:
    found = get(workload, *(p.format(kind=kind) for p in path))
    return float(found) if isinstance(found, int | float) and found > 0 else 0.0


def write_chart(results: dict[str, Any], path: Path) -> Path:
    workloads: list[dict[str, Any]] = results["workloads"]
    labels = [f"{w['label']}\n({w['files']} files)" for w in workloads]
    fig, axes = plt.subplots(1, len(PANELS), figsize=(6 * len(PANELS), 4.8), squeeze=False)
    width = 0.8 / len(SERIES)
    for ax, (kind, title) in zip(axes[0], PANELS, strict=True):
        for i, (name, keys) in enumerate(SERIES):
            xs = [n + (i - (len(SERIES) - 1) / 2) * width for n in range(len(workloads))]
            bars = ax.bar(xs, [_value(w, keys, kind) for w in workloads], width, label=name)
            ax.bar_label(bars, fmt="%.0f", fontsize=6, rotation=90, padding=2)
        ax.set_yscale("log")
        ax.set_ylim(bottom=10)
        ax.set_xticks(list(range(len(workloads))))
        ax.set_xticklabels(labels)
        ax.set_ylabel("ms (log scale)")
        ax.set_title(title)
        ax.grid(axis="y", which="both", alpha=0.3)
    axes[0][0].legend(fontsize="small")
    title = f"prewrite: warm vs cold vs floor ({results['date']}, {results['machine']})"
    fig.suptitle(title)  # pyright: ignore[reportUnknownMemberType]  (matplotlib's **kwargs)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)  # pyright: ignore[reportUnknownMemberType]
    plt.close(fig)
    return path

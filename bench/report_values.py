"""Reading the bench's results: a measured value where a phase may have failed or been skipped
(``get``, ``num``, ``section``), and a value written as a table cell (``ms``, ``mb``, ``ratio``)."""

from __future__ import annotations

import statistics
from typing import Any, cast


def ms(value: Any) -> str:
    """A duration in ms as a cell: whole above 10 ms, one decimal below, "n/a" when missing."""
    if not isinstance(value, int | float):
        return "n/a"
    return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def mb(value: Any) -> str:
    """A memory figure in MB as a cell, "n/a" when missing."""
    return f"{value:.0f} MB" if isinstance(value, int | float) else "n/a"


def ratio(a: Any, b: Any) -> str:
    """``a / b`` as a cell ("12x", "2.5x"); "n/a" when either is missing or ``b`` <= 0."""
    if isinstance(a, int | float) and isinstance(b, int | float) and b > 0:
        return f"{a / b:.0f}x" if a / b >= 10 else f"{a / b:.1f}x"
    return "n/a"


def get(data: dict[str, Any], *keys: str) -> Any:
    """``data[k1][k2]...``, or None where a part is missing (a phase failed or was skipped)."""
    node: Any = data
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]  # pyright: ignore[reportUnknownVariableType]
    return node  # pyright: ignore[reportUnknownVariableType]


def num(data: dict[str, Any], *keys: str) -> float | None:
    """A measured number, or None where it is missing."""
    value = get(data, *keys)
    return float(value) if isinstance(value, int | float) else None


def section(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def cold_p50(w: dict[str, Any]) -> float | None:
    values = [v for kind in section(w, "cold") if (v := num(w, "cold", kind, "ms")) is not None]
    return statistics.median(values) if values else None

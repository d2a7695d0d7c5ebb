"""``[tool.prewrite] suppressions``: what a suppression a patch adds does to the verdict.

    [tool.prewrite]
    suppressions = "report"   # default: green stays green; each added suppression is listed
                              # with what it hides (the reply, the hook's context, stats)
    suppressions = "refuse"   # an added suppression makes the verdict red (failed_rung
                              # "suppressions"), naming it and what it hides

Like the rest of the table it is read from the disk, never from the patch (a patch may not
change ``[tool.prewrite]``). ``parse_suppressions`` is the key's parser for ``ladder/config.py``
(a bad value is refused, never ignored); ``suppression_mode`` reads it from a ladder definition,
``"report"`` when the definition does not carry the key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from prewrite.errors import BadRequest, ErrorDetail

if TYPE_CHECKING:
    from collections.abc import Mapping

SUPPRESSIONS = "suppressions"  # the step's name in a reply's rungs, as a failed rung, in stats
SuppressionMode = Literal["report", "refuse"]
MODES: tuple[SuppressionMode, ...] = ("report", "refuse")
DEFAULT: SuppressionMode = "report"


def parse_suppressions(table: Mapping[str, Any]) -> SuppressionMode:
    """The ``suppressions`` key of a ``[tool.prewrite]`` table (``"report"`` when absent)."""
    value: object = table.get("suppressions", DEFAULT)
    for mode in MODES:
        if value == mode:
            return mode
    raise BadRequest(
        '[tool.prewrite] suppressions must be "report" or "refuse"',
        [ErrorDetail(f"suppressions = {value!r}", "pyproject.toml")],
    )


def suppression_mode(config: object) -> SuppressionMode:
    """The mode a ladder definition (``LadderConfig``) carries; ``"report"`` without one."""
    return parse_suppressions({"suppressions": getattr(config, "suppressions", DEFAULT)})

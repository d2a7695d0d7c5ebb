"""One ladder definition, read from the workspace's ``[tool.prewrite]`` (defaults when absent).

It is always read from the workspace *on disk*, never from a patch's candidate: the rules that
judge a patch are not the patch's to change. A patch that changes this table is refused
(``forbidden_path``) unless the table on disk already sets ``allow_config_changes``.

The same file holds the tools' own configuration (``[tool.ruff]``), so the lint and format rungs
run the very commands CI runs, with the same settings: ``ruff check`` / ``ruff format`` resolved
from the file's real path in the workspace.

Unknown keys are refused; each known key's value is typed and parsed by ``config_values``:

    [tool.prewrite]
    format = true            # default: on when the workspace configures ruff, else off
    lint = true              # default: on
    typecheck = true         # default: on; or which checkers judge: ["mypy", "pyright"]
    allow_extensions = [".py", ".pyi", ".toml", ".json"]   # replaces the default list: those,
                             # and what the parse rung has a provable-only check for (formats/):
                             # .yaml .yml .md .markdown .css .html .htm .liquid and the JS/TS family
    deny = ["migrations/*"]  # added to the default denylist (denylist.py)
    allow = ["requirements-dev.txt"]   # exempted from the denylist (its extension must
                                       # still be in allow_extensions to be verifiable)
    allow_dependency_changes = false   # pyproject [project.dependencies], [build-system], ...
    allow_config_changes = false       # may a patch change this table itself? (every key
                                       # here, these allow_* keys included: set it by hand)
    allow_relaxation = false # a patch that changes ruff's configuration is judged under the
                             # configuration before it *and* after it; true: after it only
    tests = true             # after `apply` writes: pytest of the test modules importing the change
    test_timeout = 300       # seconds; the whole process group is killed after it
    rollback_on_fail = false # a failing disk rung puts the previous bytes back
    finish = [{name = "build", command = ["python", "-m", "build"], timeout = 900}]
                             # "once at the end" rungs: `prewrite finish` or `apply --finish`
    protect = [{path = "templates/*.html", text = "<script src=\"/a.js\"></script>"}]
                             # text a patch must not remove from matching files (protect.py);
                             # a patch cannot drop the rule: it is part of this table
    reviewer = {command = ["python", "review.py"], timeout = 30}
                             # off when absent: the workspace's own command judges the patch
                             # and the caller's intent after the type check (review.py); run
                             # only in a trusted workspace; fails open when it errors
    suppressions = "report"  # or "refuse": a suppression the patch adds (suppression_mode.py)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from prewrite.errors import BadRequest, ErrorDetail
from prewrite.files import read_text
from prewrite_daemon.ladder.config_values import (
    parse_finish,
    parse_flag,
    parse_protect,
    parse_reviewer,
    parse_seconds,
    parse_strings,
)
from prewrite_daemon.ladder.denylist import DEFAULT_DENY
from prewrite_daemon.ladder.suppression_mode import parse_suppressions
from prewrite_daemon.languages.checkers import parse_names

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite_daemon.ladder.config_values import FinishRung, ProtectRule, ReviewerCommand
    from prewrite_daemon.ladder.suppression_mode import SuppressionMode

# The JavaScript/TypeScript family is verifiable everywhere: by its parser (formats/javascript.py)
# outside a TypeScript workspace, by TypeScript inside one (TS_EXTENSIONS below).
DEFAULT_EXTENSIONS = frozenset(
    {".py", ".pyi", ".toml", ".json", ".yaml", ".yml", ".md", ".markdown", ".css",
     ".html", ".htm", ".liquid", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"}
)  # fmt: skip
# Judged by TypeScript in a TypeScript workspace (a tsconfig.json or jsconfig.json at the root);
# JavaScript only where the project's allowJs covers it, else the reply lists it as not judged.
TS_EXTENSIONS = frozenset({".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"})
RUNGS = ("policy", "anchor", "parse", "format", "lint", "typecheck", "review")
# What a request's ``rungs`` may choose; policy and anchor always run (safety, not checks).
SELECTABLE_RUNGS = ("parse", "format", "lint", "typecheck", "review", "tests")
ALWAYS_RUN = ("policy", "anchor")
_RUFF_FILES = ("ruff.toml", ".ruff.toml")


@dataclass(frozen=True)
class LadderConfig:
    format: bool
    lint: bool
    typecheck: bool
    allow_extensions: frozenset[str]
    deny: tuple[str, ...]
    allow: tuple[str, ...]
    allow_dependency_changes: bool
    source: str  # where the definition came from, for the receipt
    tests: bool = True
    test_timeout_s: float = 300.0
    rollback_on_fail: bool = False
    finish: tuple[FinishRung, ...] = ()
    allow_config_changes: bool = False
    allow_relaxation: bool = False
    protect: tuple[ProtectRule, ...] = ()
    reviewer: ReviewerCommand | None = None  # None: the review rung is off
    suppressions: SuppressionMode = "report"  # what an added suppression does (suppression_mode)
    not_requested: frozenset[str] = frozenset()  # left out by the request's ``rungs``
    format_set: bool = False  # [tool.prewrite] sets ``format`` itself

    def enabled_for_js(self, rung: str) -> bool:
        """JS/TS files are formatted wherever the workspace configures prettier or biome (its own
        choice, like a ruff configuration for Python) unless ``format = false`` is set."""
        if rung == "format" and rung not in self.not_requested:
            return self.format or not self.format_set
        return self.enabled(rung)

    def enabled(self, rung: str) -> bool:
        if rung in self.not_requested:
            return False
        return {
            "format": self.format,
            "lint": self.lint,
            "typecheck": self.typecheck,
            "review": self.reviewer is not None,
        }.get(rung, True)

    def why_not_run(self, rung: str) -> tuple[Literal["off", "skipped"], str]:
        """A rung that does not run: left out by the request, or off in the workspace."""
        if rung == "review" and self.reviewer is None:
            return "off", "no [tool.prewrite] reviewer"
        if rung in self.not_requested:
            return "skipped", "not requested"
        if rung == "format" and not self.format_set:
            return "off", "no formatter configured (the workspace has no ruff configuration)"
        return "off", f"off in [tool.prewrite] ({rung} = false)"

    def restricted(self, rungs: Sequence[str] | None) -> LadderConfig:
        """This ladder run only for the rungs a request names (None: every enabled rung)."""
        if rungs is None:
            return self
        wanted = {r.strip().lower() for r in rungs} - set(ALWAYS_RUN)
        unknown = sorted(wanted - set(SELECTABLE_RUNGS))
        if unknown:
            raise BadRequest(
                "unknown rung(s) in rungs: " + ", ".join(unknown),
                [ErrorDetail(f"choose from: {', '.join(SELECTABLE_RUNGS)}", "rungs")],
            )
        return replace(
            self,
            tests=self.tests and "tests" in wanted,
            not_requested=frozenset(SELECTABLE_RUNGS) - wanted,
        )


def _read_pyproject(root: Path) -> dict[str, Any]:
    """The root ``pyproject.toml`` parsed; ``UnreadableFile`` when it is a FIFO, a device, a
    directory or huge (refused unread: ``prewrite.files``) — never defaults for those, since a
    special file where the rules live is an attack, not a missing file."""
    try:
        text = read_text(root / "pyproject.toml", name="pyproject.toml")
        return tomllib.loads(text) if text is not None else {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}  # the checker reports a broken pyproject; the ladder falls back to defaults


def no_tool_reason(rung: str, untrusted_tools: bool) -> str:
    """Why a format or lint rung that is on judged none of the patch's files: no Python file for
    ruff (nor a change of ruff's configuration, which ruff judges), and no JS/TS tool of the
    workspace taking part (none, or ``untrusted_tools``)."""
    tool = "formatter" if rung == "format" else "linter"
    if untrusted_tools:
        return f"no {tool} ran: the workspace's JS/TS tools may not run until it is trusted"
    return f"no {tool} configured for the patch's files"


def load_config(root: Path) -> LadderConfig:
    """The ladder of ``root``; unknown keys in ``[tool.prewrite]`` are refused, not ignored."""
    data = _read_pyproject(root)
    tool: dict[str, Any] = data.get("tool", {}) if isinstance(data.get("tool"), dict) else {}
    table: dict[str, Any] = (
        tool.get("prewrite", {}) if isinstance(tool.get("prewrite"), dict) else {}
    )
    known = {"format", "lint", "typecheck", "allow_extensions", "deny", "allow",
             "allow_dependency_changes", "tests", "test_timeout", "rollback_on_fail",
             "finish", "allow_config_changes", "allow_relaxation", "hook", "protect",
             "reviewer", "suppressions"}  # fmt: skip
    unknown = sorted(set(table) - known)
    if unknown:
        raise BadRequest(
            "unknown keys in [tool.prewrite]: " + ", ".join(unknown),
            [ErrorDetail(f"known: {', '.join(sorted(known))}", "pyproject.toml")],
        )
    has_ruff = "ruff" in tool or any((root / name).is_file() for name in _RUFF_FILES)
    defaults = DEFAULT_EXTENSIONS
    if any((root / name).is_file() for name in ("tsconfig.json", "jsconfig.json")):
        defaults = defaults | TS_EXTENSIONS
    extensions = parse_strings(table, "allow_extensions", tuple(sorted(defaults)))
    return LadderConfig(
        format=parse_flag(table, "format", has_ruff),
        format_set="format" in table,
        lint=parse_flag(table, "lint", True),
        # a list names the checkers (``languages.checkers``): the rung is on
        typecheck=bool(parse_names(table["typecheck"]))
        if isinstance(table.get("typecheck"), list)
        else parse_flag(table, "typecheck", True),
        allow_extensions=frozenset(e.lower() for e in extensions),
        deny=DEFAULT_DENY + tuple(p.lower() for p in parse_strings(table, "deny", ())),
        allow=tuple(p.lower() for p in parse_strings(table, "allow", ())),
        allow_dependency_changes=parse_flag(table, "allow_dependency_changes", False),
        source="pyproject.toml [tool.prewrite]" if table else "defaults",
        tests=parse_flag(table, "tests", True),
        test_timeout_s=parse_seconds(table.get("test_timeout", 300), "test_timeout"),
        rollback_on_fail=parse_flag(table, "rollback_on_fail", False),
        finish=parse_finish(table.get("finish", [])),
        allow_config_changes=parse_flag(table, "allow_config_changes", False),
        allow_relaxation=parse_flag(table, "allow_relaxation", False),
        protect=parse_protect(table.get("protect", [])),
        reviewer=parse_reviewer(table.get("reviewer")),
        suppressions=parse_suppressions(table),
    )

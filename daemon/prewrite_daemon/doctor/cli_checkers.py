"""What the type-check rung runs where a checker judged by its own CLI (ty, pyrefly) is chosen:
its binary, version and origin, its settings' file and its command line, asked of its language
object (``languages.python.cli_checker``) as a check would."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite.errors import PrewriteError
from prewrite_daemon.doctor.report import RungTool
from prewrite_daemon.languages.python.cli_checker import PYREFLY, TY
from prewrite_daemon.languages.readers import disk_reader

if TYPE_CHECKING:
    from prewrite_daemon.doctor.setup_state import Place
    from prewrite_daemon.languages.checkers import Choice
    from prewrite_daemon.languages.python.cli_checker import CliCheckerLanguage

CLI_CHECKERS: dict[str, CliCheckerLanguage] = {"ty": TY, "pyrefly": PYREFLY}


def cli_checker_tool(place: Place, choice: Choice, state: str, problems: list[str]) -> RungTool:
    lang = CLI_CHECKERS[choice.name]
    name, chosen_by = lang.name, choice.chosen_by
    config = lang.spec.settings(disk_reader(place.root))[0] if lang.applies_to(place.root) else None
    if place.python is None:
        notes = [place.python_error or "no interpreter"]
        return RungTool("typecheck", name, state, config=config, chosen_by=chosen_by, notes=notes)
    try:
        env = lang.environment(place.root, place.python, place.run_python, place.trusted)
    except PrewriteError as exc:
        problems.append(f"{name}: {exc}")
        return RungTool("typecheck", name, state, config=config, chosen_by=chosen_by)
    notes: list[str] = []
    if env.refusal is not None:
        problems.append(f"{name} will not run: {env.refusal}")
        notes.append(env.refusal)
    try:
        command = env.argv(place.root)
    except PrewriteError as exc:  # settings that would run what the repository names
        problems.append(f"{name} will not run: {exc}")
        notes.append(str(exc))
        command = []
    tool = env.tool
    return RungTool(
        "typecheck", name, state, tool.version, tool.origin, config, command, chosen_by,
        notes, None, tool.workspace_version,
    )  # fmt: skip

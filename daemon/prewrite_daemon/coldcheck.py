"""The cold path: patches that change the checker's configuration are judged by fresh runs.

A patch that changes the checker's settings (``[tool.pyright]``, ``pyrightconfig.json``) must be
judged with the settings it creates, which the warm server cannot take as an overlay. The
candidate is written to a temporary copy of the shadow (never the user's repository), with the
shadow's generated configuration rendered from the candidate's settings, and checked by the
``pyright`` CLI of the same version; the base comes from the same CLI on the shadow itself and is
cached until the tree or the environment moves. Slower, and correct.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prewrite.errors import BackendFailed
from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.checker import relocate
from prewrite_daemon.checker_config import JSON_CONFIG
from prewrite_daemon.diagnostics import has_error, introduced_by_patch, to_wire
from prewrite_daemon.process import run_captured

if TYPE_CHECKING:
    from prewrite_daemon.languages.base import Language
    from prewrite_daemon.limits import Deadline
    from prewrite_daemon.patch import PreparedPatch
    from prewrite_daemon.scope import CheckerScope
    from prewrite_daemon.shadow import ShadowTree

Results = dict[str, list[Diagnostic]]


async def run_cli(
    tree: Path, language: Language, python: str | None, timeout_s: float, real_root: Path
) -> Results:
    """The language's cold CLI (``pyright --outputjson``) on ``tree``: diagnostics per path.

    Paths quoted in messages are rewritten from ``tree`` to ``real_root``. ``python`` None: no
    interpreter is run; the tree's configuration names the venv.
    """
    argv = language.cold_argv(python)
    code, out, err = await run_captured(argv, tree, None, timeout_s, "the cold pyright run")
    try:
        report: dict[str, Any] = json.loads(out)
    except ValueError as exc:
        tail = (err or out)[-500:]
        raise BackendFailed(f"pyright exited {code} without a report: {tail}") from exc
    results: Results = {}
    for item in report.get("generalDiagnostics", []):
        d = _from_cli(item, tree, language)
        if d is not None:
            results.setdefault(d.path, []).append(relocate(d, str(tree), str(real_root)))
    return results


def _from_cli(item: dict[str, Any], tree: Path, language: Language) -> Diagnostic | None:
    try:
        rel = Path(item["file"]).relative_to(tree).as_posix()
    except (KeyError, ValueError):
        return None  # outside the tree (a library): not the workspace's
    start, end = item["range"]["start"], item["range"]["end"]
    raw = RawDiagnostic(
        line=start["line"],
        column=start["character"],
        end_line=end["line"],
        end_column=end["character"],
        severity=item.get("severity", "error"),
        rule=item.get("rule", ""),
        message=item.get("message", ""),
        source="Pyright",
    )
    return to_wire(raw, rel, language.normalize_message)


def write_candidate(shadow: ShadowTree, patch: PreparedPatch, scratch: Path, config: str) -> Path:
    """A copy of the shadow with every mirrored file of the patch applied.

    ``config`` is the shadow's generated ``pyrightconfig.json`` under the candidate's settings.
    """
    tree = Path(tempfile.mkdtemp(prefix="candidate-", dir=scratch))
    shutil.copytree(shadow.shadow_root, tree, symlinks=True, dirs_exist_ok=True)
    (tree / JSON_CONFIG).write_text(config, encoding="utf-8")
    for e in patch.edits:
        if not shadow.mirrors(e.path.rsplit("/", 1)[-1]) or e.path == JSON_CONFIG:
            continue
        target = tree / e.path
        if e.new_text is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(e.new_text.encode("utf-8"))
    return tree


async def cold_base(
    shadow: ShadowTree, language: Language, python: str | None, timeout_s: float
) -> Results:
    """Diagnostics of the whole tree as it is (the shadow holds no overlay on disk here)."""
    return await run_cli(shadow.shadow_root, language, python, timeout_s, shadow.root)


async def run_cold_check(
    shadow: ShadowTree,
    patch: PreparedPatch,
    language: Language,
    python: str | None,
    base: Results,
    deadline: Deadline,
    candidate_config: tuple[str, CheckerScope],
) -> CheckReply:
    """Judge ``patch`` by a cold run on a patched copy of the shadow, against ``base``.

    ``candidate_config``: the generated configuration text and the scope under the patch.
    """
    config, scope = candidate_config
    scratch = shadow.shadow_root.parent / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    tree = write_candidate(shadow, patch, scratch, config)
    try:
        candidate = await run_cli(tree, language, python, deadline.left(), shadow.root)
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    edits = {e.path: e for e in patch.edits}
    deleted = {e.path for e in patch.edits if e.new_text is None}
    files = {rel for rel in shadow.files if language.is_source(rel)} - deleted
    files |= {e.path for e in patch.edits if language.is_source(e.path) and e.new_text is not None}
    files = {rel for rel in files if scope.covers(rel)}
    new = introduced_by_patch(base, candidate, edits, set(base) | set(candidate))
    return CheckReply(
        ok=not has_error(new),
        diagnostics=new,
        checked_files=sorted(files),
        timings_ms={"cold_ms": round((deadline.seconds - deadline.left()) * 1000, 1)},
    )

"""The cold path: patches that change the checker's configuration are judged by fresh runs.

A patch that changes the checker's settings (``[tool.pyright]``, ``pyrightconfig.json``) must be
judged with the settings it creates, which the warm server cannot take as an overlay. The
candidate is written to a temporary copy of the shadow (never the user's repository), with the
shadow's generated configuration rendered from the candidate's settings, and checked by the
language's cold CLI (``pyright``, ``tsc``) of the same version; the base comes from the same
CLI on the shadow itself and is cached until the tree or the environment moves. Slower, and
correct.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.check.diagnostics import has_error, introduced_by_patch, to_wire
from prewrite_daemon.checker import relocate

if TYPE_CHECKING:
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.languages.base import Scope
    from prewrite_daemon.limits import Deadline
    from prewrite_daemon.shadow.tree import ShadowTree

Results = dict[str, list[Diagnostic]]
ColdRun = Coroutine[Any, Any, dict[str, list[RawDiagnostic]]]
ColdCli = Callable[[Path, float], ColdRun]  # the language's cold CLI on a tree, with a deadline


async def run_cli(cli: ColdCli, tree: Path, timeout_s: float, real_root: Path) -> Results:
    """The language's cold CLI on ``tree``: wire diagnostics per root-relative path.

    Paths quoted in messages are rewritten from ``tree`` to ``real_root``.
    """
    results: Results = {}
    for rel, raws in (await cli(tree, timeout_s)).items():
        for raw in raws:
            d = to_wire(raw, rel)
            if d is not None:
                results.setdefault(rel, []).append(relocate(d, str(tree), str(real_root)))
    return results


def write_candidate(
    shadow: ShadowTree, patch: PreparedPatch, scratch: Path, config: str | None
) -> Path:
    """A copy of the shadow with every mirrored file of the patch applied.

    ``config`` is the shadow's generated configuration under the candidate's settings (None:
    the language generates none; its configuration files are mirrored and patched like sources).
    """
    tree = Path(tempfile.mkdtemp(prefix="candidate-", dir=scratch))
    shutil.copytree(shadow.shadow_root, tree, symlinks=True, dirs_exist_ok=True)
    if config is not None:
        (tree / shadow.config_name).write_text(config, encoding="utf-8")
    for e in patch.edits:
        generated = config is not None and e.path == shadow.config_name
        if not shadow.mirrors(e.path.rsplit("/", 1)[-1]) or generated:
            continue
        target = tree / e.path
        if e.new_text is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(e.new_text.encode("utf-8"))
    return tree


async def cold_base(shadow: ShadowTree, cli: ColdCli, timeout_s: float) -> Results:
    """Diagnostics of the whole tree as it is (the shadow holds no overlay on disk here)."""
    return await run_cli(cli, shadow.shadow_root, timeout_s, shadow.root)


async def run_cold_check(
    shadow: ShadowTree,
    patch: PreparedPatch,
    cli: ColdCli,
    base: Results,
    deadline: Deadline,
    candidate_config: tuple[str | None, Scope],
    is_source: Callable[[str], bool],
) -> CheckReply:
    """Judge ``patch`` by a cold run on a patched copy of the shadow, against ``base``.

    ``candidate_config``: the generated configuration text and the scope under the patch.
    """
    config, scope = candidate_config
    scratch = shadow.shadow_root.parent / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    tree = write_candidate(shadow, patch, scratch, config)
    try:
        candidate = await run_cli(cli, tree, deadline.left(), shadow.root)
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    edits = {e.path: e for e in patch.edits}
    deleted = {e.path for e in patch.edits if e.new_text is None}
    files = {rel for rel in shadow.files if is_source(rel)} - deleted
    files |= {e.path for e in patch.edits if is_source(e.path) and e.new_text is not None}
    files = {rel for rel in files if scope.covers(rel)}
    new = introduced_by_patch(base, candidate, edits, set(base) | set(candidate))
    return CheckReply(
        ok=not has_error(new),
        diagnostics=new,
        checked_files=sorted(files),
        timings_ms={"cold_ms": round((deadline.seconds - deadline.left()) * 1000, 1)},
    )

"""``prewrite hook``: a Claude Code ``PreToolUse`` hook that checks a Write / Edit / MultiEdit
before it touches disk.

The contract (Claude Code's hooks reference): a JSON object on stdin (``hook_event_name``,
``tool_name``, ``tool_input``, ``cwd``, ``session_id``, ``transcript_path``). Exit 0 lets the
tool run; stdout may then carry ``{"hookSpecificOutput": {"hookEventName": "PreToolUse",
"additionalContext": ...}}``, text the model reads. No ``permissionDecision`` is ever given on
that path, so the user's own permission rules still decide as without the hook. Exit 2 refuses
the call and the model reads stderr as the reason (``hook_answer`` builds both answers).

Only exit 2 refuses: any other exit — a traceback, a missing daemon, a killed process — lets the
edit through. So everything here is wrapped and every failure to check answers exit 2 with the
reason (fail closed). What does *not* refuse: a tool other than Write/Edit/MultiEdit, and a
file of an extension prewrite does not verify (README.md, ...): refusing those would make the
hook unusable; the model is told the file was not verified.

The workspace that judges the file is its repository's top or a root the user registered,
never one a patch could have made (``hook_root``); a file under neither is refused. Every read
is bounded and non-blocking (``prewrite.files``), every call has a deadline inside the hook's
own, and a watchdog refuses (exit 2) if the hook's deadline passes anyway (``hook_watchdog``):
Claude Code lets the edit through when it has to kill a hook.
"""

from __future__ import annotations

import sys
import threading
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from prewrite.admission import check_path_chars
from prewrite.client import REPLY_MARGIN_S, Client
from prewrite.errors import CheckTimeout, PrewriteError
from prewrite.files import read_stream
from prewrite.framing import MAX_FRAME_BYTES
from prewrite.hook_answer import (
    allow,
    refusal_or_note,
    refuse,
    suppressed,
    suppressions_refused,
)
from prewrite.hook_patch import INPUT_TYPES, build_change
from prewrite.hook_policy import judge, load_hook_config
from prewrite.hook_root import find_target, no_workspace_reason, registered_roots
from prewrite.hook_watchdog import WATCHDOG_MARGIN_S, Budget, Watchdog, hook_deadline_s
from prewrite.late import late_finding_lines

if TYPE_CHECKING:
    from collections.abc import Sequence

    from prewrite.hook_answer import Answer
    from prewrite.hook_patch import ToolInput
    from prewrite.hook_root import Target
    from prewrite.protocol import CheckReply, FileChange
    from prewrite.runtime import RuntimePaths

# The string rungs judge the text exactly as the tool will write it: the format rung is a
# mutation the hook cannot apply, so it runs apart, only to tell the model (never to refuse).
CHECK_RUNGS = ("parse", "lint", "typecheck")
REFUSED_SUPPRESSIONS = "suppressions"  # the failed rung of a workspace refusing suppressions
START_TIMEOUT_S = 20.0
HANDSHAKE_TIMEOUT_S = 10.0
MIN_CHECK_S = 1.0  # less left than this for the check itself: refuse rather than start it
WATCHDOG_REFUSAL = (
    "prewrite hook: no answer within the hook's deadline, so the edit is refused (the hook "
    "fails closed). Retry; if this repeats, tell the user (prewrite daemon status)."
)


class HookPayload(msgspec.Struct, frozen=True):
    """What Claude Code sends; ``tool_input`` is decoded by ``tool_name`` (other keys ignored)."""

    tool_name: str
    tool_input: msgspec.Raw
    hook_event_name: str = "PreToolUse"
    cwd: str = ""
    session_id: str = ""
    transcript_path: str = ""


@dataclass(frozen=True)
class _Run:
    """One hook run's settings: daemon start, runtime dir, registered roots, time left."""

    autostart: bool
    paths: RuntimePaths | None
    roots: Sequence[str]
    budget: Budget


def run_hook(
    stdin: bytes,
    *,
    autostart: bool = True,
    paths: RuntimePaths | None = None,
    roots: Sequence[str] = (),
    deadline_s: float | None = None,
) -> tuple[int, str, str]:
    """Answer one ``PreToolUse`` payload: (exit code, stdout, stderr). Never raises.

    ``autostart`` starts the daemon when none runs; ``paths`` names another runtime dir than
    the user's (``PREWRITE_RUNTIME_DIR``, else the default); ``roots`` are workspace roots the
    user registered for the hook (``hook_root``); every call fits in ``deadline_s`` (default:
    the hook's deadline, less the watchdog's margin).
    """
    seconds = hook_deadline_s() - WATCHDOG_MARGIN_S if deadline_s is None else deadline_s
    run = _Run(autostart, paths, roots, Budget(seconds))
    try:
        return _answer(stdin, run).as_tuple()
    except BaseException as exc:  # fail closed: whatever went wrong, the edit does not pass
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            return refuse("prewrite hook: interrupted; the edit was not checked").as_tuple()
        where = traceback.format_exception(exc)[-3:]
        return refuse(
            f"prewrite hook failed ({type(exc).__name__}: {exc}); the edit was not checked, "
            "so it is refused. Retry; if this repeats, tell the user.\n" + "".join(where)
        ).as_tuple()


def main(*, autostart: bool = True, roots: Sequence[str] = ()) -> int:
    """``prewrite hook``: stdin -> run_hook -> stdout, stderr, exit code — under the watchdog,
    which refuses (exit 2) if no answer is ready by the hook's deadline."""
    seconds = hook_deadline_s()
    with Watchdog(seconds, WATCHDOG_REFUSAL) as watchdog:
        try:  # bounded: a payload over the frame limit could not be checked anyway
            stdin = read_stream(sys.stdin.buffer, MAX_FRAME_BYTES, "the hook's input")
        except (OSError, PrewriteError) as exc:
            stdin = b""
            sys.stderr.write(f"prewrite hook: cannot read stdin: {exc}\n")
        code, out, err = run_hook(
            stdin, autostart=autostart, roots=roots, deadline_s=seconds - WATCHDOG_MARGIN_S
        )
        if not watchdog.claim():
            threading.Event().wait()  # the watchdog is answering and ending the process
    sys.stdout.write(out)
    sys.stderr.write(err)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def _answer(stdin: bytes, run: _Run) -> Answer:
    try:
        payload = msgspec.json.decode(stdin, type=HookPayload)
    except msgspec.DecodeError as exc:
        return refuse(f"prewrite hook: the hook input is not a PreToolUse payload: {exc}")
    kind = INPUT_TYPES.get(payload.tool_name)
    if payload.hook_event_name != "PreToolUse" or kind is None:
        return allow([])  # not a file edit: not ours to judge
    try:
        tool: ToolInput = msgspec.json.decode(payload.tool_input, type=kind)
    except msgspec.DecodeError as exc:
        return refuse(f"prewrite hook: unexpected {payload.tool_name} input: {exc}")
    try:  # before the path is resolved: a newline in it could forge lines in any answer
        check_path_chars(tool.file_path)
    except PrewriteError as exc:
        return refuse(f"prewrite hook refused this {payload.tool_name} [{exc.code}]: {exc}")
    target = find_target(tool.file_path, payload.cwd, registered_roots(run.roots))
    if target is None:
        return refuse(no_workspace_reason(tool.file_path))
    try:
        return _check(target, tool, payload.tool_name, run)
    except PrewriteError as exc:
        return refusal_or_note(exc, target, payload.tool_name)


def _check(target: Target, tool: ToolInput, tool_name: str, run: _Run) -> Answer:
    config = load_hook_config(target.root)
    change = build_change(target, tool)
    budget = run.budget
    with Client(
        autostart=run.autostart,
        paths=run.paths,
        start_timeout_s=min(START_TIMEOUT_S, budget.left()),
        call_timeout_s=min(HANDSHAKE_TIMEOUT_S, budget.left()),
    ) as client:
        timeout_s = _check_time(config.timeout_s, budget)
        reply = client.check(target.root, [change], timeout_s=timeout_s, rungs=CHECK_RUNGS)
        verdict = judge(reply, target.path, config.block)
        # told once, on whichever answer this is: an earlier edit's green was wrong
        late = [f"prewrite: {line}" for line in late_finding_lines(reply.late_findings)]
        if verdict.refuse or reply.failed_rung == REFUSED_SUPPRESSIONS:
            why = verdict.reason or suppressions_refused(reply)
            reason = f"prewrite refused this {tool_name} of {target.path}: {why}"
            return refuse("\n".join([reason, *late]))
        note = _format_note(client, target, change, reply, config.timeout_s, budget)
    return allow([*verdict.feedback, *suppressed(target, reply), *note, *late])


def _check_time(wanted_s: float, budget: Budget) -> float:
    """The check's timeout: the workspace's, cut to what the hook's deadline leaves (the client
    waits ``REPLY_MARGIN_S`` past it)."""
    left = budget.left() - REPLY_MARGIN_S
    if left < MIN_CHECK_S:
        raise CheckTimeout(
            "the hook's deadline leaves no time for the check (the daemon took it to start)"
        )
    return min(wanted_s, left)


def _format_note(
    client: Client,
    target: Target,
    change: FileChange,
    reply: CheckReply,
    timeout_s: float,
    budget: Budget,
) -> list[str]:
    """A line for the model when ruff format would write the file differently (not a refusal:
    the hook cannot change what the tool writes, and CI's format check will say it again)."""
    written = next((f.content for f in reply.files if f.path == target.path), None)
    if written is None:
        return []
    try:
        seconds = _check_time(timeout_s, budget)
        formatted = client.check(target.root, [change], timeout_s=seconds, rungs=["format"])
    except PrewriteError:
        return []  # advice only: a failure here must not turn an allowed edit into a refusal
    after = next((f.content for f in formatted.files if f.path == target.path), None)
    if formatted.failed_rung is not None or after is None or after == written:
        return []
    return [f"prewrite: ruff format would reformat {target.path}; consider formatting it."]

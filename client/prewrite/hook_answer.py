"""The hook's answer to Claude Code: let the edit through with feedback, or refuse it with a reason.

Exit 0 lets the tool run, with ``additionalContext`` (text the model reads) on stdout when there
is feedback; exit 2 refuses and the model reads stderr as the reason (``hook`` has the contract).
Here too is how the rest reads for the model: the suppression comments an edit adds and what
they hide, and a daemon error in the hook's terms — an unverifiable file passes with a note,
every other error refuses, with a hint of what to do when the daemon's code has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import (
    DaemonUnavailable,
    DaemonUnresponsive,
    PathOutsideWorkspace,
    UnverifiableExtension,
)
from prewrite.suppression_text import suppression_lines

if TYPE_CHECKING:
    from prewrite.errors import PrewriteError
    from prewrite.hook_root import Target
    from prewrite.protocol import CheckReply

EXIT_ALLOW, EXIT_REFUSE = 0, 2


@dataclass(frozen=True)
class Answer:
    """The hook's answer as a process: exit code, stdout, stderr."""

    code: int
    stdout: str = ""
    stderr: str = ""

    def as_tuple(self) -> tuple[int, str, str]:
        return self.code, self.stdout, self.stderr


def allow(feedback: list[str]) -> Answer:
    if not feedback:
        return Answer(EXIT_ALLOW)
    output = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": "\n".join(feedback),
        }
    }
    return Answer(EXIT_ALLOW, msgspec.json.encode(output).decode() + "\n")


def refuse(reason: str) -> Answer:
    return Answer(EXIT_REFUSE, stderr=reason.rstrip("\n") + "\n")


def suppressed(target: Target, reply: CheckReply) -> list[str]:
    """The suppression comments the edit adds and what each hides, for the model."""
    lines = suppression_lines(reply.suppressions)
    if not lines:
        return []
    head = f"prewrite: this edit of {target.path} is allowed, but it suppresses:"
    return [head, *(f"  {line}" for line in lines)]


def suppressions_refused(reply: CheckReply) -> str:
    """Why an edit the workspace refuses for its suppressions is refused under ``block =
    "never"`` too: the workspace asked for it by name."""
    lines = suppression_lines(reply.suppressions)
    head = 'it adds suppression comments, and [tool.prewrite] suppressions = "refuse":'
    return "\n".join([head, *(f"  {line}" for line in lines)])


def refusal_or_note(exc: PrewriteError, target: Target, tool_name: str) -> Answer:
    """The daemon's refusal, in the hook's terms. Unverifiable files pass with a note; every
    other error refuses (a forbidden path, an edit that does not anchor, a failed check)."""
    if isinstance(exc, UnverifiableExtension | PathOutsideWorkspace):
        return allow([f"prewrite: {target.path} not verified ({exc.code}: {exc.message})."])
    head = f"prewrite refused this {tool_name} of {target.path} [{exc.code}]"
    hint = _HINTS.get(exc.code)
    if hint is not None:
        return refuse(f"{head}: {hint}\n{exc}")
    if isinstance(exc, DaemonUnavailable | DaemonUnresponsive):
        return refuse(
            f"{head}: the edit could not be checked, so it is refused (the hook fails closed).\n"
            f"{exc}\nStart the daemon with `prewrite daemon start`, or remove the hook."
        )
    return refuse(f"{head}:\n{exc}")


# What the model should do about a refusal the daemon explains in its own terms ("find" is the
# tool's old_string).
_HINTS = {
    "find_ambiguous": "old_string occurs more than once; include more surrounding lines to "
    "make it unique, or set replace_all.",
    "find_mismatch": "old_string is not in the file; re-read the file. The closest lines:",
    "stale_base": "the file changed on disk while it was checked; re-read it and retry.",
    "forbidden_path": "prewrite's policy forbids editing this path; leave it to the user.",
    "protected_snippet": "the edit removes text the workspace protects; keep it in the file.",
    "input_too_large": "the edit is over prewrite's input limits (named below); make smaller "
    "edits, or tell the user.",
    "unreadable_file": "a file prewrite must read to judge this edit is not a regular file "
    "(a FIFO, a device, a directory) or is too large, so it was refused unread; tell the user.",
}

"""The ``prewrite`` command's exit status: what each code says happened, to the disk above all.

One table, used by the commands and shown by ``--help``: a script (or an agent) branches on the
code alone and knows whether its files changed. 0, 1 and 2 keep the meaning compilers and
linters give them (ok, findings, could not run); ``apply`` adds 3 for the one case where the
disk holds the patch although something failed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite.protocol import ApplyReply

EXIT_OK = 0  # the patch is good (and, for apply, written; the tests passed or were skipped)
EXIT_REFUSED = 1  # a rung found an error the patch introduces: nothing is written
EXIT_ERROR = 2  # the command could not do its work: bad input, no daemon, a refusal, ...
EXIT_WRITTEN_FAILED = 3  # apply wrote every file, then the tests (or a finish rung) failed

CHECK_EXITS = """\
exit status of check (check never writes):
  0  ok: the patch introduces no error
  1  refused: the patch introduces an error (the diagnostics above say where)
  2  error: the check could not be done: bad patch JSON, stale base, an edit's find matching
     nowhere or twice, a refused path, timeout, no daemon, ...
"""

APPLY_EXITS = """\
exit status of apply, by what happened to the disk:
  0  ok: written; the tests passed or were skipped
  1  refused: the patch introduces an error; nothing written
  2  error: not applied (as check's 2, or a write that failed and was undone); nothing written
  3  written, then the tests (or a --finish rung) failed: the files hold the patch
  Skipped tests say why (an untrusted workspace, no test imports the change, ...). With
  [tool.prewrite] rollback_on_fail, failing tests put the files back: exit 1. Only when the
  daemon stops answering mid-apply (timeout, daemon_unresponsive, connection_lost: exit 2)
  may the files have been written: look at them.
"""

JSON_ON_EXIT = """\
--json prints one JSON object on every exit: the reply's fields (without the files' text
unless --contents), or {"error": {"code": ..., "message": ..., "details": [...]}} with exit 2.
"""


def apply_exit(reply: ApplyReply) -> int:
    """The exit status of an answered ``apply`` (``APPLY_EXITS``)."""
    if reply.ok:
        return EXIT_OK
    if not reply.written or reply.rolled_back:
        return EXIT_REFUSED
    return EXIT_WRITTEN_FAILED

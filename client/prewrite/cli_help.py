"""The ``prewrite`` command's longer help texts: the patch format, the ladder, the output, and
(from ``cli_exits``) the exit codes, shown by ``check --help`` and ``apply --help``."""

from __future__ import annotations

from prewrite.cli_exits import APPLY_EXITS, CHECK_EXITS, JSON_ON_EXIT

DESCRIPTION = "Check a multi-file patch in a warm type checker before it touches disk."
JSON_HELP = 'print one JSON object, errors too: {"error": {"code", "message", "details"}}'
STATUS = "show the daemon and its workspaces (checker, trusted or not); never starts it"

PATCH = """\
the patch (JSON, paths relative to --root):
  {"changes": [
    {"path": "pkg/a.py", "base_sha256": "<sha256 of the bytes on disk>", "content": "<new>"},
    {"path": "pkg/b.py", "base_sha256": "<sha256>", "edits": [{"find": "<exact text>",
                                                             "replace": "<new text>"}]},
    {"path": "pkg/new.py", "base_sha256": null, "content": "..."},
    {"path": "pkg/old.py", "base_sha256": "<sha256>", "delete": true}]}
  A base_sha256 that does not match the disk fails the whole check (stale_base). An edit's
  "find" must anchor to exactly one place of the real file (find_mismatch / find_ambiguous).
  base_sha256 may be left out (as MCP and the hook allow): with "edits" it means the file on
  disk now (the finds anchor them); with "content" on a new path, a new file; a rewrite or
  delete of an existing file needs it (bad_request).
  --diff FILE|- takes a unified diff instead (git diff, diff -u, diff -ruN): applied here to
  the files as they are now, exactly (a hunk that does not match is find_mismatch), it becomes
  their full contents with the base_sha256 of what was read; binary patches are refused.

the ladder, cheapest first, stopping at the first failure: policy (forbidden_path,
  unverifiable_extension) -> anchor -> parse -> format (ruff format; prettier or biome for
  JS/TS; a mutation) -> lint (ruff check; eslint or biome; new findings only) -> typecheck
  (pyright or mypy; tsc) -> review (the workspace's reviewer command, if it names one),
  configured by the workspace's [tool.prewrite]; --rungs runs a subset (policy and anchor
  always run).

output: only the diagnostics the patch introduces, as path:line:col: severity: message [rule]
  (a message's further lines indented below it), then prewrite: lines about the run. The
  daemon starts on first use.
"""
PATCH_AND_EXITS = "\n".join((PATCH, CHECK_EXITS, APPLY_EXITS, JSON_ON_EXIT))
CHECK_EPILOG = "\n".join((PATCH, CHECK_EXITS, JSON_ON_EXIT))
APPLY_EPILOG = "\n".join((PATCH, APPLY_EXITS, JSON_ON_EXIT))

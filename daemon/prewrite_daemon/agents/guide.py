"""What a model reads: the server's instructions, each tool's description, and per error code
what it means and what to do about it.

Written for a model that has never heard of prewrite: a tool description is its whole manual.
The hints are keyed by the stable codes of ``prewrite.errors``; a test checks that every code
has one, so a new error class cannot reach a model unexplained.
"""

from __future__ import annotations

INSTRUCTIONS = """\
prewrite checks a multi-file patch (Python, TypeScript / JavaScript, and the configuration and \
text files beside them) BEFORE it touches disk: it applies the patch in memory, parses it, \
formats and lints it with the workspace's tools (ruff; prettier, eslint or biome), type-checks \
it with a warm checker (pyright or mypy; TypeScript's tsc), and reports only the problems the \
patch introduced (also in files the patch does not touch but that import what it changed). \
Use `check` to validate a change, `apply` to validate and then write it all-or-nothing, \
`status` to see the daemon and its workspaces."""

PATCH_GUIDE = """\
A patch is a list of `changes`, one per file, each with a `path` relative to the workspace \
root and exactly one of:
- `edits`: anchored find/replace pairs, applied in order. Each `find` must occur EXACTLY ONCE \
in the file's real text (copy it verbatim, with its indentation; a few surrounding lines make \
it unique); it is replaced by `replace`. Preferred for changing existing files.
- `content`: the file's complete new text (for a new file, or a full rewrite).
- `delete`: true, to remove the file.
`base_sha256` is the hex SHA-256 of the file's bytes on disk as you saw them, or null for a \
file that must not exist yet. It protects against overwriting changes made after you read the \
file. You may OMIT it: with `edits` it then means "the file as it is on disk now" (safe: \
`find` anchors to the real text, so an edit meant for other text fails with find_mismatch); \
with `content` on a path that does not exist it means a new file; a full rewrite or delete of \
an existing file needs the real hash (`sha256sum PATH`, or the `sha256` of that file in an \
earlier prewrite answer), because nothing else proves what you are replacing.
`root` is the workspace root (absolute path); omitted, the server's default workspace."""

RESULT_GUIDE = """\
The answer: `ok` (true: the patch introduces no error), `failed_rung` (the first rung that \
failed: parse, format, lint, typecheck, suppressions or review; null when all passed), \
`diagnostics` (only what the patch introduced: path:line:col: severity: message [rule]), \
`suppressions` (each suppression comment the patch adds, with what it hides: remove it and fix \
the error instead), `rungs` (each rung's outcome: \
pass, fail, off, skipped), `files` (each file as it would be written, formatted, with \
its sha256), and the receipt `verified` / `not_verified` (what was and was not checked). \
A refusal (bad patch, stale base, timeout, ...) is a tool error whose text starts with its \
code and says what to do; a refusal is never a pass."""

STATUS = """\
The prewrite daemon's state: its pid, version and uptime, and for each workspace its root, \
interpreter, checker, whether the user trusts it to run its own code (tests, its own tools), \
checker state and how many checks it ran. Takes no arguments."""

ROOT = "Absolute path of the workspace (repository) root. Omitted: the server's default."
CHANGES = "The patch: one entry per file (see the tool description)."
PATH = "File path relative to the workspace root, e.g. 'pkg/models.py'. No '..', not absolute."
BASE = (
    "Hex SHA-256 of the file's bytes on disk as you saw them; null for a new file. May be "
    "omitted for `edits` (then: the file as it is on disk now) and for a new file's `content`."
)
CONTENT = "The file's complete new text (exclusive with `edits` and `delete`)."
EDITS = "Anchored find/replace pairs applied in order (exclusive with `content` and `delete`)."
DELETE = "True to delete the file (exclusive with `content` and `edits`)."
FIND = "Text that occurs exactly once in the file (verbatim, indentation included)."
REPLACE = "The text that replaces `find`; empty to delete it."
RUNGS = (
    "Run only these rungs (parse, format, lint, typecheck, review; and tests for apply). "
    "Omitted: every rung the workspace enables. Policy and anchoring always run."
)
INTENT = (
    "What the patch is meant to do, in a sentence or two. A workspace that names a reviewer "
    "has it judge the patch against this; a refutation names its ground and evidence."
)
PYTHON = (
    "The interpreter whose installed packages the type checker resolves. Omitted: the root's "
    ".venv/bin/python or venv/bin/python, else python3."
)
TIMEOUT = "Seconds the daemon may spend on this request (queueing and checker start included)."
CONTENTS = "False: return files by path and sha256 only, without their text (smaller answers)."
FINISH = "Also run the workspace's once-at-the-end commands ([tool.prewrite] finish)."

# Per stable error code: what it means, then what to do. Keyed by ``PrewriteError.code``.
ERROR_HINTS: dict[str, str] = {
    "unreadable_file": "A file prewrite must read to judge the patch (a configuration, a "
    "manifest, or the file you edit) is not a regular file (a FIFO, a device, a directory) or is "
    "too large, so it was refused unread. Do not retry; tell the user which file (details name "
    "it).",
    "bad_request": "The patch is malformed (e.g. a change with none or several of content/"
    "edits/delete, a path given twice, an empty find, a rewrite without base_sha256, a path "
    "with a control character such as a newline). Fix the "
    "patch as the message says and send it again.",
    "version_mismatch": "The prewrite client and daemon are different versions. Ask the user to "
    "restart the daemon (`prewrite daemon stop`); retrying will not help.",
    "input_too_large": "The patch is over one of prewrite's input limits (the message names it "
    "and the size: text per patch or per file, files per patch, the size of a Python file). "
    "Split it into smaller patches or smaller edits; a file that large is the user's call.",
    "frame_too_large": "The patch or its answer is too large for one message. Split the patch, "
    "or pass return_contents=false.",
    "invalid_workspace": "The root is not an existing directory. Pass the absolute path of the "
    "repository root as `root`.",
    "path_outside_workspace": "A path resolves outside the workspace root ('..', absolute, or "
    "through a symlink). Use paths relative to the root, inside it.",
    "forbidden_path": "The workspace's policy refuses this path or change (.git, .github, .env, "
    "keys, lock files, dependency lists, [tool.prewrite]). Do not work around it; ask the user.",
    "unverifiable_extension": "prewrite cannot verify this kind of file, so it refuses it (fail "
    "closed). Leave it out of the patch and tell the user it must be changed another way.",
    "find_mismatch": "An edit's `find` text does not occur in the file; the details show the "
    "closest real lines. Re-read the file and copy the text exactly (indentation, quotes), "
    "then send the edit again.",
    "find_ambiguous": "An edit's `find` text occurs several times; the details list every site. "
    "Include neighbouring lines in `find` so it occurs exactly once.",
    "protected_snippet": "The patch removes text the workspace protects ([tool.prewrite] "
    "protect: e.g. an analytics loader), or deletes the file holding it; the details name the "
    "file and the text. Keep that text in the file; only the user can change the rule.",
    "stale_base": "The file on disk is not the one your base_sha256 names (it changed since you "
    "read it, or it exists although base_sha256 is null, or it is gone). Re-read the file, "
    "redo the change against its current text, and send the SHA-256 of the bytes you read "
    "(prewrite never tells you a file's hash you did not send: read the file).",
    "stale_environment": "The workspace's configuration or installed packages kept changing "
    "during the check. Retry in a few seconds.",
    "write_failed": "apply could not write the files (disk full, permissions); nothing was "
    "written. Tell the user.",
    "backend_failed": "The type checker could not start or crashed. Retry once; if it fails "
    "again, tell the user (the daemon log has the reason).",
    "timeout": "No verdict within timeout_s; this is NOT a pass. Retry with a larger "
    "timeout_s, or a smaller patch.",
    "busy": "Too many checks are queued for this workspace. Retry in a few seconds.",
    "state_dir_unwritable": "The daemon cannot write its state directory (named in the "
    "message). Tell the user; retrying will not help.",
    "untrusted_workspace": "This needs to run the workspace's own code, and the user has not "
    "trusted the workspace. Ask the user to run `prewrite trust ROOT`.",
    "internal_error": "prewrite failed unexpectedly (the daemon log has the traceback). Retry "
    "once; if it fails again, tell the user.",
    "daemon_unavailable": "No prewrite daemon runs and none could be started. Ask the user to "
    "run `prewrite daemon start` (or install prewrite[daemon]).",
    "connection_lost": "The daemon went away while answering. Retry; it is started again.",
    "daemon_unresponsive": "The daemon did not answer in time (hung or overloaded). Retry "
    "later; if it persists, ask the user to run `prewrite daemon stop`.",
}

ERRORS_GUIDE = "Errors (code: meaning, what to do):\n" + "\n".join(
    f"- {code}: {hint}" for code, hint in ERROR_HINTS.items()
)

CHECK = f"""\
Validate a patch without writing anything: policy, anchoring, parse, format, lint and type \
check (each with the workspace's own tools), on in-memory copies. Use it before writing code \
to disk, and after fixing what it reported, until `ok` is true.

{PATCH_GUIDE}

`rungs` runs only part of the ladder, e.g. ["typecheck"] for the type verdict alone or \
["parse", "lint"]; policy and anchoring always run; the receipt lists what was skipped.

{RESULT_GUIDE}

{ERRORS_GUIDE}"""

APPLY = f"""\
Validate a patch exactly like `check`, and only if every rung passes, write it to disk \
all-or-nothing (no file is written when any check fails), then run the disk rungs (pytest on \
the test modules that import the changed code; with `finish`, the workspace's once-at-the-end \
commands). The answer has `ok` (checks and disk rungs passed), `check` (the check answer), \
`written` (the files written, with their sha256: use it as base_sha256 for your next change \
of that file), `disk` (each disk rung's outcome and failing tests) and `rolled_back`.

{PATCH_GUIDE}

{RESULT_GUIDE} Errors are the codes listed in `check`'s description; each error \
result also says what to do."""

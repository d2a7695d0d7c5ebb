"""Issue 20: the agent-facing inputs under generated traffic, as the frame decoders are fuzzed.

- The hook's stdin (``prewrite.hook.run_hook``): random JSON shapes, wrong types, payloads of
  every tool with generated paths (control characters, outside any repository, relative, huge)
  and texts (huge, past the limits), and raw bytes. Always a decision — exit 0 or a refusal,
  exit 2 — with a typed reason, never a traceback or the hook's catch-all, within its deadline.
  No daemon runs (``autostart`` off, an empty runtime dir): a payload that reaches the check is
  refused as ``daemon_unavailable``, which is a decision too.
- The MCP tools' arguments (``agents.inputs``): random argument dicts through the tool's own
  schema, then ``to_file_changes``: a schema error (pydantic's, which the SDK reports) or one of
  ours, never anything else; each of ours renders as a tool error.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from prewrite.admission import MAX_FILE_BYTES
from prewrite.errors import ERROR_CLASSES, PrewriteError
from prewrite.hook import run_hook
from prewrite.hook_answer import EXIT_ALLOW, EXIT_REFUSE
from prewrite.runtime import RuntimePaths
from prewrite_daemon.agents.answers import error_result
from prewrite_daemon.agents.inputs import ChangeInput, resolve_root, to_file_changes
from tests.fuzz.bounds import bounded

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = [pytest.mark.fuzz, pytest.mark.timeout(600)]

DEADLINE_S = 20.0
BIG = "x" * (MAX_FILE_BYTES + 1)
MANY_LINES = "a = 1\n" * 200_000

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=15,
)
paths = st.sampled_from(
    [
        "a.py",
        "new.py",
        "pkg/b.py",
        "notes.md",
        "../outside.py",
        "/etc/passwd",
        "",
        ".",
        ".git/config",
    ]
) | st.text(max_size=40).filter(lambda p: "\x00" not in p or len(p) > 0)
texts = st.text(max_size=60) | st.sampled_from([BIG, MANY_LINES, "a = 1\n", "", "\r\n", "\u2028"])


@st.composite
def tool_inputs(draw: st.DrawFn, file_path: str) -> tuple[str, object]:
    tool = draw(st.sampled_from(["Write", "Edit", "MultiEdit", "Read", "Bash"]))
    if draw(st.integers(0, 9)) == 0:  # the wrong shape for the tool
        return tool, draw(json_values)
    if tool == "Write":
        return tool, {"file_path": file_path, "content": draw(texts)}
    item = {
        "old_string": draw(texts),
        "new_string": draw(texts),
        "replace_all": draw(st.booleans()),
    }
    if tool == "MultiEdit":
        return tool, {"file_path": file_path, "edits": [item] * draw(st.integers(0, 3))}
    return tool, {"file_path": file_path, **item}


@st.composite
def payloads(draw: st.DrawFn, root: Path) -> bytes:
    shape = draw(st.sampled_from(["tool", "tool", "tool", "json", "bytes", "cut"]))
    if shape == "bytes":
        return draw(st.binary(max_size=200))
    if shape == "json":
        return json.dumps(draw(json_values)).encode()
    rel = draw(paths)
    file_path = str(root / rel) if draw(st.booleans()) and rel else rel
    name, tool_input = draw(tool_inputs(file_path))
    payload: dict[str, object] = {
        "hook_event_name": draw(st.sampled_from(["PreToolUse", "PreToolUse", "PostToolUse"])),
        "tool_name": name,
        "tool_input": tool_input,
        "cwd": draw(st.sampled_from([str(root), "", "/", "relative"])),
        "session_id": "s",
    }
    data = json.dumps(payload).encode()
    return data[: draw(st.integers(0, len(data)))] if shape == "cut" else data


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hookfuzz").resolve()
    (root / ".git").mkdir()
    (root / "pkg").mkdir()
    (root / "a.py").write_text("a = 1\n" * 3 + "b = 2\n")
    (root / "pkg" / "b.py").write_text("x = 1\r\ny = 2\r\n")
    (root / "notes.md").write_text(MANY_LINES)
    return root


@bounded(300)
@given(data=st.data())
def test_the_hook_always_decides_with_a_typed_reason(
    data: st.DataObject, hook_repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    stdin = data.draw(payloads(hook_repo))
    nobody = RuntimePaths(tmp_path_factory.getbasetemp() / "no-daemon")
    before = {p: p.read_bytes() for p in hook_repo.rglob("*") if p.is_file()}
    started = time.monotonic()
    code, out, err = run_hook(stdin, autostart=False, paths=nobody, deadline_s=DEADLINE_S)
    assert time.monotonic() - started < DEADLINE_S
    assert code in (EXIT_ALLOW, EXIT_REFUSE)
    assert "Traceback" not in err
    assert "prewrite hook failed" not in err, err  # the catch-all: an unexpected exception
    if code == EXIT_ALLOW and out:
        assert msgspec.json.decode(out)["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    if code == EXIT_REFUSE:
        assert err.strip()
    assert {p: p.read_bytes() for p in hook_repo.rglob("*") if p.is_file()} == before


# --- MCP inputs ---------------------------------------------------------------------------------


@st.composite
def change_arguments(draw: st.DrawFn) -> object:
    """One element of the tool's ``changes``: near the schema, or anything at all."""
    if draw(st.integers(0, 4)) == 0:
        return draw(json_values)
    change: dict[str, object] = {"path": draw(paths)}
    for key, values in (
        ("base_sha256", st.none() | st.text(max_size=64) | st.just("0" * 64)),
        ("content", texts | json_values),
        (
            "edits",
            st.lists(st.fixed_dictionaries({"find": texts, "replace": texts}), max_size=3)
            | json_values,
        ),
        ("delete", st.booleans() | json_values),
        ("extra", json_values),
    ):
        if draw(st.integers(0, 2)) == 0:
            change[key] = draw(values)
    return change


@bounded(300)
@given(arguments=st.lists(change_arguments(), max_size=4), root=st.none() | paths)
def test_mcp_arguments_become_changes_or_typed_errors(
    arguments: list[object], root: str | None, hook_repo: Path
) -> None:
    try:
        changes = [ChangeInput.model_validate(a) for a in arguments]
    except ValidationError:
        return  # the SDK's schema error: a tool error naming the field
    refused: PrewriteError | None = None
    try:
        wire = to_file_changes(resolve_root(root, hook_repo), changes)
    except PrewriteError as exc:
        refused, wire = exc, []
    if refused is None:
        assert [c.path for c in wire] == [c.path for c in changes]
    else:
        assert refused.code in ERROR_CLASSES
        assert error_result(refused).is_error

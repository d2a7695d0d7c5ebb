"""The relay's record of an editor session: framing, incremental edits in UTF-16, the replay."""

from __future__ import annotations

import json
from typing import Any

from prewrite.lsp_replay import REPLAYED_ID, FrameReader, SessionRecord, apply_change, frame


def msg(method: str, params: Any, id_: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if id_ is not None:
        out["id"] = id_
    return out


def test_frames_split_across_chunks_are_reassembled() -> None:
    data = frame(msg("a", {})) + frame(msg("b", {"x": "é"}))
    reader = FrameReader()
    got = [m for i in range(len(data)) for _raw, m in reader.feed(data[i : i + 1])]
    assert [m["method"] for m in got if m] == ["a", "b"]


def test_incremental_changes_count_utf16_units_and_any_line_break() -> None:
    text = "a😀b\r\nsecond\rthird\n"
    at = {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 4}}
    assert apply_change(text, {"range": at, "text": "B"}) == "a😀B\r\nsecond\rthird\n"
    at = {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 5}}
    assert apply_change(text, {"range": at, "text": "3rd"}) == "a😀b\r\nsecond\r3rd\n"
    assert apply_change(text, {"text": "whole"}) == "whole"


def test_the_replay_is_initialize_then_documents_then_unanswered_requests() -> None:
    record = SessionRecord()
    init = msg("initialize", {"rootUri": "file:///r"}, 1)
    record.from_editor(frame(init), init)
    record.from_daemon({"jsonrpc": "2.0", "id": 1, "result": {}})
    record.from_editor(b"", msg("initialized", {}))
    doc = {"uri": "file:///r/a.py", "languageId": "python", "version": 1, "text": "x = 1\n"}
    record.from_editor(b"", msg("textDocument/didOpen", {"textDocument": doc}))
    change = {"textDocument": {"uri": doc["uri"], "version": 2}, "contentChanges": [{"text": "x"}]}
    record.from_editor(b"", msg("textDocument/didChange", change))
    hover = msg("textDocument/hover", {"textDocument": {"uri": doc["uri"]}}, 7)
    record.from_editor(frame(hover), hover)
    (replayed,) = record.replay()
    assert f'"id":"{REPLAYED_ID}"' in replayed.decode()
    assert not record.from_daemon({"jsonrpc": "2.0", "id": REPLAYED_ID, "result": {}})
    rest = [json.loads(f.split(b"\r\n\r\n", 1)[1]) for f in record.after_initialize()]
    assert [m["method"] for m in rest] == [
        "initialized",
        "textDocument/didOpen",
        "textDocument/hover",
    ]
    assert rest[1]["params"]["textDocument"]["text"] == "x"
    assert rest[1]["params"]["textDocument"]["version"] == 2

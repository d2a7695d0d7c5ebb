"""Editor sessions' pure parts: path mapping both ways, capabilities cut to the checker's."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from prewrite_daemon.editor.protocol import offered
from prewrite_daemon.editor.uris import PathMap

MAP = PathMap(Path("/home/u/repo"), Path("/state/shadows/ab12"))


def test_uris_and_paths_are_mapped_everywhere_in_a_message() -> None:
    edit = {
        "changes": {
            "file:///home/u/repo/a.py": [{"newText": "x"}],
            "file:///home/u/repo/pkg/b.py": [],
        },
        "documentChanges": [{"textDocument": {"uri": "file:///home/u/repo/a.py"}}],
        "message": 'Import cycle: "/home/u/repo/a.py" -> "/home/u/repo/pkg/b.py"',
    }
    shadow = MAP.to_shadow(edit)
    assert set(shadow["changes"]) == {
        "file:///state/shadows/ab12/a.py",
        "file:///state/shadows/ab12/pkg/b.py",
    }
    assert shadow["documentChanges"][0]["textDocument"]["uri"] == "file:///state/shadows/ab12/a.py"
    assert "/state/shadows/ab12/pkg/b.py" in shadow["message"]
    assert MAP.to_real(shadow) == edit


def test_only_the_whole_root_is_mapped() -> None:
    assert MAP.to_shadow("/home/u/repository/a.py") == "/home/u/repository/a.py"
    assert MAP.to_shadow("file:///home/u/repo2/a.py") == "file:///home/u/repo2/a.py"
    assert MAP.to_shadow("/home/u/repo") == "/state/shadows/ab12"
    assert MAP.to_real(["/usr/lib/python3/x.pyi", 3, None]) == ["/usr/lib/python3/x.pyi", 3, None]


def test_the_editor_is_offered_only_what_the_checker_offers() -> None:
    ours = types.InitializeResult(
        types.ServerCapabilities(
            hover_provider=True,
            folding_range_provider=True,
            completion_provider=types.CompletionOptions(trigger_characters=["."]),
        )
    )
    checker = types.ServerCapabilities(
        hover_provider=types.HoverOptions(),
        completion_provider=types.CompletionOptions(trigger_characters=[".", "["]),
    )
    cut = offered(ours, checker).capabilities
    assert cut.hover_provider is True
    assert cut.folding_range_provider is None  # the checker has none
    assert cut.completion_provider is not None
    assert cut.completion_provider.trigger_characters == [".", "["]
    assert offered(ours, None) is ours

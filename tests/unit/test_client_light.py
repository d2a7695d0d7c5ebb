"""``import prewrite`` loads only the standard library and msgspec: agents import it cheaply."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

ALLOWED_THIRD_PARTY = frozenset({"msgspec", "prewrite"})
DAEMON_SIDE = ("pygls", "lsprotocol", "cattrs", "attrs", "attr", "psutil", "watchfiles")

# Runs in a fresh interpreter: whatever site start-up loaded is subtracted, so only the modules
# that importing (and touching) the client pulled in are judged.
PROBE = """
import json, sys
before = set(sys.modules)
{statement}
print(json.dumps(sorted(set(sys.modules) - before)))
"""


# What msgspec itself loads when Structs are defined and decoders built (it uses
# typing_extensions when that happens to be installed): allowed, it is not our dependency.
MSGSPEC_ONLY = """
import msgspec
class S(msgspec.Struct, frozen=True, tag="s"):
    x: int | None = None
class T(msgspec.Struct, tag="t"):
    y: list[S]
msgspec.msgpack.Decoder(S | T)
msgspec.json.Decoder(T)
"""


def top_level(modules: list[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def loaded_by(statement: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(statement=statement)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    modules: list[str] = json.loads(result.stdout)
    return modules


@pytest.fixture(scope="module")
def msgspec_own() -> set[str]:
    return top_level(loaded_by(MSGSPEC_ONLY))


@pytest.mark.parametrize(
    "statement",
    [
        "import prewrite; prewrite.Client; prewrite.Patch; prewrite.change_file",
        "import prewrite.cli; prewrite.cli.build_parser().format_help()",
        "from prewrite import errors, framing, protocol, runtime, client",
        "import prewrite.hook",
    ],
    ids=["package", "cli", "submodules", "hook"],
)
def test_client_loads_only_stdlib_and_msgspec(statement: str, msgspec_own: set[str]) -> None:
    loaded = loaded_by(statement)
    assert "prewrite" in loaded  # the probe really imported something
    allowed = ALLOWED_THIRD_PARTY | msgspec_own
    foreign = sorted(top_level(loaded) - set(sys.stdlib_module_names) - allowed)
    assert foreign == []
    assert sorted(top_level(loaded) & set(DAEMON_SIDE)) == []
    assert [m for m in loaded if m.startswith("prewrite_daemon")] == []


def test_the_probe_would_see_a_heavy_import() -> None:
    """Guards the probe itself: a daemon-side import is visible in what it reports."""
    assert "pygls" in top_level(loaded_by("import prewrite, pygls"))

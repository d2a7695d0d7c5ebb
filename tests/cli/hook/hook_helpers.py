"""Shared by the ``prewrite hook`` tests: the temporary repository's files, the recorded Claude Code
``PreToolUse`` payloads under ``tests/data/hook/`` (``@ROOT@`` standing for the repository),
payloads built here, and the ``additionalContext`` the model reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "hook"

MODELS = """\
from dataclasses import dataclass


@dataclass
class User:
    name: str
    age: int


def make_user(name: str, age: int) -> User:
    return User(name, age)


def label(user: User) -> str:
    return user.name


def title(user: User) -> str:
    return user.name
"""

SERVICE = """\
from pkg.models import User, make_user


def greet(user: User) -> str:
    return "hi " + user.name


def build() -> str:
    return greet(make_user("a", 1))
"""

FILES = {
    # [tool.ruff] turns the format rung on (its note is tested); lint is on by default
    "pyproject.toml": "[project]\nname = 'shop'\nversion = '0'\n\n[tool.ruff]\nline-length = 100\n",
    "pkg/__init__.py": "",
    "pkg/models.py": MODELS,
    "pkg/service.py": SERVICE,
}


def recorded(name: str, root: Path) -> bytes:
    return (DATA / name).read_text().replace("@ROOT@", str(root)).encode()


def payload(root: Path, tool: str, **tool_input: Any) -> bytes:
    return json.dumps(
        {"hook_event_name": "PreToolUse", "cwd": str(root), "tool_name": tool,
         "tool_input": tool_input, "session_id": "s", "transcript_path": "/dev/null"}
    ).encode()  # fmt: skip


def context(stdout: str) -> str:
    """The ``additionalContext`` the model reads (the only hook-specific output used)."""
    output = json.loads(stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "PreToolUse"
    assert "permissionDecision" not in output  # the user's own permission rules still decide
    return output["additionalContext"]

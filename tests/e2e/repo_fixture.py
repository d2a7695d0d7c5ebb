"""A small repository with cross-module imports and one pre-existing error, for e2e tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

# These tests are about the type-check rung: the cheap string rungs stay out of their way.
FILES: dict[str, str] = {
    "pyproject.toml": "[tool.prewrite]\nlint = false\nformat = false\n",
    "pkg/__init__.py": "",
    "pkg/models.py": (
        "from dataclasses import dataclass\n"
        "\n"
        "\n"
        "@dataclass\n"
        "class User:\n"
        "    name: str\n"
        "    age: int\n"
        "\n"
        "\n"
        "def make_user(name: str, age: int) -> User:\n"
        "    return User(name, age)\n"
    ),
    "pkg/service.py": (
        "from pkg.models import User, make_user\n"
        "\n"
        "\n"
        "def greet(user: User) -> str:\n"
        '    return "hi " + user.name\n'
        "\n"
        "\n"
        "def build() -> str:\n"
        '    return greet(make_user("a", 1))\n'
    ),
    "pkg/legacy.py": (
        'def broken() -> int:\n    return "not an int"\n\n\ndef fine() -> int:\n    return 1\n'
    ),
    "pkg/util.py": "def helper(x: int) -> int:\n    return x * 2\n",
    "app.py": (
        "from pkg.service import build\nfrom pkg.util import helper\n\nprint(build(), helper(2))\n"
    ),
}


def write_repo(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root

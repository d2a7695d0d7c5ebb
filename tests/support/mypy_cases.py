"""Hand-written patches for the mypy differential test: what the generated kinds never make.

mypy's own ground: "unused type: ignore" errors (strict turns ``warn_unused_ignores`` on; dmypy's
fine-grained mode is known to drop them for files it re-checks in part), in the patched file and
in importers of it, direct or through a re-export; bare generics (an error under strict) in new
modules; changes to ``[tool.mypy]`` itself. The importer cases that httpx lacks are set up by a
small fixture package, ``pwfix``, written into the private copy before the daemon first sees it
(``add_fixture``). Some importer cases change what mypy sees only through a comment (a type
comment, a ``# mypy:`` line), which an AST comparison of the module does not notice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite.changes import change_file, delete_file, new_file
from tests.support.patchkit import GeneratedPatch

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import FileChange

FIXTURE: dict[str, str] = {
    "pwfix/__init__.py": '"""Fixture for the mypy differential test."""\n',
    "pwfix/source.py": (
        '"""Names the other fixture modules import; patches change them."""\n\n'
        "from collections import OrderedDict\n"
        "from typing import Any\n\n"
        "LIMIT = 10\n"
        "ANY_USED: Any = None\n\n\n"
        "def value() -> str:\n"
        '    return "prewrite"\n\n\n'
        "def table() -> OrderedDict[str, int]:\n"
        "    return OrderedDict()\n"
    ),
    "pwfix/relay.py": (
        '"""Re-exports ``value``: its text never changes."""\n\n'
        "from pwfix.source import value as got\n\n"
        '__all__ = ["got"]\n'
    ),
    "pwfix/user.py": (
        '"""Suppresses errors that only changes to ``source`` can make unused."""\n\n'
        "from pwfix.source import OrderedDict  # type: ignore[attr-defined]\n"
        "from pwfix.source import LIMIT, value\n\n"
        "COUNT: str = LIMIT  # type: ignore[assignment]\n"
        "NUMBER: int = value()  # type: ignore[assignment]\n"
        "TABLE = OrderedDict[str, int]()\n"
    ),
    "pwfix/chain.py": (
        '"""Imports ``value`` through ``relay`` only."""\n\n'
        "from pwfix.relay import got\n\n"
        "CHAINED: int = got()  # type: ignore[assignment]\n"
    ),
}

BARE_GENERIC = (
    '"""Added by a hand-written patch: a bare generic, an error under strict."""\n\n\n'
    "def pw_bare(items: list) -> None:\n"
    "    del items\n"
)
CLEAN_MODULE = (
    '"""Added by a hand-written patch: clean under strict."""\n\n\n'
    "def pw_clean(items: list[int]) -> int:\n"
    "    return len(items)\n"
)


def add_fixture(root: Path) -> None:
    """Write the ``pwfix`` package into a private copy (before any daemon reads it)."""
    for rel, text in FIXTURE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def _replace(root: Path, rel: str, old: str, new: str) -> FileChange:
    text = (root / rel).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{rel}: {old!r} occurs {text.count(old)} times"
    return change_file(root, rel, text.replace(old, new))


def _patch(name: str, *changes: FileChange) -> GeneratedPatch:
    return GeneratedPatch(name, name.split("[", 1)[0], changes)


# The verdict each hand-written kind is designed for: the oracle must agree before the daemon
# is compared with it (an oracle that ignores unused ignores or the settings cannot pass).
DESIGNED_RED: dict[str, bool] = {
    "ignore_unused_in_file": True,
    "ignore_unused_in_importer": True,
    "delete_module": True,
    "body_only": False,
    "bare_generic": True,
    "new_module_clean": False,
    "config_tighten": True,
    "config_relax": False,
    "config_relax_with_code": True,  # red under the settings before it (no allow_relaxation)
}


def hand_written(root: Path) -> list[GeneratedPatch]:
    """Every hand-written case, a settings change first (the daemon's base then comes from its
    cold path, and later warm checks are diffed against it)."""
    config = config_cases(root)
    return [config[0], *ignore_cases(root), *generic_cases(root), *config[1:]]


def ignore_cases(root: Path) -> list[GeneratedPatch]:
    """Edits that make a used ``# type: ignore`` unused, where it is and in importers."""
    source = "pwfix/source.py"
    return [
        # the patched file: the edit removes the error the ignore three lines below suppressed
        _patch(
            "ignore_unused_in_file[httpx/_models.py:Cookies.set]",
            _replace(
                root,
                "httpx/_models.py",
                "        kwargs = {\n",
                "        kwargs: dict[str, typing.Any] = {\n",
            ),
        ),
        _patch(
            "ignore_unused_in_file[httpx/_status_codes.py]",
            _replace(
                root,
                "httpx/_status_codes.py",
                "return codes(value).phrase",
                'return str(getattr(codes(value), "phrase"))',
            ),
        ),
        # importers through ``httpx/__init__.py``'s re-export: tests/test_content.py's ignores
        _patch(
            "ignore_unused_in_importer[httpx/_models.py:Request(content: Any)]",
            _replace(
                root,
                "httpx/_models.py",
                "content: RequestContent | None = None,",
                "content: typing.Any = None,",
            ),
        ),
        _patch(
            "ignore_unused_in_importer[pwfix/source.py:value() -> int]",
            _replace(
                root,
                source,
                'def value() -> str:\n    return "prewrite"',
                "def value() -> int:\n    return 1",
            ),
        ),
        # comment-only changes to what importers see
        _patch(
            "ignore_unused_in_importer[pwfix/source.py:type comment]",
            _replace(root, source, "LIMIT = 10\n", "LIMIT = 10  # type: Any\n"),
        ),
        _patch(
            "ignore_unused_in_importer[pwfix/source.py:# mypy: implicit-reexport]",
            _replace(root, source, '"""Names', '# mypy: implicit-reexport\n"""Names'),
        ),
        _patch("delete_module[pwfix/source.py]", delete_file(root, source)),
        # a body edit in a file holding used and unused ignores: nothing new
        _patch(
            "body_only[httpx/_models.py:Cookies.set]",
            _replace(
                root,
                "httpx/_models.py",
                "        cookie = Cookie(**kwargs)",
                "        assert kwargs\n        cookie = Cookie(**kwargs)",
            ),
        ),
    ]


def generic_cases(root: Path) -> list[GeneratedPatch]:
    """Bare generics in new modules (a package's, a new top-level one, an imported one)."""
    importer = "httpx/_api.py"
    return [
        _patch("bare_generic[httpx/_pw_bare.py]", new_file("httpx/_pw_bare.py", BARE_GENERIC)),
        _patch("bare_generic[pw_top_bare.py]", new_file("pw_top_bare.py", BARE_GENERIC)),
        _patch(
            "bare_generic[pwnew/__init__.py+pwnew/bare.py]",
            new_file("pwnew/__init__.py", ""),
            new_file("pwnew/bare.py", BARE_GENERIC),
        ),
        _patch(
            f"bare_generic[httpx/_pw_imported.py+{importer}]",
            new_file("httpx/_pw_imported.py", BARE_GENERIC),
            _replace(
                root,
                importer,
                "from ._client import Client\n",
                "from ._client import Client\nfrom ._pw_imported import pw_bare\n",
            ),
        ),
        _patch(
            "new_module_clean[httpx/_pw_clean.py]", new_file("httpx/_pw_clean.py", CLEAN_MODULE)
        ),
    ]


def config_cases(root: Path) -> list[GeneratedPatch]:
    """Changes to ``[tool.mypy]``: judged cold under the new settings (and warm under the old)."""
    pyproject = "pyproject.toml"
    relaxed = _replace(root, pyproject, "strict = true\n", "strict = false\n")
    return [
        _patch(
            "config_tighten[disallow_any_explicit]",
            _replace(
                root, pyproject, "strict = true\n", "strict = true\ndisallow_any_explicit = true\n"
            ),
        ),
        _patch("config_relax[strict = false]", relaxed),
        _patch(
            "config_relax_with_code[strict = false + httpx/_pw_relaxed.py]",
            relaxed,
            new_file("httpx/_pw_relaxed.py", BARE_GENERIC),
        ),
        _patch(
            "config_tighten[tests.* disallow_untyped_defs]",
            _replace(
                root, pyproject, "disallow_untyped_defs = false\n", "disallow_untyped_defs = true\n"
            ),
        ),
    ]

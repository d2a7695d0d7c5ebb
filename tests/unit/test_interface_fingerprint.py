"""The interface fingerprint (``interface_changed``): which edits leave a module's interface
unchanged and which change it, new, deleted and unparsable modules, and the shared parsed tree left
as it was.
"""

from __future__ import annotations

import ast

import pytest

from prewrite_daemon.languages.python.names.imports import interface_changed, interface_of
from prewrite_daemon.languages.python.syntax.parse_cache import parse_shared
from tests.unit.name_deps_helpers import src

ANNOTATED = """
    def f(x: int) -> int:
        y = x + 1
        return y
"""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            ANNOTATED,
            """
            def f(x: int) -> int:
                return x * 2 if x else -1
            """,
            id="annotated-body",
        ),
        pytest.param(
            """
            def f(x: int) -> int:
                \"\"\"Old words.\"\"\"
                return x
            """,
            """
            def f(x: int) -> int:
                \"\"\"New words, more of them.\"\"\"
                return x
            """,
            id="docstring-in-annotated",
        ),
        pytest.param(
            """
            def f() -> int:
                return 1
            x: int = "a"  # type: ignore
            """,
            """
            # a comment line shifts the ignore below
            def f() -> int:
                return 1

            x: int = "a"  # type: ignore
            """,
            id="type-ignore-line-shift",
        ),
        pytest.param(
            """
            class C:
                def m(self, n: int) -> str:
                    return str(n)
            """,
            """
            class C:
                def m(self, n: int) -> str:
                    other = C()
                    other.cache = n
                    return f"{n}"
            """,
            id="method-body-without-self-store",
        ),
        pytest.param(ANNOTATED, src(ANNOTATED) + "\n\n# trailing comment\n", id="comment"),
    ],
)
def test_interface_unchanged(old: str, new: str) -> None:
    assert interface_changed(src(old), src(new)) is False


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            """
            def f(x: int):
                return x
            """,
            """
            def f(x: int):
                return str(x)
            """,
            id="unannotated-return",
        ),
        pytest.param(
            """
            class C:
                def __init__(self) -> None:
                    self.x = 1
            """,
            """
            class C:
                def __init__(self) -> None:
                    self.x = "one"
            """,
            id="self-store-in-method",
        ),
        pytest.param(
            """
            class C:
                @classmethod
                def make(cls) -> None:
                    cls.count = 1
            """,
            """
            class C:
                @classmethod
                def make(cls) -> None:
                    cls.count = "1"
            """,
            id="cls-store-in-classmethod",
        ),
        pytest.param(
            """
            class C:
                def reset(self) -> None:
                    self.items: list[int] = []
            """,
            """
            class C:
                def reset(self) -> None:
                    self.items: list[str] = []
            """,
            id="annotated-self-store",
        ),
        pytest.param(
            """
            STATE = 0
            def bump() -> None:
                global STATE
                STATE = 1
            """,
            """
            STATE = 0
            def bump() -> None:
                global STATE
                STATE = "one"
            """,
            id="global",
        ),
        pytest.param(
            """
            class P:
                def run(self) -> int: ...
            """,
            """
            class P:
                def run(self) -> int:
                    return 1
            """,
            id="trivial-to-implemented",
        ),
        pytest.param(
            """
            def f() -> int:
                raise NotImplementedError
            """,
            """
            def f() -> int:
                return 1
            """,
            id="not-implemented-to-implemented",
        ),
        pytest.param(
            ANNOTATED,
            """
            def f(x: int, y: int = 0) -> int:
                return x
            """,
            id="signature",
        ),
        pytest.param(
            ANNOTATED,
            """
            def f(x: int) -> str:
                return str(x)
            """,
            id="return-annotation",
        ),
        pytest.param(
            ANNOTATED,
            """
            @staticmethod
            def f(x: int) -> int:
                return x
            """,
            id="decorator",
        ),
        pytest.param(ANNOTATED, "# pyright: strict\n" + src(ANNOTATED), id="pyright-strict"),
        pytest.param(ANNOTATED, src(ANNOTATED) + "\nEXTRA = 1\n", id="module-level-name"),
        pytest.param(ANNOTATED, src(ANNOTATED) + "\nimport os\n", id="module-level-import"),
        pytest.param(ANNOTATED, "def f(x: int) -> int:\n    return (\n", id="syntax-error"),
    ],
)
def test_interface_changed(old: str, new: str) -> None:
    assert interface_changed(src(old), src(new)) is True


def test_async_generator_becoming_a_coroutine_is_visible() -> None:
    """``async for x in items()`` breaks when ``items`` loses its ``yield`` (pyright agrees)."""
    head = "from collections.abc import AsyncIterator\n\n\n"
    old = head + "async def items() -> AsyncIterator[int]:\n    yield 1\n"
    new = head + "async def items() -> AsyncIterator[int]:\n    return other()\n"
    assert interface_changed(old, new) is True


def test_a_new_or_deleted_module_always_changes() -> None:
    assert interface_changed(None, src(ANNOTATED)) is True
    assert interface_changed(src(ANNOTATED), None) is True


def test_a_syntax_error_in_the_base_counts_as_changed() -> None:
    assert interface_changed("def f(:\n", src(ANNOTATED)) is True


def test_the_interface_leaves_the_shared_tree_as_parsed() -> None:
    """The blanked bodies are copies: the tree ``parse_cache`` shares keeps its bodies."""
    text = src(ANNOTATED)
    tree = parse_shared(text)
    assert tree is not None
    before = ast.dump(tree, include_attributes=True)
    assert interface_of(text) is not None
    assert ast.dump(tree, include_attributes=True) == before
    assert "implemented" not in before

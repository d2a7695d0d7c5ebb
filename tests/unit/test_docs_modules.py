"""``docs/modules.md`` names every module as its docstring describes it (regenerate with
``python -m tests.support.modules_doc``), and every module has a docstring to describe it."""

from __future__ import annotations

from tests.support.modules_doc import DOC, render


def test_the_module_list_is_current() -> None:
    assert DOC.read_text() == render(), "run: python -m tests.support.modules_doc"


def test_every_module_says_what_it_holds() -> None:
    assert "(no docstring)" not in render()

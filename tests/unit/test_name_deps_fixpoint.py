"""NameGraph.affected, the fixpoint: names whose own type follows a changed one (unannotated
helpers, type comments, unannotated variables and defaults, type aliases, ``self`` attributes).

Each test names the files whose pyright diagnostics can change and checks they are all kept.
"""

from __future__ import annotations

import pytest

from tests.unit.name_deps_helpers import M_SIG, M, affected, src


def test_an_unannotated_helper_two_hops_away() -> None:
    files = {
        "m.py": M,
        "n.py": "from m import f\ndef g():\n    return f(1)\n"
        "def g_typed() -> int:\n    return f(1)\n",
        "p.py": "from n import g\ndef h():\n    return g()\n",
        "q.py": "from p import h\nx: int = h()\n",
        "r.py": "from n import g_typed\nx: int = g_typed()\n",
    }
    new = "def f(x: int) -> str:\n    return ''\n\ndef other(x: int) -> int:\n    return x\n"
    assert affected(files, {"m.py": new}) == {"n.py", "p.py", "q.py"}


def test_a_signature_in_a_type_comment() -> None:
    files = {
        "m.py": "def f(x):\n    # type: (int) -> int\n    return x\n",
        "n.py": "from m import f\nf(1)\n",
        "types_.py": "Alias = int\n",
        "p.py": "from types_ import Alias\ndef g(x):\n    # type: (Alias) -> None\n    pass\n",
        "q.py": "from p import g\ng(1)\n",
    }
    new = "def f(x):\n    # type: (str) -> int\n    return x\n"
    assert affected(files, {"m.py": new}) == {"n.py"}
    assert affected(files, {"types_.py": "Alias = str\n"}) == {"p.py", "q.py"}


def test_an_unannotated_module_variable_and_a_default_value() -> None:
    files = {
        "m.py": M,
        "n.py": "from m import f\nVALUE = f(1)\ndef g(x=VALUE) -> None: ...\n",
        "p.py": "from n import VALUE\nprint(VALUE)\n",
        "q.py": "from n import g\ng()\n",
    }
    assert affected(files, {"m.py": M_SIG}) == {"n.py", "p.py", "q.py"}


@pytest.mark.parametrize(
    ("old", "new", "seen"),
    [
        ("X: int = 1\n", "X: int = 2\n", False),  # declared: the value is not the type
        ("X: Final = 1\n", "X: Final = 'a'\n", True),  # Final infers from the value
        ("X = 1\n", "X = 'a'\n", True),
        (
            "if sys.version_info >= (3, 8):\n    X = 1\n",
            "if sys.platform == 'win32':\n    X = 1\n",
            True,
        ),
    ],
)
def test_variables_and_the_guards_they_sit_under(old: str, new: str, seen: bool) -> None:
    head = "import sys\nfrom typing import Final\n"
    files = {"m.py": head + old, "user.py": "from m import X\nprint(X)\n"}
    assert ("user.py" in affected(files, {"m.py": head + new})) is seen


def test_a_changed_type_alias_changes_every_signature_that_names_it() -> None:
    files = {
        "types_.py": "Alias = int\n",
        "api.py": "from types_ import Alias\ndef call(x: Alias) -> None: ...\n",
        "user.py": "from api import call\ncall(1)\n",
        "bystander.py": "from api import call as _\nimport types_\n",
    }
    assert affected(files, {"types_.py": "Alias = str\n"}) == {"api.py", "user.py", "bystander.py"}


def test_self_attributes_inferred_from_a_method_body() -> None:
    files = {
        "m.py": M,
        "n.py": src("""
            from m import f
            class Box:
                def __init__(self) -> None:
                    self.amount = f(1)
                    self.label: str = "x"
        """),
        "p.py": "from n import Box\nBox().amount\n",
        "q.py": "from n import Box\nBox().label\n",
    }
    assert affected(files, {"m.py": M_SIG}) == {"n.py", "p.py"}

"""NameGraph.affected, the ways of spelling a name: every import form, relative imports,
module aliases, re-exports through a package ``__init__`` and star imports, local shadowing.

Each test names the files whose pyright diagnostics can change (worked out by hand from what
pyright infers) and checks they are all kept: the answer may be larger than the truth, never
smaller. Tests of precision check that files which cannot see a change are left out.
"""

from __future__ import annotations

import pytest

from tests.unit.name_deps_helpers import M_SIG, M, affected


@pytest.mark.parametrize(
    ("user", "sees"),
    [
        ("from pkg.m import f\nf(1)\n", True),
        ("from pkg.m import f as g\ng(1)\n", True),
        ("from pkg.m import f\n", True),  # the import alone: it fails when f goes
        ("from pkg.m import other\nother(1)\n", False),
        ("import pkg.m\npkg.m.f(1)\n", True),
        ("import pkg.m\npkg.m.other(1)\n", False),
        ("import pkg.m as mod\nmod.f(1)\n", True),
        ("import pkg.m as mod\nmod.other(1)\n", False),
        ("from pkg import m\nm.f(1)\n", True),
        ("from pkg import m\nm.other(1)\n", False),
        ("from pkg.m import *\nf(1)\n", True),
        ("import pkg.m as mod\ngetattr(mod, 'other')\n", True),  # the module as a value
        ("import pkg.m as mod\nprint(mod)\n", True),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.m import f\n", True),
        ("def g() -> None:\n    from pkg.m import f\n    f(1)\n", True),
        ("import pkg.m as mod\nx: 'mod.f'\n", True),  # a string: a forward reference
        ("import pkg.m as mod\nx = getattr(object(), 'f')\nprint(mod.other)\n", False),
    ],
)
def test_every_spelling_of_a_changed_name_is_seen(user: str, sees: bool) -> None:
    files = {"pkg/__init__.py": "", "pkg/m.py": M, "app/user.py": user}
    assert ("app/user.py" in affected(files, {"pkg/m.py": M_SIG})) is sees


def test_relative_imports_resolve_against_the_package() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": M,
        "pkg/a.py": "from .m import f\nf(1)\n",
        "pkg/b.py": "from . import m\nm.f(1)\n",
        "pkg/c.py": "from . import m\nm.other(1)\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/d.py": "from ..m import f\nf(1)\n",
    }
    assert affected(files, {"pkg/m.py": M_SIG}) == {"pkg/a.py", "pkg/b.py", "pkg/sub/d.py"}


def test_a_module_alias_passed_on_by_another_module() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": M,
        "f.py": "import pkg.m as mod\n",
        "g.py": "from f import mod\nmod.f(1)\n",
        "h.py": "from f import mod\nmod.other(1)\n",
        "i.py": "from f import mod\ngetattr(mod, 'other')\n",  # the module as a value
        "j.py": "import f\nprint(f.mod)\n",
        "k.py": "import f\ndef get():\n    return f\n",  # f as a value: f.mod.f differs
        "l.py": "from k import get\nget().mod.f(1)\n",
    }
    assert affected(files, {"pkg/m.py": M_SIG}) == {"g.py", "i.py", "j.py", "k.py", "l.py"}


def test_re_exports_through_the_package_init() -> None:
    files = {
        "pkg/__init__.py": "from .m import f\nfrom .n import *\n",
        "pkg/m.py": M,
        "pkg/n.py": "__all__ = ['g']\ndef g() -> int:\n    return 1\n",
        "app/a.py": "from pkg import f\nf(1)\n",
        "app/b.py": "import pkg\npkg.f(1)\n",
        "app/c.py": "import pkg\npkg.g()\n",
    }
    assert affected(files, {"pkg/m.py": M_SIG}) == {"pkg/__init__.py", "app/a.py", "app/b.py"}
    n_changed = "__all__ = ['g']\ndef g() -> str:\n    return ''\n"
    assert affected(files, {"pkg/n.py": n_changed}) == {"pkg/__init__.py", "app/c.py"}


def test_star_re_export_of_a_name_outside_all_is_not_followed() -> None:
    files = {
        "pkg/__init__.py": "from .n import *\n",
        "pkg/n.py": "__all__ = ['g']\ndef g() -> int: ...\ndef h() -> int: ...\n",
        "app/c.py": "import pkg\npkg.h()\n",  # an error either way: h is not exported
        "app/d.py": "from pkg.n import h\n",
    }
    new = "__all__ = ['g']\ndef g() -> int: ...\ndef h() -> str: ...\n"
    assert affected(files, {"pkg/n.py": new}) == {"app/d.py"}


def test_a_name_shadowed_locally_in_a_file_that_does_not_import_it_is_not_seen() -> None:
    files = {
        "m.py": M,
        "a.py": "from m import other\ndef f(x: int) -> int:\n    return x\nf(1)\nother(1)\n",
        "b.py": "from m import f as g\ndef f() -> None: ...\ng(1)\n",
    }
    assert affected(files, {"m.py": M_SIG}) == {"b.py"}

"""Default-keep: the planner widens wherever a rule would recognise its case by spelling only.

One test per way issue 19's adversarial probes found the planner pruning a file whose pyright
diagnostics changed (the truth for each is checked against cold pyright by
tests/e2e/test_planner_catalogue.py); here, on the graph alone, each such file must be kept. This
module: classes — enums and abstractness from plain mixins or star imports, subclasses not at module
level, ``final`` and dataclass transforms by any name, abstract methods under another name, PEP 695
variance, a synthesized ``__init__``, bases re-exported by a star import.
"""

from __future__ import annotations

import pytest

from tests.unit.name_deps_helpers import affected, src


def test_an_enum_whose_values_come_from_a_plain_mixin() -> None:
    files = {
        "mixin.py": """
            class Mixin:
                @staticmethod
                def _generate_next_value_(
                    name: str, start: int, count: int, last: list[int]
                ) -> int:
                    return count
        """,
        "colors.py": """
            from enum import Enum, auto
            from mixin import Mixin
            class Color(Mixin, Enum):
                RED = auto()
        """,
        "user.py": "from colors import Color\nx: int = Color.RED.value\n",
        "bystander.py": "import mixin\n",
    }
    new = files["mixin.py"].replace("-> int:", "-> str:").replace("return count", "return name")
    found = affected(files, {"mixin.py": new})
    assert {"colors.py", "user.py"} <= found


def test_an_enum_base_from_a_star_import_is_not_plain() -> None:
    files = {
        "colors.py": "from enum import *\nclass Color(Enum):\n    A = 1\n",
        "user.py": """
            from typing import assert_never
            from colors import Color
            def f(c: Color) -> None:
                if c is Color.A:
                    return
                assert_never(c)
        """,
    }
    new = "from enum import *\nclass Color(Enum):\n    A = 1\n    B = 2\n"
    assert "user.py" in affected(files, {"colors.py": new})


def test_abstractness_carried_by_a_plain_mixin() -> None:
    files = {
        "base.py": """
            from abc import ABC, abstractmethod
            class Base(ABC):
                @abstractmethod
                def run(self) -> None: ...
        """,
        "mixin.py": "class RunMixin:\n    def run(self) -> None:\n        pass\n",
        "impl.py": "from base import Base\nfrom mixin import RunMixin\n"
        "class Impl(RunMixin, Base):\n    pass\n",
        "user.py": "from impl import Impl\nImpl()\n",
    }
    found = affected(files, {"mixin.py": "class RunMixin:\n    pass\n"})
    assert {"impl.py", "user.py"} <= found


@pytest.mark.parametrize(
    "user",
    [
        "from base import Base\ndef f() -> None:\n    class Sub(Base):\n"
        "        def m(self) -> int:\n            return 1\n",
        "from base import Base\nclass Outer:\n    class Sub(Base):\n"
        "        def m(self) -> int:\n            return 1\n",
        "import base\ndef f() -> object:\n    class Sub(base.Base):\n"
        "        def m(self) -> int:\n            return 1\n    return Sub\n",
    ],
    ids=["in-a-function", "nested-in-a-class", "through-the-module"],
)
def test_a_subclass_that_is_not_at_module_level_sees_a_member_change(user: str) -> None:
    files = {"base.py": "class Base:\n    def m(self) -> int:\n        return 1\n", "user.py": user}
    new = "class Base:\n    def m(self) -> str:\n        return ''\n"
    assert "user.py" in affected(files, {"base.py": new})


def test_a_local_decorator_called_final_may_be_a_dataclass_transform() -> None:
    files = {
        "deco.py": """
            from typing import dataclass_transform
            @dataclass_transform()
            def final(cls: type) -> type:
                return cls
        """,
        "model.py": "from deco import final\n@final\nclass M:\n    x: int\n",
        "user.py": "from model import M\nM(x=1)\n",
    }
    new = "from deco import final\n@final\nclass M:\n    x: str\n"
    assert "user.py" in affected(files, {"model.py": new})


def test_typing_final_by_any_name_is_still_safe() -> None:
    """Precision: a class decorated with typing's own ``final`` stays plain."""
    files = {
        "model.py": "from typing import final as sealed\n@sealed\nclass M:\n"
        "    def m(self) -> int:\n        return 1\n",
        "user.py": "from model import M\nM()\n",
    }
    new = files["model.py"].replace("-> int", "-> str").replace("return 1", "return ''")
    assert "user.py" not in affected(files, {"model.py": new})


def test_an_abstractmethod_under_another_name_reaches_instantiations() -> None:
    files = {
        "base.py": """
            from abc import ABC, abstractmethod as am
            class Base(ABC):
                def n(self) -> None:
                    pass
        """,
        "impl.py": "from base import Base\nclass Impl(Base):\n    pass\n",
        "user.py": "from impl import Impl\nImpl()\n",
    }
    before = "    def n(self) -> None:"
    new = src(files["base.py"]).replace(before, f"    @am\n{before}")
    assert "user.py" in affected(files, {"base.py": new})


def test_a_pep695_generic_class_infers_its_variance() -> None:
    files = {
        "box.py": "class Box[T]:\n    def get(self) -> T: ...\n",
        "user.py": "from box import Box\ndef f(b: Box[int]) -> Box[object]:\n    return b\n",
    }
    new = "class Box[T]:\n    def get(self) -> T: ...\n    def put(self, x: T) -> None: ...\n"
    assert "user.py" in affected(files, {"box.py": new})


@pytest.mark.parametrize(
    "declare",
    [
        "from typing import Final as F\nX: F = {v}\n",
        "import typing\nF = typing.Final\nX: F = {v}\n",
    ],
    ids=["imported-as", "assigned"],
)
def test_final_under_another_name_takes_its_type_from_the_value(declare: str) -> None:
    files = {"consts.py": declare.format(v="1"), "user.py": "from consts import X\ny: int = X\n"}
    assert "user.py" in affected(files, {"consts.py": declare.format(v="''")})


def test_reordered_fields_change_the_synthesized_init() -> None:
    model = "from dataclasses import dataclass\n@dataclass\nclass Model:\n    a: int\n    b: str\n"
    files = {"model.py": model, "user.py": "from model import Model\nModel(1, 'x')\n"}
    swapped = model.replace("    a: int\n    b: str\n", "    b: str\n    a: int\n")
    assert "user.py" in affected(files, {"model.py": swapped})


def test_a_base_reexported_by_a_package_star_import_resolves_to_its_class() -> None:
    """Precision: ``pkg.Base`` resolves through ``from .a import *`` to a plain class (the
    package's own alias of its submodule ``a`` is no cycle to give up on)."""
    files = {
        "pkg/__init__.py": "from .a import *\nfrom .b import *\n",
        "pkg/a.py": "class Base:\n    def m(self) -> int:\n        return 1\n",
        "pkg/b.py": "class Other:\n    pass\n",
        "user.py": "import pkg\nclass Sub(pkg.Base):\n    pass\n",
        "other.py": "from user import Sub\ndef f(s: Sub) -> None: ...\n",
    }
    new = "class Base:\n    def m(self) -> str:\n        return ''\n"
    found = affected(files, {"pkg/a.py": new})
    assert "user.py" in found  # a subclass: its overrides
    assert "other.py" not in found  # Sub is plain: nothing about it changes for its users

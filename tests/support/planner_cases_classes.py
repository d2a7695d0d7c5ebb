"""Catalogue: classes whose change shows where the planner may not look.

Abstractness carried by a mixin, subclasses that are not module-level classes (overrides are
checked there too), class decorators recognised by their last name, metaclasses,
``__init_subclass__``, synthesized fields, descriptors, ``Self``, ``ClassVar``, ``Final`` and a
positional class pattern that reaches a member through ``__match_args__`` without spelling it.
"""

from __future__ import annotations

from tests.support.planner_case import Case, src

ABC_BASE = src("""
    from abc import ABC, abstractmethod


    class Base(ABC):
        @abstractmethod
        def compute(self) -> int: ...
""")
COMPUTE_MIXIN = "class Mixin:\n    def compute(self) -> int:\n        return 1\n"
PLAIN_BASE = "class Base:\n    def compute(self, x: int) -> int:\n        return x\n"
PLAIN_BASE_STR = "class Base:\n    def compute(self, x: int) -> str:\n        return ''\n"
OVERRIDE = "def compute(self, x: int) -> int:\n    return x\n"


def _case(name: str, rule: str, files: dict[str, str], patch: dict[str, str | None]) -> Case:
    return Case(name, rule, {"pkg/__init__.py": "", **files}, patch)


def _indent(text: str, depth: int) -> str:
    return "".join(
        " " * 4 * depth + line if line.strip() else line for line in text.splitlines(keepends=True)
    )


def _override(name: str, user: str, base: str = PLAIN_BASE, patched: str = PLAIN_BASE_STR) -> Case:
    """``Base.compute`` changes; ``user`` overrides it somewhere the planner may not look."""
    files = {"pkg/base.py": base, "pkg/user.py": "from pkg.base import Base\n\n\n" + src(user)}
    return _case(
        name, "a subclass's override is checked against its base", files, {"pkg/base.py": patched}
    )


ABSTRACT = [
    _case(
        "abstract_via_mixin_removed",
        "a mixin implements an abstract member",
        {
            "pkg/base.py": ABC_BASE,
            "pkg/mixin.py": COMPUTE_MIXIN,
            "pkg/impl.py": "from pkg.base import Base\nfrom pkg.mixin import Mixin\n\n\n"
            "class Impl(Mixin, Base):\n    pass\n",
            "pkg/use.py": "from pkg.impl import Impl\n\nImpl()\n",
        },
        {"pkg/mixin.py": "class Mixin:\n    pass\n"},
    ),
    _case(
        "abstract_via_mixin_two_hops",
        "a mixin's base implements an abstract member",
        {
            "pkg/base.py": ABC_BASE,
            "pkg/inner.py": COMPUTE_MIXIN.replace("Mixin", "Inner"),
            "pkg/mixin.py": "from pkg.inner import Inner\n\n\nclass Mixin(Inner):\n    pass\n",
            "pkg/impl.py": "from pkg.base import Base\nfrom pkg.mixin import Mixin\n\n\n"
            "class Impl(Mixin, Base):\n    pass\n",
            "pkg/use.py": "from pkg.impl import Impl\n\nImpl()\n",
        },
        {"pkg/inner.py": "class Inner:\n    pass\n"},
    ),
    _case(
        "abstract_added_to_abc",
        "an abstract member added to an ABC",
        {
            "pkg/base.py": ABC_BASE,
            "pkg/impl.py": "from pkg.base import Base\n\n\nclass Impl(Base):\n"
            "    def compute(self) -> int:\n        return 1\n",
            "pkg/use.py": "from pkg.impl import Impl\n\nImpl()\n",
        },
        {"pkg/base.py": ABC_BASE + "\n    @abstractmethod\n    def extra(self) -> int: ...\n"},
    ),
    _case(
        "abstract_abcmeta_keyword",
        "an abstract member added to a class with metaclass=ABCMeta",
        {
            "pkg/base.py": "from abc import ABCMeta\n\n\n"
            "class Base(metaclass=ABCMeta):\n    pass\n",
            "pkg/impl.py": "from pkg.base import Base\n\n\nclass Impl(Base):\n    pass\n",
            "pkg/use.py": "from pkg.impl import Impl\n\nImpl()\n",
        },
        {
            "pkg/base.py": "from abc import ABCMeta, abstractmethod\n\n\n"
            "class Base(metaclass=ABCMeta):\n    @abstractmethod\n"
            "    def extra(self) -> int: ...\n"
        },
    ),
    _case(
        "abstract_local_subclass",
        "an abstract member added; a local subclass is instantiated",
        {
            "pkg/base.py": ABC_BASE,
            "pkg/use.py": "from pkg.base import Base\n\n\ndef make() -> Base:\n"
            "    class Local(Base):\n        def compute(self) -> int:\n"
            "            return 1\n\n    return Local()\n",
        },
        {"pkg/base.py": ABC_BASE + "\n    @abstractmethod\n    def extra(self) -> int: ...\n"},
    ),
]

SUBCLASSES = [
    _override(
        "override_in_function",
        "def make() -> Base:\n    class Local(Base):\n"
        + _indent(OVERRIDE, 2)
        + "\n    return Local()\n",
    ),
    _override(
        "override_nested_in_class", "class Outer:\n    class Inner(Base):\n" + _indent(OVERRIDE, 2)
    ),
    _override(
        "override_in_method",
        "class Factory:\n    def make(self) -> Base:\n"
        "        class Local(Base):\n" + _indent(OVERRIDE, 3) + "\n        return Local()\n",
    ),
    _override("override_aliased_base", "B = Base\n\n\nclass Sub(B):\n" + _indent(OVERRIDE, 1)),
    _override(
        "override_under_version_check",
        "import sys\n\nif sys.version_info >= (3, 8):\n"
        "    class Sub(Base):\n" + _indent(OVERRIDE, 2),
    ),
    _override("override_module_level", "class Sub(Base):\n" + _indent(OVERRIDE, 1)),
    _override(
        "final_method_local_override",
        "def make() -> Base:\n    class Local(Base):\n"
        + _indent(OVERRIDE, 2)
        + "\n    return Local()\n",
        patched="from typing import final\n\n\nclass Base:\n    @final\n"
        "    def compute(self, x: int) -> int:\n        return x\n",
    ),
    _override(
        "attribute_type_local_override",
        "def make() -> Base:\n    class Local(Base):\n        limit = 5\n\n    return Local()\n",
        base="class Base:\n    limit: int = 0\n",
        patched="class Base:\n    limit: str = ''\n",
    ),
    _override(
        "final_attribute_local_override",
        "def make() -> Base:\n    class Local(Base):\n        limit = 5\n\n    return Local()\n",
        base="class Base:\n    limit: int = 0\n",
        patched="from typing import Final\n\n\nclass Base:\n    limit: Final[int] = 0\n",
    ),
]

TRANSFORM = src("""
    from typing import TypeVar, dataclass_transform

    T = TypeVar("T")


    @dataclass_transform()
    def {name}(cls: type[T]) -> type[T]:
        return cls
""")
USE_MODEL = "from pkg.model import Model\n\nModel(1)\n"


def _model(
    name: str,
    rule: str,
    head: str,
    deco: str = "",
    base: str = "",
    more: dict[str, str] | None = None,
    use: str = USE_MODEL,
) -> Case:
    """``Model.size`` changes type; a file builds a ``Model`` positionally, never spelling it."""
    bases = f"({base})" if base else ""
    model = f"{head}\n\n\n{deco}class Model{bases}:\n    size: {{}}\n"
    files = {"pkg/model.py": model.format("int"), "pkg/use.py": use, **(more or {})}
    return _case(name, rule, files, {"pkg/model.py": model.format("str")})


DECORATORS = [
    _model(
        "decorator_local_final_transform",
        "a class decorator judged by its last name",
        "from pkg.deco import final",
        "@final\n",
        more={"pkg/deco.py": TRANSFORM.format(name="final")},
    ),
    _model(
        "decorator_local_total_ordering_transform",
        "a class decorator judged by its last name",
        "from pkg.deco import total_ordering",
        "@total_ordering\n",
        more={"pkg/deco.py": TRANSFORM.format(name="total_ordering")},
    ),
    _model(
        "decorator_dataclass_imported_as_final",
        "a class decorator judged by its last name",
        "from dataclasses import dataclass as final",
        "@final\n",
    ),
    _model(
        "decorator_stdlib_dataclass",
        "a dataclass field",
        "from dataclasses import dataclass",
        "@dataclass\n",
    ),
    _model(
        "decorator_attrs_define", "a library class decorator", "import attrs", "@attrs.define\n"
    ),
    _model(
        "decorator_pydantic_base",
        "a library base class",
        "from pydantic import BaseModel",
        base="BaseModel",
        use="from pkg.model import Model\n\nModel(size=1)\n",
    ),
    _model(
        "decorator_transform_base_class",
        "a dataclass_transform base class",
        "from pkg.deco import ModelBase",
        base="ModelBase",
        more={
            "pkg/deco.py": "from typing import dataclass_transform\n\n\n"
            "@dataclass_transform()\nclass ModelBase:\n    pass\n"
        },
    ),
    _model(
        "decorator_transform_metaclass",
        "a dataclass_transform metaclass",
        "from pkg.deco import ModelBase",
        base="ModelBase",
        more={
            "pkg/deco.py": "from typing import dataclass_transform\n\n\n"
            "@dataclass_transform()\nclass Meta(type):\n    pass\n\n\n"
            "class ModelBase(metaclass=Meta):\n    pass\n"
        },
    ),
]

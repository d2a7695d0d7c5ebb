"""Catalogue: members reached by syntax or by a class's machinery rather than by their name.

Metaclasses (a class's own attributes and its iteration), ``__init_subclass__`` keywords,
NamedTuple / TypedDict / dataclass fields, overloads, properties, descriptors, ``Self``,
``ClassVar``, ``Final``, ``__slots__``, ``__hash__`` and ``__match_args__``.
"""

from __future__ import annotations

from tests.support.planner_case import Case, src


def _case(name: str, rule: str, files: dict[str, str], patch: dict[str, str | None]) -> Case:
    return Case(name, rule, {"pkg/__init__.py": "", **files}, patch)


def _swap(name: str, rule: str, m: str, old: str, new: str, use: str, **more: str) -> Case:
    """``pkg/m.py`` (``m``, with ``{}`` where ``old`` becomes ``new``) and ``pkg/use.py``."""
    files = {"pkg/m.py": src(m).format(old), "pkg/use.py": src(use)}
    files.update({f"pkg/{k}.py": src(v) for k, v in more.items()})
    return _case(name, rule, files, {"pkg/m.py": src(m).format(new)})


POINT = """
    from typing import NamedTuple


    class Point(NamedTuple):
        x: int
        {}
"""
OPTS = """
    from typing import NotRequired, TypedDict, Unpack


    class Opts(TypedDict):
        {}


    def opts() -> Opts:
        return {{"size": 1}}  # type: ignore


    def make(**kw: Unpack[Opts]) -> None:
        pass
"""
MATCH = """
    class Point:
        __match_args__ = ("x",)

        def __init__(self, x: int) -> None:
            self.x = {}
"""
DESC = """
    class Field:
        def __get__(self, obj: object, owner: type | None = None) -> {}:
            raise NotImplementedError

        def __set__(self, obj: object, value: {}) -> None:
            pass


    class Model:
        size = Field()
"""

MEMBERS = [
    _swap(
        "metaclass_method",
        "a metaclass's method is the class's attribute",
        "class Meta(type):\n    def build(cls) -> {}:\n        raise NotImplementedError\n",
        "int",
        "str",
        "from pkg.model import Model\n\nx: int = Model.build()\n",
        model="from pkg.m import Meta\n\n\nclass Model(metaclass=Meta):\n    pass\n",
    ),
    _swap(
        "metaclass_iter",
        "a metaclass's __iter__ iterates the class",
        "from collections.abc import Iterator\n\n\nclass Meta(type):\n"
        "    def __iter__(cls) -> Iterator[{}]:\n        raise NotImplementedError\n",
        "int",
        "str",
        "from pkg.model import Model\n\nfor v in Model:\n    x: int = v\n",
        model="from pkg.m import Meta\n\n\nclass Model(metaclass=Meta):\n    pass\n",
    ),
    _swap(
        "init_subclass_keyword",
        "__init_subclass__ checks class keywords",
        "class Base:\n    def __init_subclass__(cls, *, tag: {} = 0) -> None:\n        pass\n",
        "str",
        "int",
        "from pkg.m import Base\n\n\nclass Sub(Base, tag='x'):\n    pass\n",
    ),
    _swap(
        "init_subclass_local",
        "__init_subclass__ checks a local class's keywords",
        "class Base:\n    def __init_subclass__(cls, *, tag: {} = 0) -> None:\n        pass\n",
        "str",
        "int",
        "from pkg.m import Base\n\n\ndef make() -> None:\n"
        "    class Sub(Base, tag='x'):\n        pass\n",
    ),
    _swap(
        "namedtuple_field_type",
        "a NamedTuple field",
        POINT,
        "y: int",
        "y: str",
        "from pkg.api import origin\n\na, b = origin()\nz: int = b\n",
        api="from pkg.m import Point\n\n\ndef origin() -> Point:\n    return Point(0, 0)\n",
    ),
    _swap(
        "namedtuple_field_added",
        "a NamedTuple field",
        POINT,
        "y: int",
        "y: int\n    z: int = 0",
        "from pkg.api import origin\n\na, b = origin()\n",
        api="from pkg.m import Point\n\n\ndef origin() -> Point:\n    return Point(0, 0)\n",
    ),
    _swap(
        "typeddict_field_type",
        "a TypedDict field",
        OPTS,
        "size: int",
        "size: str",
        "from pkg.m import opts\n\nn: int = opts()['size']\n",
    ),
    _swap(
        "typeddict_not_required",
        "a TypedDict field",
        OPTS,
        "size: int",
        "size: NotRequired[int]",
        "from pkg.m import opts\n\nn = opts()['size']\n",
    ),
    _swap(
        "typeddict_unpacked_kwargs",
        "a TypedDict field",
        OPTS,
        "size: int",
        "size: str",
        "from pkg.m import make\n\nmake(size=1)\n",
    ),
    _swap(
        "dataclass_field_order",
        "a dataclass field",
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Model:\n    {}\n",
        "a: int\n    b: str",
        "b: str\n    a: int",
        "from pkg.m import Model\n\nModel(1, 'x')\n",
    ),
    _swap(
        "dataclass_base_default",
        "a dataclass base's field",
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Base:\n    {}\n",
        "a: int",
        "a: int = 0",
        "from pkg.sub import Sub\n\nprint(Sub)\n",
        sub="from dataclasses import dataclass\n\nfrom pkg.m import Base\n\n\n"
        "@dataclass\nclass Sub(Base):\n    b: int\n",
    ),
    _swap(
        "dataclass_classvar_to_field",
        "a dataclass field",
        "from dataclasses import dataclass\nfrom typing import ClassVar\n\n\n@dataclass\n"
        "class Model:\n    x: int\n    limit: {}\n",
        "ClassVar[int] = 0",
        "int",
        "from pkg.m import Model\n\nModel(1)\n",
    ),
    _swap(
        "classvar_assigned_on_instance",
        "a ClassVar",
        "from typing import ClassVar\n\n\nclass Model:\n    limit: {} = 0\n",
        "ClassVar[int]",
        "int",
        "from pkg.m import Model\n\nModel().limit = 5\n",
    ),
    _swap(
        "final_module_constant",
        "a Final constant",
        "from typing import Final\n\nMAX: Final = {}\n",
        "1",
        "'x'",
        "from pkg.m import MAX\n\nx: int = MAX\n",
    ),
    _swap(
        "overload_removed",
        "an overload",
        "from typing import overload\n\n\n@overload\ndef conv(x: int) -> int: ...\n{}\n"
        "def conv(x: int | str) -> int | str:\n    return x\n",
        "@overload\ndef conv(x: str) -> str: ...\n",
        "",
        "from pkg.m import conv\n\nconv('a')\n",
    ),
    _swap(
        "property_to_method",
        "a property",
        "class Impl:\n    {}\n    def size(self) -> int:\n        return 1\n",
        "@property\n",
        "",
        "from pkg.m import Impl\n\nx: int = Impl().size\n",
    ),
    _swap(
        "property_setter_removed",
        "a property setter",
        "class Impl:\n    @property\n    def size(self) -> int:\n        return 1\n{}",
        "\n    @size.setter\n    def size(self, v: int) -> None:\n        pass\n",
        "",
        "from pkg.m import Impl\n\nImpl().size = 2\n",
    ),
    _swap(
        "descriptor_get",
        "a descriptor's __get__",
        DESC.replace("value: {}", "value: int"),
        "int",
        "str",
        "from pkg.m import Model\n\nx: int = Model().size\n",
    ),
    _swap(
        "descriptor_set",
        "a descriptor's __set__",
        DESC.replace("-> {}", "-> int"),
        "int",
        "str",
        "from pkg.m import Model\n\nModel().size = 1\n",
    ),
    _swap(
        "self_return",
        "a method returning Self",
        "from typing import Self\n\n\nclass Base:\n    def clone(self) -> {}:\n"
        "        return self\n",
        "Self",
        "'Base'",
        "from pkg.sub import Sub\n\ns: Sub = Sub().clone()\n",
        sub="from pkg.m import Base\n\n\nclass Sub(Base):\n    pass\n",
    ),
    _swap(
        "slots_changed",
        "__slots__",
        "class Model:\n    __slots__ = ({},)\n",
        "'a'",
        "'b'",
        "from pkg.m import Model\n\nm = Model()\nm.a = 1\n",
    ),
    _swap(
        "eq_without_hash",
        "__eq__ without __hash__ makes a class unhashable",
        "class Model:\n    {}\n",
        "pass",
        "def __eq__(self, other: object) -> bool:\n        return True",
        "from pkg.m import Model\n\nd = {Model(): 1}\n",
    ),
    _swap(
        "match_args_positional",
        "a member reached through __match_args__",
        MATCH,
        "x",
        "str(x)",
        "from pkg.m import Point\n\n\ndef f(p: Point) -> int:\n    match p:\n"
        "        case Point(v):\n            return v\n    return 0\n",
    ),
    _swap(
        "dataclass_match_positional",
        "a member reached through __match_args__",
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Point:\n    x: {}\n",
        "int",
        "str",
        "from pkg.m import Point\n\n\ndef f(p: Point) -> int:\n    match p:\n"
        "        case Point(v):\n            return v\n    return 0\n",
    ),
]

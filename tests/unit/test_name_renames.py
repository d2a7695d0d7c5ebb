"""Renamed functions (``prewrite_daemon.languages.python.names.renames``): what a rename reaches,
and what not.

A rename of a function that every patched file only calls (the same function under a new name)
reaches the files that spell the old or the new name, star importers and users of the module
object; a region that only calls it is unchanged. Every way the function's value (and with it
its name, which pyright prints: "in function ...") or a capture could escape that rule makes
the patch count as before: the tests below each name a file pyright's diagnostics change in.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from prewrite_daemon.languages.python.names.renames import Rename, find_renames
from prewrite_daemon.languages.python.names.summary import summarize
from prewrite_daemon.languages.python.syntax.parse_cache import parse_shared
from tests.unit.name_deps_helpers import affected, src

M = """
    def encode(x: int) -> int:
        return x

    def other(x: int):
        return encode(x)
"""
M_RENAMED = """
    def encode2(x: int) -> int:
        return x

    def other(x: int):
        return encode2(x)
"""
MODELS = """
    from .m import encode


    class Request:
        def __init__(self, x: int) -> None:
            self.stream = encode(x)
"""
USER = "from pkg.models import Request\n\nvalue: str = Request(1).stream\n"


def renamed(text: str, old: str = "encode", new: str = "encode2") -> str:
    return text.replace(old, new)


def tree(**extra: str) -> dict[str, str]:
    files = {"pkg/__init__.py": "", "pkg/m.py": M, "pkg/models.py": MODELS, "app/user.py": USER}
    files.update({f"app/{name}.py": text for name, text in extra.items()})
    return files


def patch(files: dict[str, str], *rels: str) -> dict[str, str | None]:
    return {rel: renamed(src(files[rel])) for rel in ("pkg/m.py", "pkg/models.py", *rels)}


def test_a_rename_reaches_only_the_files_that_spell_either_name() -> None:
    files = tree(
        old_user="from pkg.m import encode\n\nencode(1)\n",  # now an error
        new_user="from pkg.m import encode2\n\nencode2(1)\n",  # now fine
        modattr="import pkg.m\n\npkg.m.encode(1)\n",
        module_value="import pkg.m as mod\n\nprint(getattr(mod, 'encode2'))\n",
        star="from pkg.m import *\n\nencode(1)\n",
        through_models="from pkg.models import encode\n\nencode(1)\n",  # models' binding went
        other_user="from pkg.m import other\n\nn: str = other(1)\n",
    )
    found = affected(files, patch(files))
    assert found == {
        "app/old_user.py",
        "app/new_user.py",
        "app/modattr.py",
        "app/module_value.py",
        "app/star.py",
        "app/through_models.py",
    }


def test_the_pair_and_its_views() -> None:
    files = {rel: src(text) for rel, text in tree().items()}
    changes = [(rel, files[rel], renamed(files[rel])) for rel in ("pkg/m.py", "pkg/models.py")]
    views = {rel: [summarize(rel, old)[1], summarize(rel, new)[1]] for rel, old, new in changes}
    found = find_renames(changes, lambda name: {"pkg/m.py"} if name.endswith("m") else set(), views)
    assert found.pairs == (Rename("pkg/m.py", "encode", "encode2"),)
    assert found.names == {
        "pkg/m.py": {"encode", "encode2"},
        "pkg/models.py": {"encode", "encode2"},
    }
    assert "l:encode" in found.hidden["pkg/m.py"]
    assert "k:pkg.m.encode" in found.hidden["pkg/models.py"]


def test_judging_a_rename_again_leaves_the_shared_trees_as_parsed() -> None:
    """``parse_cache``'s trees are shared by every planner, and R(old) renames in place: it is
    built on a private parse, so the base's shared tree, and the next answer, stay the same."""
    files = {rel: src(text) for rel, text in tree().items()}
    changes = [(rel, files[rel], renamed(files[rel])) for rel in ("pkg/m.py", "pkg/models.py")]
    dumps = {rel: _shared_dump(old) for rel, old, _ in changes}
    views = {rel: [summarize(rel, old)[1], summarize(rel, new)[1]] for rel, old, new in changes}
    answers = [
        find_renames(changes, lambda name: {"pkg/m.py"} if name.endswith("m") else set(), views)
        for _ in range(2)
    ]
    assert answers[0].pairs == answers[1].pairs == (Rename("pkg/m.py", "encode", "encode2"),)
    assert answers[0].names == answers[1].names
    for rel, old, _ in changes:
        assert _shared_dump(old) == dumps[rel]
        assert "encode2" not in dumps[rel]


def _shared_dump(text: str) -> str:
    tree = parse_shared(text)
    assert tree is not None
    return ast.dump(tree, include_attributes=True)


def test_an_unannotated_recursive_function_renamed_with_its_calls() -> None:
    m = "def encode(x: int):\n    return encode(x - 1) if x else 0\n"
    files = {**tree(), "pkg/m.py": m}
    assert affected(files, patch(files)) == set()


@pytest.mark.parametrize(
    ("models", "why"),
    [
        ("from .m import encode\n\nHANDLER = encode\n", "the function's value escapes"),
        ("from .m import encode as enc\n\nHANDLER = enc\n", "an alias carries the value"),
        ("from .m import encode\n\n\ndef helper(f=encode):\n    return f\n", "a default"),
        ("from .m import encode\n\n\ndef helper():\n    return encode\n", "returned"),
        ("import pkg.m\n\nHANDLER = pkg.m.encode\n", "through the module"),
    ],
)
def test_the_function_as_a_value_carries_its_name(models: str, why: str) -> None:
    """pyright prints a function's name ("in function "encode"") in its callers' errors."""
    user = "from pkg.models import *\n\nHANDLER('x')\nhelper()('x')\n"
    files = {**tree(), "pkg/models.py": models, "app/user.py": user}
    assert "app/user.py" in affected(files, patch(files)), why


def test_a_parameter_of_the_new_name_captures_the_call() -> None:
    """``def wrap(encode2): return encode(1)`` renamed: the call now reaches the parameter."""
    models = "from .m import encode\n\n\ndef wrap(encode2):\n    return encode(1)\n"
    user = "from pkg.models import wrap\n\nn: str = wrap(None)\n"
    files = {**tree(), "pkg/models.py": models, "app/user.py": user}
    assert "app/user.py" in affected(files, patch(files))


def test_a_local_shadowing_the_old_name_is_left_behind() -> None:
    """``def helper(encode): return encode(1)`` with only the call renamed: a different call."""
    models = "from .m import encode\n\n\ndef helper(encode):\n    return encode(1)\n"
    new_models = "from .m import encode2\n\n\ndef helper(encode):\n    return encode2(1)\n"
    user = "from pkg.models import helper\n\nn: str = helper(None)\n"
    files = {**tree(), "pkg/models.py": models, "app/user.py": user}
    found = affected(files, {"pkg/m.py": renamed(src(M)), "pkg/models.py": new_models})
    assert "app/user.py" in found


def test_the_new_name_colliding_with_an_existing_one() -> None:
    models = MODELS + "\n\ndef encode2(x: str) -> str:\n    return x\n"
    new_models = renamed(MODELS) + "\n\ndef encode2(x: str) -> str:\n    return x\n"
    files = {**tree(), "pkg/models.py": models}
    found = affected(files, {"pkg/m.py": renamed(src(M)), "pkg/models.py": new_models})
    assert "app/user.py" in found


@pytest.mark.parametrize(
    "new_m",
    [
        "def encode2(x: int) -> str:\n    return str(x)\n",  # the signature changed too
        "def encode2(x: int, y: int = 0) -> int:\n    return x\n",
    ],
)
def test_a_function_changed_as_well_as_renamed(new_m: str) -> None:
    files = tree()
    found = affected(files, {"pkg/m.py": new_m, "pkg/models.py": renamed(src(MODELS))})
    assert "app/user.py" in found


def test_an_unannotated_function_whose_body_changed_too() -> None:
    files = {**tree(), "pkg/m.py": "def encode(x: int):\n    return x\n"}
    found = affected(files, {"pkg/m.py": "def encode2(x: int):\n    return str(x)\n",
                             "pkg/models.py": renamed(src(MODELS))})  # fmt: skip
    assert "app/user.py" in found


def test_a_renamed_class_is_not_a_rename() -> None:
    """A class's name is part of the type of every value of it."""
    m = "class Encoder:\n    x: int = 0\n"
    models = MODELS.replace("encode(x)", "Encoder()").replace("import encode", "import Encoder")
    user = "from pkg.models import Request\n\nRequest(1).stream.y\n"  # '"y" ... "Encoder"'
    files = {**tree(), "pkg/m.py": m, "pkg/models.py": models, "app/user.py": user}
    changes = {
        "pkg/m.py": m.replace("Encoder", "Encoder2"),
        "pkg/models.py": src(models).replace("Encoder", "Encoder2"),
    }
    assert "app/user.py" in affected(files, changes)


@pytest.mark.parametrize(
    "spelling",
    [
        "x: 'encode' = 1\n",  # a string that may be a forward reference
        "x = getattr(object(), 'encode')\n",
        "@encode\ndef g() -> None: ...\n",  # a decorator: the value, not a call
        "def g(encode: int = 1) -> int:\n    return encode\n",
        "def g() -> None:\n    global encode\n",
    ],
)
def test_other_mentions_of_the_old_name_reject_the_rename(spelling: str) -> None:
    models = textwrap.dedent(MODELS) + spelling
    files = {**tree(), "pkg/models.py": models}
    new_models = renamed(textwrap.dedent(MODELS)) + spelling  # left behind, as an agent may
    found = affected(files, {"pkg/m.py": renamed(src(M)), "pkg/models.py": new_models})
    assert "app/user.py" in found


def test_a_star_import_in_a_patched_file_rejects_the_rename() -> None:
    models = "from .m import *\n" + textwrap.dedent(MODELS).replace("from .m import encode", "")
    files = {**tree(), "pkg/models.py": models}
    found = affected(files, {"pkg/m.py": renamed(src(M)), "pkg/models.py": renamed(models)})
    assert "app/user.py" in found


def test_a_rename_listed_in_all_and_re_exported_by_the_package() -> None:
    m = "__all__ = ['encode']\n" + textwrap.dedent(M)
    init = "from .m import encode\n\n__all__ = ['encode']\n"
    files = {
        **tree(
            via_package="import pkg\n\npkg.encode(1)\n",
            star_package="from pkg import *\n\nencode(1)\n",
            star_quiet="from pkg.m import *\n\nprint(1)\n",
        ),
        "pkg/m.py": m,
        "pkg/__init__.py": init,
    }
    found = affected(files, patch(files, "pkg/__init__.py"))
    assert {"app/via_package.py", "app/star_package.py"} <= found
    assert "app/user.py" not in found


def test_an_importer_left_out_of_the_patch_still_breaks() -> None:
    files = tree()
    found = affected(files, {"pkg/m.py": renamed(src(M))})
    assert "pkg/models.py" in found


def test_a_rename_of_a_function_of_a_package_init_is_not_a_rename() -> None:
    """``from pkg import encode2`` could then be a submodule ``pkg/encode2.py``."""
    files = {**tree(), "pkg/__init__.py": src(M), "pkg/models.py": MODELS.replace(".m", ".")}
    found = affected(files, {"pkg/__init__.py": renamed(src(M)),
                             "pkg/models.py": renamed(src(files["pkg/models.py"]))})  # fmt: skip
    assert "app/user.py" in found


def test_a_package_re_exporting_the_function_beside_star_imports() -> None:
    """Only a call needs the name resolved; a re-export's binding is a changed name anyway.
    ``pkg/__init__.py`` and ``pkg/models.py`` import each other: where the checker reports
    import cycles, a changed file on a cycle keeps every importer (its cycle report may move)."""
    init = "from .models import *\nfrom .m import encode as encode\n"
    files = {**tree(via_package="import pkg\n\npkg.encode(1)\n"), "pkg/__init__.py": init}
    found = affected(files, patch(files, "pkg/__init__.py"), cycles=False)
    assert "app/via_package.py" in found
    assert "app/user.py" not in found
    assert "app/user.py" in affected(files, patch(files, "pkg/__init__.py"), cycles=True)


@pytest.mark.parametrize(
    ("m", "new_m"),
    [
        (
            "X = int\n\n\ndef encode(x: int) -> X:\n    return x\n",
            "X = str\n\n\ndef encode2(x: int) -> X:\n    return str(x)\n",
        ),
        (  # the return type inferred from a helper two hops away
            "def helper():\n    return 1\n\n\ndef encode(x: int):\n    return helper()\n",
            "def helper():\n    return ''\n\n\ndef encode2(x: int):\n    return helper()\n",
        ),
    ],
)
def test_a_renamed_function_whose_type_changes_through_another_name(m: str, new_m: str) -> None:
    """The same text under the new name, but a name it mentions changed in the same patch."""
    files = {**tree(), "pkg/m.py": m}
    found = affected(files, {"pkg/m.py": new_m, "pkg/models.py": renamed(src(MODELS))})
    assert "app/user.py" in found

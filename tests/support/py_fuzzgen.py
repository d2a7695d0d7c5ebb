"""The planner fuzzer's generator: seeded random programs and patches (issue 19 item 5).

``generate_program(seed, config)`` picks a few slots (modules, a sub-package, a top-level
package, stubs, ``__all__``, a module missing from the base) and a few features from the
``py_fuzzgen_*`` modules, and places each feature's blocks so that a definition and its uses sit
in different modules (``py_fuzzgen_model`` has the picture, ``py_fuzzgen_render`` the spellings).
``generate_patches`` draws interface changes: a feature's mutation (sometimes two features at
once, or with only the stub or only the source of a stubbed module changed), a rename with every
use (or all but one), and changes of modules: deleted, moved (importers following or not), added,
a stub added or dropped, ``__all__`` losing a name or appearing, a module ``__getattr__``, an
import closing a cycle, a re-export dropped from ``__init__``.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from string import Template
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_bodies import binding, match_args, trivial
from tests.support.py_fuzzgen_classes import abstract, enum, generic
from tests.support.py_fuzzgen_decorators import decorator_alias
from tests.support.py_fuzzgen_dunders import dunder
from tests.support.py_fuzzgen_functions import function, overloaded
from tests.support.py_fuzzgen_model import (
    Block,
    Config,
    Feature,
    FeatureCtx,
    Op,
    Patch,
    Program,
    Slot,
)
from tests.support.py_fuzzgen_names import alias, const, inferred
from tests.support.py_fuzzgen_overrides import decorated, metaclass, override
from tests.support.py_fuzzgen_protocols import protocol
from tests.support.py_fuzzgen_records import record
from tests.support.py_fuzzgen_render import patch_files, render
from tests.support.py_fuzzgen_stores import dead_stores
from tests.support.py_fuzzgen_view import binder_of

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureBuilder

FEATURES: list[tuple[FeatureBuilder, int]] = [
    (protocol, 5),
    (dunder, 3),
    (enum, 3),
    (abstract, 2),
    (generic, 2),
    (override, 4),
    (decorated, 1),
    (record, 4),
    (alias, 3),
    (const, 2),
    (inferred, 2),
    (function, 4),
    (overloaded, 2),
    (binding, 6),
    (trivial, 2),
    (match_args, 2),
    (decorator_alias, 4),
    (metaclass, 2),
    (dead_stores, 2),
]
PYRIGHT_COMMENTS = (
    "# pyright: strict",
    "# pyright: basic",
    "# pyright: reportGeneralTypeIssues=false",
)
_CALLABLE = re.compile(r"^(?:@.*\n)*(?:async\s+def|def|class)\s+\$(\w+)", re.M)


def generate_program(seed: int, config: Config, ident: str = "") -> Program:
    rng = random.Random(f"program/{seed}")
    slots = _slots(rng)
    builders, weights = zip(*FEATURES, strict=True)
    features: list[Feature] = []
    for i in range(rng.randint(2, 5)):
        build = rng.choices(builders, weights)[0]
        feature_rng = random.Random(f"{seed}/feature/{i}")
        feature = build(FeatureCtx(feature_rng, config.py312))
        features.append(replace(_varied(feature, feature_rng), uid=i))
    program = Program(seed, config, slots, tuple(features), {}, ident)
    placement: dict[tuple[int, str], int] = {}
    for f in range(len(features)):
        for key, slot in _place(rng, program, f, len(slots)).items():
            placement[(f, key)] = slot
    return Program(seed, config, slots, tuple(features), placement, ident)


def _varied(feature: Feature, rng: random.Random) -> Feature:
    """Sometimes the base is one of the mutations and the patch undoes it (errors vanish, and
    with them the need for a consumer's ``# type: ignore``); sometimes the consumer's lines
    carry an ignore comment (``reportUnnecessaryTypeIgnoreComment`` reports them once unneeded)."""
    if feature.mutations and rng.random() < 0.2:
        i = rng.randrange(len(feature.mutations))
        label, blocks = feature.mutations[i]
        others = tuple(m for j, m in enumerate(feature.mutations) if j != i)
        feature = replace(
            feature, blocks=blocks, mutations=((f"undo {label}", feature.blocks), *others)
        )
    if rng.random() < 0.2:
        comment = rng.choice(["  # type: ignore", "  # pyright: ignore"])
        versions = [feature.blocks, *(m for _, m in feature.mutations)]
        ignored = [
            {k: _commented(b, comment) if k == "use" else b for k, b in v.items()} for v in versions
        ]
        labels = [label for label, _ in feature.mutations]
        feature = replace(
            feature, blocks=ignored[0], mutations=tuple(zip(labels, ignored[1:], strict=True))
        )
    return feature


def _commented(b: Block, comment: str) -> Block:
    lines = [line + comment if line.strip() else line for line in b.code.splitlines()]
    return replace(b, code="\n".join(lines) + "\n")


def _slots(rng: random.Random) -> tuple[Slot, ...]:
    count = rng.randint(3, 6)
    ext = rng.randrange(1, count) if rng.random() < 0.3 else -1
    slots: list[Slot] = []
    for i in range(count):
        if i == ext:
            stub = rng.choices(["", "stubs", "beside"], [2, 2, 1])[0]
            name = f"ext{i}"
        else:
            stub = "beside" if rng.random() < 0.12 else ""
            name = f"sub.m{i}" if rng.random() < 0.2 else f"m{i}"
        absent = i > 0 and rng.random() < 0.06
        form = rng.choice(["list", "list", "tuple", "plus", "extend", "append", "annotated"])
        slots.append(Slot(name, stub, rng.random() < 0.2, absent, form))
    return tuple(slots)


def _place(rng: random.Random, program: Program, f: int, count: int) -> dict[str, int]:
    """Each block's slot: at or after the slots of the blocks it uses, mostly after."""
    feature = program.features[f]
    binder = binder_of(program, f)
    keys = list(feature.blocks)
    for version in feature.versions():
        assert set(version) <= set(keys), f"{feature.kind}: a version adds blocks {set(version)}"
    out: dict[str, int] = {}
    for key in keys:
        uses: set[str] = set()
        for version in feature.versions():
            b = version[key]
            for text in (b.code, *b.header):
                uses |= {i.removeprefix("mod__") for i in Template(text).get_identifiers()}
        deps = {binder[n] for n in uses if n in binder and binder[n] != key}
        assert deps <= out.keys(), f"{feature.kind}: {key} uses later blocks {deps - out.keys()}"
        lo = max((out[d] for d in deps), default=-1)
        if lo < 0:
            out[key] = rng.randrange(max(1, count - 1))
        elif lo < count - 1 and rng.random() < 0.85:
            out[key] = rng.randint(lo + 1, count - 1)
        else:
            out[key] = lo
    return out


def public_names(program: Program, slot: int) -> list[str]:
    """The public names the base binds in ``slot``, rendered."""
    names: list[str] = []
    for f, feature in enumerate(program.features):
        for key, b in feature.blocks.items():
            if program.placement[(f, key)] == slot:
                names += sorted(f"{n}_{feature.uid}" for n in b.defines() if not n.startswith("_"))
    return names


def _candidates(program: Program, rng: random.Random) -> list[tuple[Op, ...]]:
    """Every single change the program offers, module changes included."""
    out: list[tuple[Op, ...]] = []
    for f, feature in enumerate(program.features):
        out += [(Op("mutate", f, i),) for i in range(len(feature.mutations))]
        for name in sorted({n for b in feature.blocks.values() for n in _CALLABLE.findall(b.code)}):
            out.append((Op("rename", f, rng.randrange(2), name),))
    for i, slot in enumerate(program.slots):
        if slot.absent:
            out += [(Op("add", i),)] * 3
            continue
        out += [(Op("delete", i),), (Op("move", i, rng.randrange(2)),), (Op("getattr", i),)]
        out.append((Op("stub_drop" if slot.stub else "stub_add", i),))
        names = public_names(program, i)
        if names and slot.all_:
            out.append((Op("all_drop", i, 0, rng.choice(names)),))
        elif names:
            out.append((Op("all_add", i, 0, rng.choice(names)),))
        forms = ("import", "import_as", "from_parent", "relative", "type_checking")
        out += [(Op("cycle", i, j, rng.choice(forms)),) for j in range(i + 1, len(program.slots))][
            :2
        ]
        out += [(Op("future", i),), (Op("pyright", i, 0, rng.choice(PYRIGHT_COMMENTS)),)]
        if not slot.ext and "." not in slot.name:
            out += [(Op(kind, i),) for kind in ("to_package", "shadow_package")]
            out.append((Op("init_shadow", i, 0, slot.name),))
    init = render(program).get(f"{program.name}/__init__.py", "")
    names = [line.rsplit(" ", 1)[-1] for line in init.splitlines() if not line.endswith("*")]
    out += [(Op("init_drop", 0, 0, name),) for name in names[:2]]
    out.append((Op("init_delete", 0, 0, ""),))
    if any(s.name.startswith("sub.") for s in program.slots):
        out.append((Op("init_delete", 0, 0, "sub/"),))
    return out


def generate_patches(program: Program, count: int) -> list[Patch]:
    """``count`` distinct patches that change some file (fewer if the program offers fewer)."""
    rng = random.Random(f"patches/{program.seed}")
    singles = _candidates(program, rng)
    mutations = [c for c in singles if c[0].kind == "mutate"]
    stubbed = {i for i, s in enumerate(program.slots) if s.stub}
    patches: list[Patch] = []
    seen: set[tuple[Op, ...]] = set()
    for _ in range(count * 8):
        if len(patches) == count:
            break
        ops = rng.choice(mutations if mutations and rng.random() < 0.6 else singles)
        roll = rng.random()
        if roll < 0.15 and len(mutations) > 1:
            ops = (*ops, *rng.choice(mutations))
        elif roll < 0.3 and ops[0].kind == "mutate":
            touched = {
                program.placement[(ops[0].target, k)]
                for k in program.features[ops[0].target].blocks
            } & stubbed
            if touched:
                side = rng.choice(["stub_only", "source_only"])
                ops = (*ops, Op(side, rng.choice(sorted(touched))))
        ops = tuple(dict.fromkeys(ops))
        if ops in seen or not patch_files(program, ops):
            continue
        seen.add(ops)
        patches.append(Patch(ops))
    return patches

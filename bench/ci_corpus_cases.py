"""The corpus's cases for one project: the release patch (older sdist -> newer, the package's
``.py``/``.pyi`` files, new and deleted modules included) and small generated patches.

The generated ones are written against two modules of the package found by reading it (``A``:
the first holding a one-line, return-annotated top-level function; ``B``: another module), so the
same kinds run on every project: each project's settings decide their colour.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.changes import change_file, delete_file, new_file
from tests.support.workloads import cache_dir

if TYPE_CHECKING:
    from pathlib import Path

    from bench.ci_corpus_projects import Project
    from prewrite.protocol import FileChange

DEF = re.compile(r"^def (\w+)\(([^()]*)\) -> ([^:]+):$", re.MULTILINE)
SUFFIXES = (".py", ".pyi")


@dataclass(frozen=True)
class Case:
    name: str
    changes: list[FileChange]


def new_release(project: Project) -> Path:
    """The newer release's unpacked sdist (cached beside the workloads)."""
    spec = project.old
    dest = cache_dir() / "ci-corpus" / f"{spec.name}-{project.new_version}"
    top = dest / f"{spec.name}-{project.new_version}"
    if top.is_dir():
        return top
    dest.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
            ":all:", "--dest", str(dest), f"{spec.name}=={project.new_version}"]  # fmt: skip
    subprocess.run(argv, check=True, capture_output=True, timeout=300)
    with tarfile.open(dest / f"{spec.name}-{project.new_version}.tar.gz") as tar:
        tar.extractall(dest, filter="data")
    return top


def _sources(top: Path, package: str) -> dict[str, str]:
    base = top / package
    return {
        str(p.relative_to(top)): p.read_text("utf-8")
        for p in sorted(base.rglob("*"))
        if p.suffix in SUFFIXES and p.is_file() and "__pycache__" not in p.parts
    }


def release_case(project: Project, root: Path) -> Case:
    """Old -> new of the package's sources: full contents, new modules, deletes."""
    old, new = _sources(root, project.package), _sources(new_release(project), project.package)
    changes = [change_file(root, rel, text) for rel, text in new.items()
               if rel in old and old[rel] != text]  # fmt: skip
    changes += [new_file(rel, text) for rel, text in new.items() if rel not in old]
    changes += [delete_file(root, rel) for rel in old if rel not in new]
    return Case(f"release {project.old.version}->{project.new_version} ({len(changes)} files)",
                changes)  # fmt: skip


def _modules(root: Path, package: str) -> tuple[str, re.Match[str], str]:
    """(A, its one-line annotated function, B)."""
    files = [rel for rel in _sources(root, package)
             if rel.endswith(".py") and not rel.endswith("__init__.py")]  # fmt: skip
    for rel in files:
        found = DEF.search((root / rel).read_text("utf-8"))
        if found and found.group(2).strip():
            other = next(f for f in files if f != rel and "_pw" not in f)
            return rel, found, other
    raise RuntimeError(f"no one-line annotated function in {package}")


def _dotted(rel: str) -> str:
    parts = rel.removesuffix(".py").split("/")
    return ".".join(parts[1:] if parts[0] == "src" else parts)


def _append(root: Path, rel: str, text: str) -> FileChange:
    return change_file(root, rel, (root / rel).read_text("utf-8") + text)


def generated_cases(project: Project, root: Path) -> list[Case]:
    """Seven small patches: three green where strict mypy agrees, the rest meant red."""
    pkg = project.package
    a, fn, b = _modules(root, pkg)
    a_text = (root / a).read_text("utf-8")
    plain = fn.group(0).replace(f" -> {fn.group(3)}:", ":")
    return [
        Case("new module, bare generic `def f(x: list) -> list`",
             [new_file(f"{pkg}/_pw_generic.py", "def f(x: list) -> list:\n    return x\n")]),
        Case("new module, typed and correct (green)",
             [new_file(f"{pkg}/_pw_ok.py", "def g(x: int) -> int:\n    return x + 1\n")]),
        Case(f"wrong return type in a body ({a})",
             [_append(root, a, '\n\ndef _pw_bad() -> int:\n    return "x"\n')]),
        Case(f"wrong argument type across files ({a} defines, {b} calls)",
             [_append(root, a, "\n\ndef _pw_take(x: int) -> int:\n    return x\n"),
              _append(root, b, f"\n\ndef _pw_call() -> int:\n    from {_dotted(a)} import "
                               '_pw_take\n\n    return _pw_take("s")\n')]),
        Case(f"return annotation removed ({a}: {fn.group(1)})",
             [change_file(root, a, a_text.replace(fn.group(0), plain, 1))]),
        Case(f"unused `# type: ignore` added ({b})",
             [_append(root, b, "\n\n_pw_n: int = 1  # type: ignore[assignment]\n")]),
        Case(f"module deleted ({a})", [delete_file(root, a)]),
    ]  # fmt: skip


def _extra(project: Project, root: Path) -> list[Case]:
    out: list[Case] = []
    for e in project.extra:
        text = (root / e.path).read_text("utf-8")
        if text.count(e.before) != 1:
            raise RuntimeError(f"{e.path}: the anchor of {e.name!r} is not there once")
        out.append(Case(e.name, [change_file(root, e.path, text.replace(e.before, e.after))]))
    return out


BODY = re.compile(r"^def \w+\([^()]*\)[^:\n]*:\n(?P<indent>[ ]+)(?!\"\"\"|\'\'\')\S",
                  re.MULTILINE)  # fmt: skip
IGNORE = re.compile(r"#\s*type:\s*ignore")


def warm_cases(project: Project, root: Path) -> list[Case]:
    """Two body edits dmypy answers warm: a module holding no ignore comment, the statement put
    first in a function's body (its interface unchanged, so ``check.whole.why_cold`` says none)."""
    for rel, text in _sources(root, project.package).items():
        found = BODY.search(text) if rel.endswith(".py") and not IGNORE.search(text) else None
        if found is None:
            continue
        at, pad = found.end() - 1, found.group("indent")
        red, green = f'_pw: int = "x"\n{pad}', f"_pw: int = 1\n{pad}"
        return [
            Case(f"warm: a wrong assignment in a body ({rel})",
                 [change_file(root, rel, text[:at] + red + text[at:])]),
            Case(f"warm: a correct statement in a body ({rel})",
                 [change_file(root, rel, text[:at] + green + text[at:])]),
        ]  # fmt: skip
    return []


def cases(project: Project, root: Path) -> list[Case]:
    return [
        release_case(project, root),
        *generated_cases(project, root),
        *_extra(project, root),
        *warm_cases(project, root),
    ]

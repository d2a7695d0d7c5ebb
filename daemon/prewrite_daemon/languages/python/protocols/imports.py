"""Which top-level modules a library source imports, read from its bytes without parsing.

A bundled stub package (``typeshed-fallback/stubs/<dist>``) is seen by the checker only when a
file it reads imports one of the stub's top-level modules: the workspace, an installed library,
or another stub that is itself seen. The Protocol scan reads every library file's imports once
per listing (``protocols.scan``), so this must cost little more than the read: a regular
expression over the bytes, no ``ast``.

Sound for the question asked (may this file import top-level module ``m``?), never precise:
every ``import a.b as c, d`` and ``from a.b import ...`` that starts a line (``\n`` or a lone
``\r``, form feeds allowed) or follows ``;`` or ``:`` (``try: import yaml``) counts, in code,
strings and comments alike, backslash continuations joined; a word that is no module only adds
a name no stub has. Relative imports (``from . import x``) stay inside their own package and are
not needed. Names are ASCII (typeshed's stub packages are): a module named in other letters is
not seen. What the checker does not follow is left out on purpose: ``__import__("m")`` and
``importlib.import_module`` give ``ModuleType`` to pyright, not the module.
"""

from __future__ import annotations

import re

_STATEMENT = re.compile(
    rb"(?:^|[\r;:])[ \t\f]*(?:from[ \t\f]+([A-Za-z_]\w*)|import[ \t\f]+([^\r\n;#]+))",
    re.MULTILINE,
)
_NAME = re.compile(rb"[A-Za-z_]\w*")


def imported_top_levels(data: bytes) -> set[str]:
    """The top-level module names ``data`` (a Python source or stub) may import."""
    if b"import" not in data:
        return set()
    if b"\\" in data:
        data = re.sub(rb"\\\r?\n", b" ", data)
    found: set[str] = set()
    for match in _STATEMENT.finditer(data):
        module, plain = match.groups()
        if module is not None:
            found.add(module.decode("ascii"))
            continue
        for part in plain.split(b","):  # ``a.b as c``: its first name
            name = _NAME.match(part.strip().lstrip(b"("))
            if name is not None:
                found.add(name.group().decode("ascii"))
    return found


def stub_module(relative: str) -> str:
    """The top-level module a file of a stub distribution belongs to, from its path below the
    distribution's directory (``yaml/nodes.pyi``, ``six.pyi``, ``foo-stubs/x.pyi``)."""
    first = relative.split("/", 1)[0]
    for suffix in (".pyi", ".py", "-stubs"):
        first = first.removesuffix(suffix)
    return first

"""Check ``NameGraph.affected`` against cold pyright on interface-changing patches to httpx.

``.venv/bin/python -m bench.name_deps_check [--only SUBSTRING] [--generated]``

For every patch: the transitive importers of the patched files (``ImportGraph``, what
``plan_check`` rechecks today), the files ``NameGraph.affected`` keeps, and the files whose
diagnostics really changed: ``pyright --outputjson`` (the repository's pyright, the workload's
venv as ``--pythonpath``) from scratch on a copy of the workspace before and after the patch,
every diagnostic compared by (line, column, rule, severity, message). The narrowing is *sound*
when every file that changed is patched or affected. The base runs are done once per base tree.

Two base trees: httpx 0.28.1 as released, and the same with ``TEMPTING`` files added: code built
to tempt a name-level pruner (a name used only as ``module.attr``, through an alias, a star
import, an unannotated helper two hops away, an unannotated module variable, a subclass of a
subclass through the package's re-exports, a local definition shadowing the changed name).
``--generated`` adds the differential test's seeded patches (``tests.support.patchgen``).
Exit status 1 when any patch is unsound.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.environment import site_dirs
from prewrite_daemon.languages.python.names.deps import NameGraph
from prewrite_daemon.languages.python.names.imports import ImportGraph
from prewrite_daemon.languages.python.protocols.roots import for_environment
from tests.support.oracle import cold_pyright
from tests.support.workloads import HTTPX, Workload, copy_workspace, prepare_workload

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic
    from prewrite_daemon.languages.python.protocols.library import LibraryProtocols

Key = tuple[int, int, str, str, str]


@dataclass(frozen=True)
class Edit:
    """Replace the first ``old`` in ``path`` by ``new``; ``old`` None: a new file with ``new``
    (or a copy of the file ``copy_of``); ``new`` None: delete the file; ``whole``: ``new`` is the
    whole new text."""

    path: str
    old: str | None
    new: str | None
    whole: bool = False
    copy_of: str | None = None


@dataclass(frozen=True)
class Case:
    name: str
    edits: tuple[Edit, ...]
    base: str = "released"  # or "tempting"


def case(name: str, path: str, old: str, new: str, base: str = "released") -> Case:
    """A one-file patch replacing ``old`` by ``new``."""
    return Case(name, (Edit(path, old, new),), base)


U, T, M, C, CFG = (
    "httpx/_utils.py",
    "httpx/_types.py",
    "httpx/_models.py",
    "httpx/_client.py",
    "httpx/_config.py",
)
AUTH, API, EXC = "httpx/_auth.py", "httpx/_api.py", "httpx/_exceptions.py"
TO_STR = 'def to_str(value: str | bytes, encoding: str = "utf-8") -> str:'
AUTH_FLOW = "    def auth_flow(self, request: Request) -> typing.Generator["
AUTH_FLOW_2 = "    def auth_flow(self, request: Request, attempt: int) -> typing.Generator["
LIMITS_END = "        keepalive_expiry: float | None = 5.0,\n    ) -> None:"
BUILD_END = "        extensions: RequestExtensions | None = None,\n    ) -> Request:"
STATUS_INIT = "def __init__(self, message: str, *, request: Request, response: Response"
CONTENT, INIT = "httpx/_content.py", "httpx/__init__.py"
ENC, ENC2 = "encode_request", "encode_request_pw_renamed"
# The bench's rename: a function and its one call, in Request.__init__ (it types self.stream)
RENAME_ENCODE = (
    Edit(CONTENT, f"def {ENC}(", f"def {ENC2}("),
    Edit(
        M, f"UnattachedStream, {ENC}, encode_response", f"UnattachedStream, {ENC2}, encode_response"
    ),
    Edit(M, f"headers, stream = {ENC}(", f"headers, stream = {ENC2}("),
)
RENAME_REEXPORT = Edit(INIT, f"import {ENC} as {ENC}", f"import {ENC2} as {ENC2}")

CASES: tuple[Case, ...] = (
    case(
        "utils: to_str gains a required param",
        U,
        TO_STR,
        "def to_str(value: str | bytes, encoding: str, errors: str) -> str:",
    ),
    case(
        "utils: get_environment_proxies renamed",
        U,
        "def get_environment_proxies()",
        "def environment_proxies()",
    ),
    case(
        "utils: peek_filelike_length returns str",
        U,
        "def peek_filelike_length(stream: typing.Any) -> int | None:",
        "def peek_filelike_length(stream: typing.Any) -> str | None:",
    ),
    case(
        "utils: URLPattern.matches removed",
        U,
        "    def matches(self, other: URL) -> bool:",
        "    def match_url(self, other: URL) -> bool:",
    ),
    case(
        "types: PrimitiveData alias narrowed",
        T,
        "PrimitiveData = Optional[Union[str, int, float, bool]]",
        "PrimitiveData = Optional[Union[str, int, float]]",
    ),
    case(
        "types: CertTypes alias narrowed",
        T,
        "CertTypes = Union[str, Tuple[str, str], Tuple[str, str, str]]",
        "CertTypes = Union[str, Tuple[str, str]]",
    ),
    case(
        "models: Response.json returns a dict",
        M,
        "    def json(self, **kwargs: typing.Any) -> typing.Any:",
        "    def json(self, **kwargs: typing.Any) -> dict[str, typing.Any]:",
    ),
    case(
        "models: raise_for_status returns None",
        M,
        "    def raise_for_status(self) -> Response:",
        "    def raise_for_status(self) -> None:",
    ),
    case(
        "models: Headers.get_list renamed",
        M,
        "    def get_list(self, key: str, split_commas: bool = False)",
        "    def getlist(self, key: str, split_commas: bool = False)",
    ),
    case(
        "models: Cookies.set default removed",
        M,
        '    def set(self, name: str, value: str, domain: str = "", path: str = "/")',
        '    def set(self, name: str, value: str, domain: str, path: str = "/")',
    ),
    case(
        "client: build_request gains a required keyword",
        C,
        BUILD_END,
        BUILD_END.replace("    ) -> Request:", "        priority: int,\n    ) -> Request:"),
    ),
    case(
        "client: event_hooks property type changed",
        C,
        "    def event_hooks(self) -> dict[str, list[EventHook]]:",
        "    def event_hooks(self) -> list[EventHook]:",
    ),
    case(
        "client: BaseClient.__init__ default changed",
        C,
        "        follow_redirects: bool = False,",
        "        follow_redirects: bool = True,",
    ),
    case(
        "config: Timeout.as_dict returns a list",
        CFG,
        "    def as_dict(self) -> dict[str, float | None]:",
        "    def as_dict(self) -> list[float | None]:",
    ),
    case(
        "config: Proxy.raw_auth property type changed",
        CFG,
        "    def raw_auth(self) -> tuple[bytes, bytes] | None:",
        "    def raw_auth(self) -> tuple[str, str] | None:",
    ),
    case(
        "config: DEFAULT_MAX_REDIRECTS becomes a str",
        CFG,
        "DEFAULT_MAX_REDIRECTS = 20",
        'DEFAULT_MAX_REDIRECTS = "20"',
    ),
    case(
        "config: Limits gains a required field",
        CFG,
        LIMITS_END,
        LIMITS_END.replace("    ) -> None:", "        max_idle: int,\n    ) -> None:"),
    ),
    case(
        "exceptions: HTTPStatusError requires a status",
        EXC,
        STATUS_INIT,
        STATUS_INIT + ", status: int",
    ),
    case("auth: Auth.auth_flow gains a required param", AUTH, AUTH_FLOW, AUTH_FLOW_2),
    case(
        "api: get() gains a required keyword",
        API,
        "def get(\n    url: URL | str,\n    *,",
        "def get(\n    url: URL | str,\n    *,\n    retries: int,",
    ),
    case(
        "transports: BaseTransport.handle_request renamed",
        "httpx/_transports/base.py",
        "    def handle_request(self, request: Request) -> Response:",
        "    def process_request(self, request: Request) -> Response:",
    ),
    case(
        "status codes: codes.NOT_FOUND renamed (Enum)",
        "httpx/_status_codes.py",
        '    NOT_FOUND = 404, "Not Found"',
        '    NOT_FOUND_ = 404, "Not Found"',
    ),
    case(
        "urls: URL.copy_with returns str",
        "httpx/_urls.py",
        "    def copy_with(self, **kwargs: typing.Any) -> URL:",
        "    def copy_with(self, **kwargs: typing.Any) -> str:",
    ),
    Case(
        "new module imported by one file",
        (
            Edit("httpx/_pw_new.py", None, "def pw_helper() -> int:\n    return 1\n"),
            Edit(
                AUTH,
                "from ._exceptions import ProtocolError",
                "from ._exceptions import ProtocolError\nfrom ._pw_new import pw_helper",
            ),
        ),
    ),
    Case("module deleted", (Edit("httpx/_transports/mock.py", "", None),)),
    Case(
        "module renamed (and its star import)",
        (
            Edit("httpx/_transports/mocking.py", None, None, copy_of="httpx/_transports/mock.py"),
            Edit("httpx/_transports/mock.py", "", None),
            Edit("httpx/_transports/__init__.py", "from .mock import *", "from .mocking import *"),
        ),
    ),
    Case("rename: encode_request and its call in Request.__init__", RENAME_ENCODE),
    # --- on the tempting tree ---
    Case(
        "tempting: encode_request renamed, files outside the patch keep the old name",
        (*RENAME_ENCODE, RENAME_REEXPORT),
        "tempting",
    ),
    Case(
        "tempting: encode_request renamed, a patched file passes it on as a value",
        (
            *RENAME_ENCODE,
            RENAME_REEXPORT,
            Edit("tests/pw_rename_holder.py", f"import {ENC}\n", f"import {ENC2}\n"),
            Edit("tests/pw_rename_holder.py", f"= {ENC}\n", f"= {ENC2}\n"),
        ),
        "tempting",
    ),
    case(
        "tempting: to_str returns bytes",
        U,
        TO_STR,
        TO_STR.replace("-> str", "-> bytes"),
        "tempting",
    ),
    case(
        "tempting: unquote returns bytes",
        U,
        "def unquote(value: str) -> str:",
        "def unquote(value: str) -> bytes:",
        "tempting",
    ),
    case(
        "tempting: Auth.auth_flow gains a required param", AUTH, AUTH_FLOW, AUTH_FLOW_2, "tempting"
    ),
    case(
        "tempting: DEFAULT_LIMITS becomes a Timeout",
        CFG,
        "DEFAULT_LIMITS = Limits(max_connections=100, max_keepalive_connections=20)",
        "DEFAULT_LIMITS = Timeout(5.0)",
        "tempting",
    ),
    Case(
        "tempting: the module an import awaited is added",
        (Edit("httpx/_pw_future.py", None, "def pw_future() -> int:\n    return 1\n"),),
        "tempting",
    ),
    case(
        "tempting: BasicAuth gains a method",
        AUTH,
        "class NetRCAuth(Auth):",
        "    def pw_method(self) -> int:\n        return 1\n\n\nclass NetRCAuth(Auth):",
        "tempting",
    ),
)

# Added to httpx for the tempting tree: each file reaches a changed name in a way a name-level
# pruner could miss (module attribute, alias, star import, unannotated hops, unannotated
# variable, a subclass of a re-exported subclass), or must not be confused by (a local `to_str`);
# and `encode_request`, to be renamed, reached through the package, the old name, the module,
# and a holder of the function's value (pyright prints its name: 'in function "encode_request"').
TEMPTING: tuple[Edit, ...] = (
    Edit(
        INIT,
        "from ._content import *\n",
        f"from ._content import *\nfrom ._content import {ENC} as {ENC}\n",
    ),
    Edit("tests/pw_rename_pkg.py", None, f"import httpx\n\nhttpx.{ENC}(json={{}})\n"),
    Edit(
        "tests/pw_rename_old.py",
        None,
        f"from httpx._content import {ENC}\n\nheaders, stream = {ENC}(json={{}})\n",
    ),
    Edit(
        "tests/pw_rename_modattr.py",
        None,
        f"import httpx._content as content\n\nheaders, _ = content.{ENC}(json={{}})\n",
    ),
    Edit(
        "tests/pw_rename_holder.py",
        None,
        f"from httpx._content import {ENC}\n\npw_encoder = {ENC}\n",
    ),
    Edit(
        "tests/pw_rename_value.py",
        None,
        "from tests.pw_rename_holder import pw_encoder\n\npw_encoder(content=1)\n",
    ),
    Edit(
        "tests/pw_rename_bystander.py",
        None,
        'import httpx\n\nstream: int = httpx.Request("GET", "https://x").stream\n',
    ),
    Edit(
        "tests/pw_modattr.py",
        None,
        "from httpx import _utils\nimport httpx._config as config\n\n\n"
        "def check() -> None:\n    quoted: str = _utils.unquote('x')\n"
        "    limits = config.DEFAULT_LIMITS\n    print(quoted, limits)\n",
    ),
    Edit(
        M,
        "\n\nclass Cookies(",
        "\n\ndef pw_hop1(value: bytes):\n    return to_str(value)\n\n\nclass Cookies(",
    ),
    Edit(
        C,
        "\n\nclass UseClientDefault:",
        "\n\ndef pw_hop2():\n    return pw_hop1(b'x')\n\n\nclass UseClientDefault:",
    ),
    Edit(
        C,
        "from ._models import Cookies, Headers, Request, Response",
        "from ._models import Cookies, Headers, Request, Response, pw_hop1",
    ),
    Edit(
        "tests/pw_hops.py", None, "from httpx._client import pw_hop2\n\nresult: str = pw_hop2()\n"
    ),
    Edit("tests/pw_star.py", None, "from httpx._utils import *\n\nvalue: str = to_str(b'x')\n"),
    Edit(
        "tests/pw_shadow.py",
        None,
        "from httpx._utils import to_bytes\n\n\n"
        "def to_str(value: bytes) -> bytes:  # not httpx._utils.to_str\n    return value\n\n\n"
        "def use() -> bytes:\n    data: bytes = to_str(b'x')\n    return to_bytes(data.decode())\n",
    ),
    Edit(
        "tests/pw_alias.py",
        None,
        "from httpx import _utils as helpers\nfrom httpx._utils import to_str as convert\n\n"
        "first: str = convert(b'x')\nsecond: str = helpers.to_str(b'y')\n",
    ),
    Edit("tests/pw_var.py", None, "from httpx._utils import unquote\n\nVALUE = unquote('x')\n"),
    Edit("tests/pw_var_user.py", None, "from tests.pw_var import VALUE\n\nn: str = VALUE\n"),
    Edit(
        "tests/pw_subclass.py",
        None,
        "import typing\n\nimport httpx\n\n\nclass Tracing(httpx.BasicAuth):\n"
        "    def auth_flow(\n        self, request: httpx.Request\n"
        "    ) -> typing.Generator[httpx.Request, httpx.Response, None]:\n"
        "        yield request\n\n\n"
        "def pw_method() -> int:\n    return 0\n",
    ),
    Edit(
        "tests/pw_future.py",
        None,
        "from httpx._pw_future import pw_future  # not there yet\n\nVALUE = pw_future()\n",
    ),
    Edit("tests/pw_future_user.py", None, "from tests.pw_future import VALUE\n\nn: str = VALUE\n"),
    Edit(
        "tests/pw_getattr.py",
        None,
        "import httpx._utils as u\n\nfn = getattr(u, 'to_str')\nprint(fn(b'x'))\n",
    ),
)


@dataclass(frozen=True)
class Row:
    case: str
    patched: int
    importers: int
    affected: int
    changed: list[str]
    unsound: list[str]
    narrow_ms: float
    fallbacks: dict[str, str]


def apply(root: Path, edits: tuple[Edit, ...]) -> dict[str, str | None]:
    """Write ``edits``; returns each touched file's previous text (None: it did not exist)."""
    before: dict[str, str | None] = {}
    for e in edits:
        path = root / e.path
        old = path.read_text() if path.exists() else None
        before.setdefault(e.path, old)
        if e.copy_of is not None:
            path.write_text((root / e.copy_of).read_text())
        elif e.new is None:
            path.unlink()
        elif e.old is None or e.whole:
            path.write_text(e.new)
        else:
            assert old is not None, f"{e.path} does not exist"
            assert e.old in old, f"{e.path}: {e.old!r} not found"
            path.write_text(old.replace(e.old, e.new, 1))
    return before


def restore(root: Path, before: dict[str, str | None]) -> None:
    for rel, text in before.items():
        path = root / rel
        if text is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(text)


def diagnostics_by_file(root: Path, python: str) -> dict[str, Counter[Key]]:
    found: dict[str, Counter[Key]] = defaultdict(Counter)
    diags: list[Diagnostic] = cold_pyright(root, python)
    for d in diags:
        found[d.path][(d.line, d.column, d.rule, d.severity, d.message)] += 1
    return found


def library_protocols(python: str) -> LibraryProtocols:
    """The venv's and typeshed's Protocols, scanned now (as a workspace's graph asks for them)."""
    library = for_environment(site_dirs(python))
    if library.wait(600) is None:
        raise SystemExit(f"the Protocol scan failed: {library.statistics().error}")
    return library


class Tree:
    """One base tree: its copy on disk, cold base diagnostics, and both graphs over it."""

    def __init__(self, root: Path, python: str, protocols: LibraryProtocols) -> None:
        self.root, self.python = root, python
        t0 = time.perf_counter()
        self.base = diagnostics_by_file(root, python)
        self.base_s = time.perf_counter() - t0
        # httpx configures no pyright: reportImportCycles is off, as pyright's default
        self.names = NameGraph(protocols, report_import_cycles=False)
        self.imports = ImportGraph()
        t0 = time.perf_counter()
        for path in sorted(root.rglob("*.py*")):
            if path.suffix in (".py", ".pyi"):
                rel = path.relative_to(root).as_posix()
                text = path.read_text()
                self.names.update(rel, text)
                self.imports.update(rel, text)
        self.update_ms = (time.perf_counter() - t0) * 1000

    def check(self, case: Case) -> Row:
        before = apply(self.root, case.edits)
        try:
            changes = [(rel, old, _read(self.root / rel)) for rel, old in before.items()]
            t0 = time.perf_counter()
            narrowing = self.names.narrow(changes)
            narrow_ms = (time.perf_counter() - t0) * 1000
            after = diagnostics_by_file(self.root, self.python)
        finally:
            restore(self.root, before)
        patched = set(before)
        changed = sorted(
            f for f in self.base.keys() | after.keys() if self.base.get(f) != after.get(f)
        )
        return Row(
            case=case.name,
            patched=len(patched),
            importers=len(self.imports.importers(patched) - patched),
            affected=len(narrowing.files),
            changed=[f for f in changed if f not in patched],
            unsound=[f for f in changed if f not in patched and f not in narrowing.files],
            narrow_ms=narrow_ms,
            fallbacks=narrowing.fallbacks,
        )


def _read(path: Path) -> str | None:
    return path.read_text() if path.exists() else None


def generated_cases(tree: Tree) -> list[Case]:
    from tests.support.patchgen import generate_patches

    errors = sorted(f for f, c in tree.base.items() if c)
    cases: list[Case] = []
    for p in generate_patches(tree.root, error_files=errors):
        edits = tuple(
            Edit(
                c.path,
                None if c.base_sha256 is None else "",
                None if c.delete else c.content,
                whole=True,
            )
            for c in p.changes
        )
        cases.append(Case(f"generated {p.kind}: {p.name}"[:70], edits))
    return cases


def render(rows: list[Row]) -> str:
    width = max(len(r.case) for r in rows)
    lines = [
        f"{'patch':<{width}}  importers  affected  changed  sound  narrow ms",
        f"{'-' * width}  ---------  --------  -------  -----  ---------",
    ]
    for r in rows:
        sound = "yes" if not r.unsound else "NO"
        lines.append(
            f"{r.case:<{width}}  {r.importers:>9}  {r.affected:>8}  "
            f"{len(r.changed):>7}  {sound:>5}  {r.narrow_ms:>9.1f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--only", help="run the cases whose name contains this")
    parser.add_argument("--generated", action="store_true", help="add the seeded patches")
    parser.add_argument("--verbose", action="store_true", help="list the files of every row")
    args = parser.parse_args(argv)
    workload = prepare_workload(HTTPX)
    protocols = library_protocols(workload.python)
    scratch = Path(tempfile.mkdtemp(prefix="prewrite-name-deps-"))
    rows: list[Row] = []
    try:
        trees: dict[str, Tree] = {}
        cases = [c for c in CASES if not args.only or args.only in c.name]
        for base in sorted({c.base for c in cases} | ({"released"} if args.generated else set())):
            copy: Workload = copy_workspace(workload, scratch / base)
            if base == "tempting":
                apply(copy.root, TEMPTING)
            trees[base] = Tree(copy.root, copy.python, protocols)
            tree = trees[base]
            files = len(tree.names.files())
            print(
                f"{base}: cold pyright {tree.base_s:.1f} s, "
                f"NameGraph.update of {files} files {tree.update_ms:.0f} ms",
                flush=True,
            )
        if args.generated:
            cases += generated_cases(trees["released"])
        for patch in cases:
            row = trees[patch.base].check(patch)
            rows.append(row)
            print(
                f"  {row.case}: importers {row.importers}, affected {row.affected}, changed "
                f"{row.changed}{'' if not row.unsound else f' UNSOUND: {row.unsound}'}",
                flush=True,
            )
            if args.verbose and row.fallbacks:
                print(f"    fallbacks: {row.fallbacks}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print()
    print(render(rows))
    unsound = [r for r in rows if r.unsound]
    total_i, total_a = sum(r.importers for r in rows), sum(r.affected for r in rows)
    print(
        f"\n{len(rows)} patches, {len(unsound)} unsound; importers {total_i} -> affected "
        f"{total_a} files ({total_a / max(total_i, 1):.0%})"
    )
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())

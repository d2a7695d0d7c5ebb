"""The interface-changing patches to httpx that ``bench.name_deps_check`` runs (``CASES``), on
httpx as released and on the tempting tree (``bench.name_deps_tempting``), with the httpx paths
and source fragments they edit."""

from __future__ import annotations

from bench.name_deps_edits import Case, Edit, case

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

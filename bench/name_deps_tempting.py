"""The tempting tree: files added to httpx (``TEMPTING``) that reach a changed name in ways a
name-level pruner could miss; the ``"tempting"`` cases of ``bench.name_deps_cases`` run on it."""

from __future__ import annotations

from bench.name_deps_cases import ENC, INIT, C, M
from bench.name_deps_edits import Edit

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

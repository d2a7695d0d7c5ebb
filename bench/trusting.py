"""What the bench's own daemons trust: the staged workspace, and the workload's environment.

A trusted workspace is judged as its CI judges it: its interpreter runs, and its own mypy judges
where its environment has one (pytest's pinned mypy 1.11.2: prewrite's bundled mypy 2.x no
longer checks the Python 3.8 its configuration targets). The workloads' venvs live in the cache
under this repository (``tests.support.workloads``), and a venv inside a repository the user has
not trusted never runs (``languages.python.interpreter_trust``): the bench, which provisioned
it, trusts that cache folder too. The list is private to the bench's daemons
(``PREWRITE_TRUST_FILE``, read by a daemon when it starts), never the user's.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Generator, Iterable


def environment_folder(python: str) -> Path:
    """The folder holding the venv of ``python`` (``<folder>/venv/bin/python``), resolved as the
    daemon resolves it (the cache may be reached through a link)."""
    return Path(os.path.realpath(Path(python).parent)).parent.parent


@contextlib.contextmanager
def trusting(roots: Iterable[Path], trust_file: Path) -> Generator[None]:
    """Daemons started in the block trust ``roots`` (their trust list is ``trust_file``)."""
    trust_file.parent.mkdir(parents=True, exist_ok=True)
    trust_file.write_text("".join(f"{Path(root).resolve()}\n" for root in roots), "utf-8")
    old = os.environ.get("PREWRITE_TRUST_FILE")
    os.environ["PREWRITE_TRUST_FILE"] = str(trust_file)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("PREWRITE_TRUST_FILE", None)
        else:
            os.environ["PREWRITE_TRUST_FILE"] = old

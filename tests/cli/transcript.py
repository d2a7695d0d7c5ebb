"""Running the ``prewrite`` command as a user would, and reading what it said."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite.runtime import RuntimePaths

PREWRITE = str(Path(sys.executable).with_name("prewrite"))


@dataclass(frozen=True)
class Transcript:
    code: int
    out: str
    err: str


@dataclass(frozen=True)
class Cli:
    """``prewrite`` with its own environment (runtime dir); ``timeout_s`` bounds each call."""

    paths: RuntimePaths
    env: dict[str, str]
    timeout_s: float = 60.0

    def __call__(self, *args: str, stdin: str | None = None) -> Transcript:
        done = subprocess.run(
            [PREWRITE, *args],
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=self.timeout_s,
            check=False,
        )
        return Transcript(done.returncode, done.stdout, done.stderr)

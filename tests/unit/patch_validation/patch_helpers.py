"""Shared by the patch validation tests: the base hash an honest client sends for a text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite.changes import sha256_hex

if TYPE_CHECKING:
    from pathlib import Path


def sha256_of(path: Path) -> str:
    return sha256_hex(path.read_bytes())

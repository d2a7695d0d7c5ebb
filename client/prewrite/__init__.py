"""prewrite: check a multi-file patch in a warm type checker before it touches disk.

``import prewrite`` needs only the standard library and msgspec.
"""

from __future__ import annotations

__version__ = "0.1.0"

from prewrite.changes import change_file, delete_file, new_file, sha256_hex
from prewrite.client import Client
from prewrite.errors import PrewriteError
from prewrite.protocol import CheckReply, Diagnostic, FileChange, Patch

__all__ = [
    "CheckReply",
    "Client",
    "Diagnostic",
    "FileChange",
    "Patch",
    "PrewriteError",
    "__version__",
    "change_file",
    "delete_file",
    "new_file",
    "sha256_hex",
]

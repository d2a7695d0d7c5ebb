"""Where the per-user daemon lives: runtime dir, socket, status file, lock, log, state.

``PREWRITE_RUNTIME_DIR`` overrides the runtime dir (tests run their own daemon that way);
otherwise ``$XDG_RUNTIME_DIR/prewrite``, else a 0700 dir under the user's cache.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import msgspec


class DaemonStatusFile(msgspec.Struct, frozen=True):
    """Written by the daemon once it listens; removed before it answers ``stop``."""

    pid: int
    socket: str
    version: str
    protocol_version: int


@dataclass(frozen=True)
class RuntimePaths:
    runtime_dir: Path

    @property
    def socket(self) -> Path:
        return self.runtime_dir / "daemon.sock"

    @property
    def status_file(self) -> Path:
        return self.runtime_dir / "daemon.json"

    @property
    def lock_file(self) -> Path:
        return self.runtime_dir / "daemon.lock"

    @property
    def log_file(self) -> Path:
        return self.runtime_dir / "daemon.log"

    @property
    def state_dir(self) -> Path:
        """Where the daemon keeps shadow trees and records (not under tmpfs unless overridden)."""
        override = os.environ.get("PREWRITE_RUNTIME_DIR")
        if override:
            return Path(override) / "state"
        return _cache_home() / "prewrite" / "state"


def _cache_home() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) if xdg else Path.home() / ".cache"


def runtime_paths() -> RuntimePaths:
    """Resolve the runtime dir for the current user (not created here)."""
    override = os.environ.get("PREWRITE_RUNTIME_DIR")
    if override:
        return RuntimePaths(Path(override))
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and Path(xdg).is_dir():
        return RuntimePaths(Path(xdg) / "prewrite")
    return RuntimePaths(_cache_home() / "prewrite" / f"run-{os.getuid()}")


def ensure_private_dir(path: Path) -> None:
    """Create ``path`` as a 0700 directory owned by us, refusing one that others can enter."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    st = path.stat()
    if st.st_uid != os.getuid():
        raise PermissionError(f"{path} is owned by uid {st.st_uid}, not by us")
    if st.st_mode & 0o077:
        path.chmod(0o700)


def read_status(paths: RuntimePaths) -> DaemonStatusFile | None:
    """The daemon's status file, or None when absent or unreadable."""
    try:
        return msgspec.json.decode(paths.status_file.read_bytes(), type=DaemonStatusFile)
    except (OSError, msgspec.DecodeError):
        return None

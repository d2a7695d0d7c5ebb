"""A write's journal and the recovery from it: what a transaction plans, kept durably.

The journal (``journal.json`` in the transaction's directory) holds the whole plan: each target's
hashes before and after, its staged new content and the undo copy of its original, the
directories made for new files, and the state (``prepared``, ``committed``, ``done``); it is
replaced atomically and its directory fsynced at every change of state.

``recover`` (at start-up and before the next write to a workspace) rolls a ``prepared``
transaction back and a ``committed`` one forward, so after any crash the tree is byte-equal to
all-before or all-after and no temporary file remains. ``revert`` puts the previous bytes back
after a completed write.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from prewrite.files import SOURCE_LIMIT, read_regular


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(path: Path) -> bytes | None:
    return read_regular(path, SOURCE_LIMIT)  # a FIFO or device is refused, never read


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durable(path: Path, data: bytes, mode: int | None) -> None:
    """Create ``path`` (must not exist), write, fsync; ``mode`` None = the usual (umask)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Entry:
    path: str  # relative to the root
    before: str | None  # sha256 of the bytes validated against; None = must not exist
    after: str | None  # sha256 of the new bytes; None = delete
    stage: str | None  # absolute path of the staged new content
    undo: str | None  # absolute path of the copy of the original
    mode: int | None = None  # the original's permission bits, restored with it


@dataclass(frozen=True)
class Plan:
    txn: str
    root: str
    state: str  # prepared | committed | done
    entries: tuple[Entry, ...]
    created_dirs: tuple[str, ...]  # made for new files; removed again on rollback


def save_plan(journal: Path, plan: Plan) -> None:
    tmp = journal.with_suffix(".tmp")
    data = json.dumps(asdict(plan)).encode()
    tmp.unlink(missing_ok=True)
    write_durable(tmp, data, 0o600)
    os.replace(tmp, journal)
    fsync_dir(journal.parent)


def _load_plan(journal: Path) -> Plan:
    raw = json.loads(journal.read_text())
    entries = tuple(Entry(**e) for e in raw["entries"])
    return Plan(raw["txn"], raw["root"], raw["state"], entries, tuple(raw["created_dirs"]))


def current_sha(path: Path) -> str | None:
    data = _read(path)
    return sha(data) if data is not None else None


def undo_swapped(root: Path, entries: list[Entry]) -> None:
    """Put back the originals of entries already swapped in (from their undo copies)."""
    for entry in reversed(entries):
        target = root / entry.path
        if entry.undo is not None:
            restore = target.parent / f".{target.name}.prewrite-restore.tmp"
            restore.unlink(missing_ok=True)
            shutil.copyfile(entry.undo, restore)
            if entry.mode is not None:
                os.chmod(restore, entry.mode)
            os.replace(restore, target)
        else:
            target.unlink(missing_ok=True)


def rollback(plan: Plan) -> None:
    """Undo a transaction that did not commit: remove its stages and the dirs it made."""
    for entry in plan.entries:
        if entry.stage is not None:
            Path(entry.stage).unlink(missing_ok=True)
    for d in reversed(plan.created_dirs):
        try:
            Path(d).rmdir()
        except OSError:
            pass  # not empty (someone else wrote there) or already gone


def roll_forward(plan: Plan) -> None:
    """Finish a committed transaction: every target ends with its new bytes (or gone)."""
    root = Path(plan.root)
    for entry in plan.entries:
        target = root / entry.path
        if entry.stage is not None and Path(entry.stage).exists():
            os.replace(entry.stage, target)
        elif entry.after is None and current_sha(target) == entry.before:
            target.unlink(missing_ok=True)


def recover(journal_dir: Path) -> list[str]:
    """Finish or undo every interrupted transaction under ``journal_dir``; returns their ids."""
    recovered: list[str] = []
    if not journal_dir.is_dir():
        return recovered
    for txn_dir in sorted(p for p in journal_dir.iterdir() if p.is_dir()):
        journal = txn_dir / "journal.json"
        if journal.exists():
            plan = _load_plan(journal)
            if plan.state == "prepared":
                rollback(plan)
            elif plan.state == "committed":
                roll_forward(plan)
            recovered.append(plan.txn)
        shutil.rmtree(txn_dir, ignore_errors=True)
    return recovered


def revert(plan: Plan) -> list[str]:
    """Put the previous bytes back after a completed write (a failed disk rung, opted in).

    A target that changed again since the write (an editor) is left alone and reported.
    """
    root = Path(plan.root)
    kept: list[str] = []
    for entry in plan.entries:
        target = root / entry.path
        if current_sha(target) != entry.after:
            kept.append(entry.path)
            continue
        undo_swapped(root, [entry])
    for d in reversed(plan.created_dirs):
        try:
            Path(d).rmdir()
        except OSError:
            pass
    return kept

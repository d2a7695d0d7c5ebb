"""The all-or-nothing, crash-safe multi-file write: a journalled transaction per apply.

Order of a transaction (the numbered steps are where the crash tests stop the writer):

1. the journal is written, state ``prepared``, with the whole plan (stage and undo paths);
2. every new content is staged in a temporary file beside its target and fsynced; every
   existing target is copied to an undo file in the journal's directory;
3. every target is re-read: a byte that moved since validation (an editor saved) aborts;
4. the journal is marked ``committed`` — from here recovery rolls forward;
5. stages are renamed into place and deletions done, one by one, each target re-checked just
   before (an editor's save wins: what was renamed is undone, the editor's bytes stay);
6. directories are fsynced and the journal is marked ``done``;
7. stages, undo copies and the journal are removed.

``recover`` (at start-up and before the next write to a workspace) rolls a ``prepared``
transaction back and a ``committed`` one forward, so after any crash the tree is byte-equal to
all-before or all-after and no temporary file remains. Nothing is written through a symlink.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import stat
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from prewrite.errors import ErrorDetail, ForbiddenPath, StaleBase, WriteFailed
from prewrite.files import SOURCE_LIMIT, read_regular

StepHook = Callable[[str], None]


def _no_hook(_step: str) -> None:
    return None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(path: Path) -> bytes | None:
    return read_regular(path, SOURCE_LIMIT)  # a FIFO or device is refused, never read


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_durable(path: Path, data: bytes, mode: int | None) -> None:
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


def _save_plan(journal: Path, plan: Plan) -> None:
    tmp = journal.with_suffix(".tmp")
    data = json.dumps(asdict(plan)).encode()
    tmp.unlink(missing_ok=True)
    _write_durable(tmp, data, 0o600)
    os.replace(tmp, journal)
    _fsync_dir(journal.parent)


def _load_plan(journal: Path) -> Plan:
    raw = json.loads(journal.read_text())
    entries = tuple(Entry(**e) for e in raw["entries"])
    return Plan(raw["txn"], raw["root"], raw["state"], entries, tuple(raw["created_dirs"]))


def check_no_symlink(root: Path, rel: str) -> None:
    """Refuse a target that is, or lies under, a symlink."""
    current = root
    for part in rel.split("/"):
        current = current / part
        if current.is_symlink():
            raise ForbiddenPath(
                f"{rel}: refusing to write through the symlink {current.relative_to(root)}",
                [ErrorDetail("symlink", rel)],
            )


class Transaction:
    """One apply: ``changes`` maps root-relative paths to new bytes (None = delete)."""

    def __init__(
        self,
        root: Path,
        journal_dir: Path,
        changes: dict[str, bytes | None],
        bases: dict[str, bytes | None],
        hook: StepHook | None = None,
    ) -> None:
        self.root = root
        self.changes = changes
        self.bases = bases
        self.hook: StepHook = hook or _no_hook
        self.txn = secrets.token_hex(6)
        self.dir = journal_dir / self.txn
        self.journal = self.dir / "journal.json"

    def _step(self, name: str) -> None:
        self.hook(name)

    def _plan(self) -> Plan:
        entries: list[Entry] = []
        created: list[str] = []
        for rel, data in sorted(self.changes.items()):
            check_no_symlink(self.root, rel)
            target = self.root / rel
            base = self.bases[rel]
            stage = None
            if data is not None:
                stage = str(target.parent / f".{target.name}.prewrite-{self.txn}.tmp")
                missing = [p for p in target.parents if not p.exists() and self.root in p.parents]
                created += [str(p) for p in reversed(missing) if str(p) not in created]
            undo = str(self.dir / f"undo-{len(entries)}") if base is not None else None
            mode = stat.S_IMODE(target.stat().st_mode) if base is not None else None
            entries.append(
                Entry(rel, _sha(base) if base is not None else None,
                      _sha(data) if data is not None else None, stage, undo, mode)
            )  # fmt: skip
        return Plan(self.txn, str(self.root), "prepared", tuple(entries), tuple(created))

    def run(self) -> Plan:
        """Write everything or nothing; returns the finished plan (state ``done``)."""
        plan = self._plan()
        try:
            self.dir.mkdir(parents=True, mode=0o700)
            _save_plan(self.journal, plan)
        except OSError as exc:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise WriteFailed(f"cannot write the journal: {exc}; nothing was written") from exc
        self._step("journal")
        try:
            self._stage(plan)
            self._step("staged")
            self._verify(plan)
        except BaseException as exc:
            rollback(plan)
            shutil.rmtree(self.dir, ignore_errors=True)
            if isinstance(exc, OSError):
                raise WriteFailed(f"cannot write the patch: {exc}; nothing was written") from exc
            raise
        plan = Plan(plan.txn, plan.root, "committed", plan.entries, plan.created_dirs)
        _save_plan(self.journal, plan)
        self._step("committed")
        self._swap(plan)
        plan = Plan(plan.txn, plan.root, "done", plan.entries, plan.created_dirs)
        _save_plan(self.journal, plan)
        self._step("done")
        return plan

    def _stage(self, plan: Plan) -> None:
        for d in plan.created_dirs:
            Path(d).mkdir(exist_ok=True)
        for entry in plan.entries:
            target = self.root / entry.path
            if entry.undo is not None:
                original = self.bases[entry.path]
                assert original is not None
                _write_durable(Path(entry.undo), original, 0o600)
            if entry.stage is not None:
                data = self.changes[entry.path]
                assert data is not None
                mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
                try:
                    _write_durable(Path(entry.stage), data, mode)
                except OSError as exc:
                    raise WriteFailed(
                        f"cannot stage {entry.path}: {exc.strerror}",
                        [ErrorDetail(exc.strerror or "write failed", entry.path)],
                    ) from exc
        _fsync_dir(self.dir)

    def _verify(self, plan: Plan) -> None:
        moved = [
            ErrorDetail("changed on disk during the apply (kept as it is)", e.path)
            for e in plan.entries
            if _current(self.root / e.path) != e.before
        ]
        if moved:
            raise StaleBase("files changed since they were checked; nothing was written", moved)

    def _swap(self, plan: Plan) -> None:
        done: list[Entry] = []
        for entry in plan.entries:
            target = self.root / entry.path
            if _current(target) != entry.before:  # an editor saved just now: its bytes win
                undo_swapped(self.root, done)
                rollback(plan)
                shutil.rmtree(self.dir, ignore_errors=True)
                raise StaleBase(
                    "a file changed while the patch was being written; nothing of it remains",
                    [ErrorDetail("changed during the write (kept as it is)", entry.path)],
                )
            if entry.stage is not None:
                os.replace(entry.stage, target)
            else:
                target.unlink()
            done.append(entry)
            self._step("swapped")
        for parent in {(self.root / e.path).parent for e in plan.entries}:
            if parent.exists():
                _fsync_dir(parent)

    def cleanup(self, plan: Plan) -> None:
        self._step("cleanup")
        shutil.rmtree(self.dir, ignore_errors=True)


def _current(path: Path) -> str | None:
    data = _read(path)
    return _sha(data) if data is not None else None


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
        elif entry.after is None and _current(target) == entry.before:
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
        if _current(target) != entry.after:
            kept.append(entry.path)
            continue
        undo_swapped(root, [entry])
    for d in reversed(plan.created_dirs):
        try:
            Path(d).rmdir()
        except OSError:
            pass
    return kept

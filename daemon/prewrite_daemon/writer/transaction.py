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

The journal, and the recovery that rolls an interrupted transaction back or forward, are
``journal``'s. Nothing is written through a symlink.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from prewrite.errors import ErrorDetail, ForbiddenPath, StaleBase, WriteFailed
from prewrite_daemon.writer.journal import (
    Entry,
    Plan,
    current_sha,
    fsync_dir,
    rollback,
    save_plan,
    sha,
    undo_swapped,
    write_durable,
)

StepHook = Callable[[str], None]


def _no_hook(_step: str) -> None:
    return None


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
                Entry(rel, sha(base) if base is not None else None,
                      sha(data) if data is not None else None, stage, undo, mode)
            )  # fmt: skip
        return Plan(self.txn, str(self.root), "prepared", tuple(entries), tuple(created))

    def run(self) -> Plan:
        """Write everything or nothing; returns the finished plan (state ``done``)."""
        plan = self._plan()
        try:
            self.dir.mkdir(parents=True, mode=0o700)
            save_plan(self.journal, plan)
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
        save_plan(self.journal, plan)
        self._step("committed")
        self._swap(plan)
        plan = Plan(plan.txn, plan.root, "done", plan.entries, plan.created_dirs)
        save_plan(self.journal, plan)
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
                write_durable(Path(entry.undo), original, 0o600)
            if entry.stage is not None:
                data = self.changes[entry.path]
                assert data is not None
                mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
                try:
                    write_durable(Path(entry.stage), data, mode)
                except OSError as exc:
                    raise WriteFailed(
                        f"cannot stage {entry.path}: {exc.strerror}",
                        [ErrorDetail(exc.strerror or "write failed", entry.path)],
                    ) from exc
        fsync_dir(self.dir)

    def _verify(self, plan: Plan) -> None:
        moved = [
            ErrorDetail("changed on disk during the apply (kept as it is)", e.path)
            for e in plan.entries
            if current_sha(self.root / e.path) != e.before
        ]
        if moved:
            raise StaleBase("files changed since they were checked; nothing was written", moved)

    def _swap(self, plan: Plan) -> None:
        done: list[Entry] = []
        for entry in plan.entries:
            target = self.root / entry.path
            if current_sha(target) != entry.before:  # an editor saved just now: its bytes win
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
                fsync_dir(parent)

    def cleanup(self, plan: Plan) -> None:
        self._step("cleanup")
        shutil.rmtree(self.dir, ignore_errors=True)

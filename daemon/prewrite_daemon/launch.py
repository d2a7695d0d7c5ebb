"""The daemon's command line: check what it needs, detach, take the lock, spawn the ready
pyright, and only then load the daemon (``app``) and serve.

Everything here imports light (the standard library, msgspec, the client's runtime paths): the
daemon's own code takes ~0.5 s to load, and the ready pyright (``backends.ready``) loads its
node code meanwhile instead of after (``backends.spawned_ahead``).
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from prewrite.errors import PrewriteError, StateDirUnwritable
from prewrite.runtime import RuntimePaths, ensure_private_dir, runtime_paths
from prewrite_daemon.backends.node import sanitized_path
from prewrite_daemon.backends.pyright_command import langserver_argv, server_env
from prewrite_daemon.backends.spawned_ahead import discard, spawn_ahead
from prewrite_daemon.limits import check_state_dir
from prewrite_daemon.memory import default_budget, parse_budget

if TYPE_CHECKING:
    from collections.abc import Sequence

log = logging.getLogger("prewrite_daemon")


# No request and no editor for this long: the daemon exits, its checkers' memory with it.
DEFAULT_IDLE_TIMEOUT_S = 3 * 3600.0


def _env_float(name: str, default: float | None = None) -> float | None:
    """A number set in the environment, or ``default`` (None: the daemon's own applies)."""
    value = os.environ.get(name)
    return float(value) if value else default


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prewrite-daemon", description="Run the prewrite daemon in the foreground."
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=_env_float("PREWRITE_IDLE_TIMEOUT_S", DEFAULT_IDLE_TIMEOUT_S),
        help="exit after this many seconds without a request or an attached editor, freeing "
        "every warm checker; the next request starts it again (default 3 hours; 0: never)",
    )
    parser.add_argument(
        "--memory-budget",
        default=os.environ.get("PREWRITE_MEMORY_BUDGET", ""),
        help="what the warm checkers may hold together, as a size (2G, 1500M) or a share of the "
        "RAM (25%%): past it the least recently used idle workspaces stop, and a checker holding "
        "more than its share is restarted at its next check (default 25%% of the RAM)",
    )
    parser.add_argument("--log-level", default=os.environ.get("PREWRITE_LOG_LEVEL", "INFO"))
    parser.add_argument(
        "--max-warm",
        type=int,
        default=int(os.environ.get("PREWRITE_MAX_WARM", "4")),
        help="warm checkers kept at once; the least recently used beyond it stop (default 4)",
    )
    parser.add_argument(
        "--editor-spare-idle",
        type=float,
        default=_env_float("PREWRITE_SPARE_IDLE_S"),
        help="an editor's spare checker (started while an agent check holds the warm one) "
        "stops after this many unused seconds; 0: no spares, editors wait (default 60)",
    )
    parser.add_argument(
        "--planning-budget",
        type=float,
        default=_env_float("PREWRITE_PLANNING_BUDGET_S"),
        help="seconds a check may spend narrowing which importers to compare (never more than "
        "half its deadline leaves); past it, every importer is compared (default 2)",
    )
    parser.add_argument(
        "--no-ready-checker",
        action="store_true",
        default=os.environ.get("PREWRITE_READY_CHECKER") == "0",
        help="start no pyright ahead of need (one waits, unbound, for the next workspace or "
        "restart: ~100 MB, and the first check does not pay the server's start)",
    )
    parser.add_argument(
        "--no-worktree-warmup",
        action="store_true",
        default=os.environ.get("PREWRITE_WORKTREE_WARMUP") == "0",
        help="do not warm up a new git worktree of a warm repository as it appears (by default "
        "its checker starts and primes its bases at once, within --max-warm, so that an agent's "
        "first check there is answered warm)",
    )
    parser.add_argument(
        "--detach", action="store_true", help="fork into the background (used by auto-start)"
    )
    return parser


def _sanitize_environment() -> None:
    # A daemon started from a repository's scripts inherits what they set for node: Yarn PnP's
    # NODE_OPTIONS=--require <repo>/.pnp.cjs, a NODE_PATH into its tree. Every node child
    # (pyright, TypeScript, cold and warm, for every workspace) would load that code.
    for variable in ("NODE_OPTIONS", "NODE_PATH"):
        os.environ.pop(variable, None)
    # Its PATH too: node_modules/.bin, an activated venv's bin (backends.node).
    own_bin = os.path.dirname(sys.executable)
    os.environ["PATH"] = sanitized_path(os.environ.get("PATH", ""), own_bin)


def _spawn_ready_pyright(paths: RuntimePaths) -> None:
    """The ready pyright's process, spawned now to load while the daemon does; the ready
    checker adopts it (the same command, directory and environment: ``Registry``'s)."""
    try:
        argv = langserver_argv()
    except PrewriteError:
        return  # the ready checker's own start says what is missing
    spawn_ahead(argv, paths.state_dir / "ready", server_env())


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("pygls").setLevel(logging.ERROR)
    _sanitize_environment()
    paths = runtime_paths()
    # Before forking, so a launcher that cannot work says why in its exit status and output.
    try:
        ensure_private_dir(paths.runtime_dir)
    except OSError as exc:
        log.error("cannot start: the runtime directory %s: %s", paths.runtime_dir, exc)
        return 1
    try:
        check_state_dir(paths.state_dir)
    except StateDirUnwritable as exc:
        log.error("cannot start: %s", exc)
        return 1
    try:
        budget = parse_budget(args.memory_budget) if args.memory_budget else default_budget()
    except ValueError as exc:
        log.error("cannot start: --memory-budget: %s", exc)
        return 1
    if args.detach and os.fork() > 0:
        os._exit(0)  # the launcher returns at once; the daemon is reparented to init
    with paths.lock_file.open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log.info("another prewrite daemon holds %s; exiting", paths.lock_file)
            return 0
        if not args.no_ready_checker:
            _spawn_ready_pyright(paths)
        from prewrite_daemon.app import Daemon  # the daemon's code loads while pyright's does

        options: dict[str, Any] = {
            "ready_checker": not args.no_ready_checker,
            "memory_budget": budget,
            "worktree_warmup": not args.no_worktree_warmup,
        }
        if args.editor_spare_idle is not None:
            options["spare_idle_s"] = args.editor_spare_idle
        if args.planning_budget is not None:
            options["planning_budget_s"] = max(0.0, args.planning_budget)
        idle = args.idle_timeout if args.idle_timeout > 0 else None
        daemon = Daemon(paths, idle, max(1, args.max_warm), **options)
        try:
            asyncio.run(daemon.run())
        finally:
            discard()  # never adopted (the ready checker did not start, or the daemon failed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Starting a workspace's checker at a check's admission: why a running one gives way, how many
crashes are tolerated, and where a new one comes from.

A changed environment (config, installed packages, interpreter) restarts the checker: restart is
the policy because pyright applies such changes asynchronously, so no pull could prove it saw
them; so does a resync (watching or the graph failed). A checker that died is restarted too, but
at most ``MAX_CRASH_RESTARTS`` times in ``CRASH_WINDOW_S``: then the check fails. A new checker is
the registry's ready one bound to the shadow (``backends.ready``) when there is one, else a new
process.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed

if TYPE_CHECKING:
    from prewrite_daemon.backends.base import Backend
    from prewrite_daemon.languages.fingerprint import Fingerprint
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

MAX_CRASH_RESTARTS = 3
CRASH_WINDOW_S = 300.0


class Crashes:
    """A workspace checker's crashes within the last ``CRASH_WINDOW_S``."""

    def __init__(self) -> None:
        self._times: list[float] = []

    def count(self) -> None:
        """Count one more; raises ``BackendFailed`` if the window holds too many already."""
        now = time.monotonic()
        self._times = [t for t in self._times if now - t < CRASH_WINDOW_S]
        if len(self._times) >= MAX_CRASH_RESTARTS:
            raise BackendFailed(
                f"the checker failed {MAX_CRASH_RESTARTS} times in {CRASH_WINDOW_S:.0f}s; "
                "see the daemon log"
            )
        self._times.append(now)


def restart_reason(ws: Workspace, backend: Backend, healthy: bool, env: Fingerprint) -> str:
    """Why ``ws``'s checker (which finished starting) gives way to a new one for ``env``; a
    crash is counted (too many: ``BackendFailed``)."""
    if healthy and ws.backend_env is not None and ws.backend_env != env:
        return "environment changed: " + ", ".join(ws.backend_env.moved(env))
    if ws.resync_needed:
        return f"{ws.resync_reason}: full resync"
    ws.crashes.count()
    return f"checker {backend.state.value}"


async def new_backend(ws: Workspace) -> Backend:
    """A checker over ``ws``'s shadow: the registry's ready one bound to it, or a new one."""
    root, ready = ws.shadow.shadow_root, None
    if ws.take_ready is not None:
        ready = await ws.take_ready(ws.language)
    if ready is not None:
        try:
            backend = ws.language.make_backend(root, ws.env, ws.run_python, ready)
        except BackendFailed as exc:  # it died meanwhile: a new one, as without it
            log.warning("the ready checker could not take %s: %s", ws.root, exc)
            await ready.stop()
        else:
            if backend is not ready:  # the language did not bind it: not needed
                await ready.stop()
            return backend
    return ws.language.make_backend(root, ws.env, ws.run_python)

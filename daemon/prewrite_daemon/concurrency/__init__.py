"""Locks and threads the daemon's event loop relies on: the workspace lock that lets editors
ahead of waiting agent checks (``priority_lock``), a lock a background holder yields at once
(``preemptible_lock``), CPU-bound work in a thread that can be interrupted (``interruptible``).

May import: the standard library only.
"""

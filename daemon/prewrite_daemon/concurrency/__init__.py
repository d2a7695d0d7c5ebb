"""Locks and threads the daemon's event loop relies on: the workspace lock that lets editors
ahead of waiting agent checks (``concurrency.priority_lock``), a lock a background holder yields at
once (``concurrency.preemptible_lock``), CPU-bound work in a thread that can be interrupted
(``concurrency.interruptible``), the lock every ``ast.parse`` holds (``concurrency.parse_lock``).

May import: the standard library only.
"""

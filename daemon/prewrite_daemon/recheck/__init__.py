"""A narrowed green checked again while the workspace is idle: ``pending`` (what awaits a
re-check), ``idle`` (the re-checker, preempted at once by any request), ``misses`` (a
disagreement recorded, narrowing switched off, clients told).

May import: ``check``, ``concurrency``, ``limits`` and the core's workspace.
"""

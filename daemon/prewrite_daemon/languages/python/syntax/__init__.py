"""Python texts parsed once per check (``parse_cache``), large ones in a child process
(``parse_child``), syntax newer than the daemon's Python under the project's grammar (``newer``,
``newer_cst``).

May import: ``backends.process``, ``concurrency.parse_lock`` and the standard library (and
libcst, lazily).
"""

"""Python, judged by pyright (or basedpyright, the same language object with its flavour), or by
mypy (``mypy``: dmypy warm): the language objects (``language``), the interpreter and the
environment's fingerprint (``environment``, ``interpreter_query``, ``interpreter_trust``), what
the checker reads (``layout``, ``checker_config``), and the dependency analysis the planner
narrows with: ``names`` (name-level dependencies), ``syntax`` (parsing under the project's
grammar), ``protocols`` (Protocol member names by binding, the library scan).

May import: ``backends``, ``concurrency``, ``limits``, ``check.patch`` and the language seam;
never the core's session, editors or agents.
"""

"""Editors attached to the daemon: ``prewrite lsp`` sessions served by the warm checkers.

May import: the core (session, workspace), ``check``, ``backends``, ``concurrency``; never
agents.
"""

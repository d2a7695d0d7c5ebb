"""Editors attached to the daemon: ``prewrite lsp`` sessions served by the warm checkers."""

"""The language seam (``base``): everything that differs between languages, one object per
language (``python``, ``typescript``), and what both read (``jsonc``). The core asks the
language object; it never imports a language's internals. Python's type checkers (``checkers``:
pyright, mypy, basedpyright, the ones a repository configures) are each a language object of
their own to the core (``registry.PYTHON_CHECKERS``).
"""

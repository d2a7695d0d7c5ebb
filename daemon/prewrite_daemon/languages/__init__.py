"""The language seam (``base``): everything that differs between languages, one object per
language (``python``, ``typescript``), and what both read (``jsonc``). The core asks the
language object; it never imports a language's internals.
"""

"""Protocol member names the checker can see: in the workspace, by binding rather than spelling
(``names``, ``scopes``, ``bound``, ``keys``, ``syntax``), and in the interpreter's packages and
pyright's bundled stubs (``roots``: the trees an environment's checker reads; ``library``: their
scan, ``scan``, in an isolated child, cached on disk per environment by ``levels``,
``answer``, ``files``, ``imports``).

May import: ``syntax``, ``backends`` and the standard library.
"""

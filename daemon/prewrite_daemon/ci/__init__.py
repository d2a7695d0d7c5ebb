"""What the repository's CI runs, read from its files and never executed.

Owns: reading workflows, pre-commit, tox, nox, Makefile and package.json (``files``, ``sources``),
recognising tool invocations and their arguments (``commands``, each tool's grammar in
``grammars``), the records (``runs``). Used by ``prewrite doctor`` (to show the ladder beside
CI) and by checkers that follow CI's command line (mypy's targets and settings). May import: the
client's files and errors, PyYAML; nothing of the daemon's core, languages, ladder or doctor.
"""

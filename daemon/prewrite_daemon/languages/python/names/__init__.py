"""Which files can see a change to a Python module, name by name: per-file summaries
(``summary``, ``symbols``, ``mentions``), what changed (``symbol_changes``), its spread to a
fixpoint (``propagation``), renames (``renames``, ``rename_census``), the module import graph
(``imports``) and the graph the planner asks (``deps``). Anything not modelled widens to every
importer.

May import: ``syntax``, ``protocols`` and the standard library.
"""

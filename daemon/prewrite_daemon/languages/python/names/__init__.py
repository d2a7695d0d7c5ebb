"""Which files can see a change to a Python module, name by name. The graph the planner asks
(``deps``: ``NameGraph`` and the rules) and one narrowing of it (``narrowing``); per-file
summaries (``summary``), their tags resolved through the file's imports (``resolver``), the
regions they come from (``symbols``, built of ``declarations``, reading ``node_facts`` and
``mentions``); what changed (``symbol_changes``), its spread to a fixpoint (``propagation``),
with the kinds of classes it crosses (``class_kinds``); renames (``renames``,
``rename_census``); the module import graph (``imports``). Anything not modelled widens to every
importer.

May import: ``syntax``, ``protocols`` and the standard library.
"""

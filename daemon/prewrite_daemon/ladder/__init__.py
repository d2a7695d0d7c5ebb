"""The validation ladder: cheapest rung first, the first failure ends it (``runner``): path
policy, anchored edits, parse, format, lint (ruff, the workspace's node tools), suppressions,
protected snippets, the type check (``check``), the review, the disk rungs. Its definition is
the workspace's ``[tool.prewrite]`` (``config``; each key's value: ``config_values``); a run
ends in one reply (``verdict``).

May import: ``check``, ``backends``, ``languages`` (the parse rung reads Python and other
formats), ``limits``; never the session, editors or agents.
"""

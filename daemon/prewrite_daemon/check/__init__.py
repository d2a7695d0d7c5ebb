"""One patch's type check: from a prepared patch to the diagnostics it introduced.

``patch`` (the prepared patch every rung reads), ``routing`` (which languages' checkers judge
it), ``judge`` (one workspace's verdict: the warm overlay check, or the cold CLI where it
decides), ``planning`` (which importers to compare, off the event loop within a budget),
``overlays`` (a patch laid over the warm checker and taken back), ``diagnostics`` (the
line-shift-robust diff), ``freshness`` (answered only on the state it was computed on),
``check.coldcheck`` and ``check.config_change`` (the cold path), ``checker_start`` (the warm
checker's (re)start policy at admission), ``scope``, ``check.graph_keeper``.

May import: ``backends``, ``concurrency``, ``limits``, the language seam (``languages.base``)
and the core's workspace and checker. Never a language's internals: what differs by language
is asked of the language object.
"""

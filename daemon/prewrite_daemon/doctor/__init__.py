"""``prewrite doctor``: the ladder beside CI. For each rung, the tool prewrite runs (its version,
where it comes from, the configuration it reads, its command line) next to what the
repository's CI runs (read from its files, never executed), with every difference marked; and
the setup a newcomer needs (trust, interpreter, daemon, ``prewrite`` on ``PATH``).

The design's rule is that every rung runs the tool, version and configuration CI runs; this
package is the check of that rule, as a command (``python -m prewrite_daemon.doctor``, which the
light client execs). Prewrite's side (``ladder_tools``) asks the functions the daemon itself
uses — ``ladder.config``, ``ladder.ruff``, ``languages.checkers``, the languages' environments —
so the answer is the daemon's, not a second opinion. CI's side is read from its files
(``ci_files``) and its command lines recognised (``ci_commands``); ``compare`` marks the
mismatches, ``setup_state`` the newcomer's state, ``render`` prints.

May import: the client package, ``ladder``, ``languages``, ``backends``; nothing that serves
(no app, rpc, session, entry, workspace, editor or agent): it runs in a process of its own.
"""

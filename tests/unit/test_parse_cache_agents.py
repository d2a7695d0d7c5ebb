"""The parse, summary and interface caches keep the base texts of eight agents checking
different files at once in uneven turns: each check reads its base and its candidate, and with
16 kept the agents evicted each other's bases (every check parsed, summarised and dumped its
base again)."""

from __future__ import annotations

import random

from prewrite_daemon.languages.python.names.imports import interface_changed, interface_of
from prewrite_daemon.languages.python.names.summary import summarize
from prewrite_daemon.languages.python.syntax.parse_cache import parse_shared

AGENTS = 8


def _base(i: int) -> str:
    return (
        f"import os\n\n\ndef f{i}(x: int) -> int:\n    return x + {i}\n\n\nclass C{i}:\n    y = 1\n"
    )


def test_eight_agents_bases_stay_cached() -> None:
    for cached in (parse_shared, summarize, interface_of):
        cached.cache_clear()
    bases = {f"m{i}.py": _base(i) for i in range(AGENTS)}
    misses_after_first_round = None
    turns = random.Random(24)
    for round_ in range(4):
        order = sorted(bases)
        turns.shuffle(order)  # the agents take turns in no fixed order, each a new candidate
        for rel in order:
            base = bases[rel]
            new = f"{base}\n_pw = {round_!r}\n"
            interface_changed(base, new)
            summarize(rel, base)
            summarize(rel, new)
        if round_ == 0:
            misses_after_first_round = (summarize.cache_info().misses,
                                        interface_of.cache_info().misses)  # fmt: skip
    assert misses_after_first_round is not None
    # after the first round only the candidates miss: one summary and one interface a check
    assert summarize.cache_info().misses - misses_after_first_round[0] == 3 * AGENTS
    assert interface_of.cache_info().misses - misses_after_first_round[1] == 3 * AGENTS

"""How hard the fuzz tests try: fixed, database-free and derandomized, so CI sees the same inputs.

Each module sizes ``max_examples`` so the whole of ``tests/fuzz`` stays well under a minute on a
2-core machine. No deadline: a loaded CI machine must not turn a slow example into a failure.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def bounded(max_examples: int) -> settings:
    """Settings for one fuzz test: ``max_examples`` deterministic examples, nothing remembered."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        suppress_health_check=[HealthCheck.too_slow],
    )

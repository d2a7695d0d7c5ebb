"""The planner's adversarial catalogue: every case, from the modules that hold them by theme."""

from __future__ import annotations

from tests.support.planner_cases_bodies import BODIES, DEAD_STORES
from tests.support.planner_cases_calls import CALLS
from tests.support.planner_cases_classes import ABSTRACT, DECORATORS, SUBCLASSES
from tests.support.planner_cases_fuzzed import FUZZED
from tests.support.planner_cases_members import MEMBERS
from tests.support.planner_cases_modules import GLOBAL, PEP695, REEXPORTS, STUBS
from tests.support.planner_cases_protocols import ENUMS, PROTOCOLS

CATALOGUE = [
    *PROTOCOLS, *ENUMS, *ABSTRACT, *SUBCLASSES, *DECORATORS, *MEMBERS, *STUBS, *PEP695,
    *REEXPORTS, *GLOBAL, *CALLS, *BODIES, *DEAD_STORES, *FUZZED,
]  # fmt: skip

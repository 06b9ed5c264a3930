"""The bad-input corpus: every verb, as a hostile new user would call it.

Each case names the argv (``{d}`` is the case's own folder), the files to create, the exit
code and a regex of the one-line message. Cases never need a JVM build: ``ab``, ``guard`` and
``e2e`` inputs are refused before any build or run starts.
"""

from __future__ import annotations

from cases_copies import COPIES
from cases_documents import CHECK, COMPARE, REPORT
from cases_door import DOOR
from cases_extremes import AT_THE_EDGES
from cases_like_cat import LIKE_CAT
from cases_outputs import EXPORT_OUTPUTS, NOT_A_JVM
from cases_profiles import CALLERS, DIFF, PROFILE, RECORD, SCAN
from cases_runs import AB, DEMO, E2E, GUARD, LATER, TOP

CASES = [
    *COMPARE,
    *REPORT,
    *CHECK,
    *RECORD,
    *PROFILE,
    *DIFF,
    *CALLERS,
    *SCAN,
    *E2E,
    *AB,
    *GUARD,
    *DEMO,
    *TOP,
    *LATER,
    *DOOR,
    *EXPORT_OUTPUTS,
    *NOT_A_JVM,
    *COPIES,
    *LIKE_CAT,
    *AT_THE_EDGES,
]

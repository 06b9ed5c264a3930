"""The ``perfproof.guard/1`` document: a guard's settings, verdict and one row per check.

Written to ``guard.json`` in the run folder and printed by ``perfproof guard --format json``.
An oriented ratio can be infinite (the feature allocates nothing) or undefined (a key on one
side only); both are written as null, as in every other perfproof document, with the row's
``reason`` saying which.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from perfproof.model.documents import json_safe, schema_id

if TYPE_CHECKING:
    from perfproof.pipeline.guard_judge import GuardResult

NAME = "guard"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)

PROTECTS = {  # guard kind → what a passing benchmark protects
    "time": "the speed-up (time per operation or throughput)",
    "alloc": "the allocation cut (bytes per operation)",
    "both": "both the speed-up and the allocation cut",
}


def guard_document(g: GuardResult) -> dict[str, Any]:
    """The document of one judged guard (strict JSON: no NaN, no infinity, no strings for them)."""
    doc = {
        "schema": SCHEMA,
        "kind": g.kind,
        "protects": PROTECTS[g.kind],
        "min_ratio": g.min_ratio,
        "confidence": g.confidence,
        "passed": g.passed,
        "verdict": "PASS" if g.passed else "FAIL",
        "run_dir": None if g.run_dir is None else str(g.run_dir),
        "overlay_files": list(g.overlay_files),
        "rows": [
            {
                "benchmark": r.benchmark,
                "mode": r.mode,
                "params": r.params,
                "metric": r.metric,
                "unit": r.unit,
                "base": r.base,
                "head": r.head,
                "ratio": r.ratio,
                "ci": [r.ci[0], r.ci[1]],
                "passed": r.passed,
                "reason": r.reason,
            }
            for r in g.rows
        ],
        "notes": list(g.notes),
    }
    return json_safe(doc)

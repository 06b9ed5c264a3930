"""The report's line on measuring time: what --budget counted, and the lock waits apart."""

from __future__ import annotations

from types import SimpleNamespace

from perfproof.model.documents.reach import RunReach
from perfproof.model.documents.run import StepEntry
from perfproof.model.documents.run_plan import PlanBlock
from perfproof.report.environment import measuring_text


def run_with(steps: list[dict], budget_s: float | None, reach: dict | None = None):
    entries = [StepEntry.model_validate(s) for s in steps]
    return SimpleNamespace(
        manifest=SimpleNamespace(
            steps=entries,
            plan=PlanBlock(rounds=1, order="abba", budget_s=budget_s),
            reach=RunReach.model_validate(reach) if reach is not None else None,
        )
    )


def test_lock_waits_are_told_apart_from_the_time_the_budget_counts() -> None:
    steps = [
        {"status": "done", "duration_s": 214.0, "jmh_seconds": 10.0, "lock_wait_s": 204.0,
         "lock_holders": ["pid 4121 (java -jar benchmarks.jar)"]},
        {"status": "done", "duration_s": 11.0, "jmh_seconds": 11.0, "lock_wait_s": 0.0},
        {"status": "failed", "duration_s": 3.0, "lock_wait_s": 0.0},
    ]  # fmt: skip
    text = measuring_text(run_with(steps, 180.0))  # type: ignore[arg-type]
    assert text == (
        "JMH ran 21.0 s of a --budget of 3 min 00 s (the budget counts this time only); "
        "3 min 24 s waiting for the JMH lock, not counted (held by pid 4121 (java -jar "
        "benchmarks.jar))"
    )


def test_a_quiet_run_without_a_budget_adds_no_line() -> None:
    steps = [{"status": "done", "duration_s": 11.0, "jmh_seconds": 11.0, "lock_wait_s": 0.0}]
    assert measuring_text(run_with(steps, None)) is None  # type: ignore[arg-type]


def test_the_forks_recorded_to_see_what_the_change_reaches_count_as_measuring() -> None:
    steps = [{"status": "done", "duration_s": 11.0, "jmh_seconds": 11.0, "lock_wait_s": 0.0}]
    text = measuring_text(run_with(steps, 60.0, {"recorded_s": 9.0}))  # type: ignore[arg-type]
    assert text is not None and text.startswith(
        "JMH ran 20.0 s (9.0 s of it recording forks to see what the change reaches) of a "
        "--budget of 1 min 00 s"
    )

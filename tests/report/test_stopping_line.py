"""The report's stopping line: "all keys decided" never stands beside keys stopped without a
verdict unless it says how many."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from perfproof.model import PRIMARY
from perfproof.model.diagnostics import SequentialLook
from perfproof.report.environment import stopping_text
from perfproof.report.rundir import load_run

RUN = Path(__file__).parents[1] / "fixtures" / "runs" / "demo-feature-vs-baseline"


def test_a_run_whose_keys_all_have_verdicts_says_all_keys_decided() -> None:
    line = stopping_text(load_run(RUN))
    assert line is not None and line.endswith(": all keys decided")


def test_keys_stopped_for_futility_are_counted_apart_from_verdicts() -> None:
    run = load_run(RUN)
    keys = len(run.manifest.stopping.keys) if run.manifest.stopping else 0
    primary = [c for c in run.document.comparisons if c.key.metric == PRIMARY]
    first = primary[0]
    look = first.diagnostics.sequential or SequentialLook(1, True)
    stopped = replace(look, futile=True, futility_rule="predictive")
    futile = replace(first, diagnostics=replace(first.diagnostics, sequential=stopped))
    comparisons = [futile if c is first else c for c in run.document.comparisons]
    run = replace(run, document=run.document.model_copy(update={"comparisons": comparisons}))
    line = stopping_text(run)
    assert line is not None and "all keys decided" not in line
    assert line.endswith(
        f"every key stopped, {keys - 1} with a verdict and 1 for futility "
        "(no verdict: 1 whose verdict by the last look was predicted improbable)"
    )
    # "more rounds would almost surely not decide them" is no longer claimed: it was never
    # computed, and real effects stopped that way were decided by other runs of the same suite
    assert "almost surely" not in line

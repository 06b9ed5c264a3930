"""The ``perfproof.e2e/1`` document: an end-to-end A/B's settings, sides and per-metric results.

Written to ``results.json`` in the run folder and printed by ``perfproof e2e --format json``.
Every number that is not finite is written as null (strict JSON); field names are stable and
new fields may be added within the major version.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfproof.model import Direction, Verdict
from perfproof.model.documents import schema_id

NAME = "e2e"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)


@dataclass(frozen=True)
class AmdahlCeiling:
    """The ceiling and what it means for an end-to-end experiment of a given design."""

    share: float
    per_call_gain: float
    speedup: float
    time_cut: float

    @property
    def log_effect(self) -> float:
        """|log ratio| the ceiling would move an end-to-end metric by."""
        return math.log1p(self.speedup)


@dataclass(frozen=True)
class RunsSummary:
    """One side of an end-to-end experiment: whole-program runs, not forks, so besides the
    Student-t interval it keeps the df and sd that the power estimate and the JSON report use
    (``model.Estimate`` is the fork-level side of a JMH comparison)."""

    mean: float
    ci: tuple[float, float]
    n: int
    df: float
    sd: float


@dataclass(frozen=True)
class PairedSummary:
    pairs: int
    delta_pct: float
    ci: tuple[float, float]
    df: float


@dataclass
class MetricAnalysis:
    """Everything the report and the JSON say about one metric."""

    name: str
    unit: str
    direction: Direction
    base: RunsSummary
    head: RunsSummary
    diff: float
    diff_ci: tuple[float, float]
    ratio: float
    ratio_ci: tuple[float, float]
    delta_pct: float
    delta_ci: tuple[float, float]
    welch_df: float
    p_value: float
    bootstrap_ci: tuple[float, float] | None
    paired: PairedSummary | None
    verdict: Verdict
    mde_pct: float | None
    runs_needed: int | None
    target_pct: float
    relative_sd: tuple[float, float]
    """Per-side spread on the scale the ratio is tested on (sd of log values), for power."""
    method: str
    warnings: list[str] = field(default_factory=list)


@dataclass
class AmdahlReport:
    """The ceiling applied to one metric of this run: can the design see it at all?"""

    metric: str
    ceiling: AmdahlCeiling
    mde_pct: float | None
    runs_needed: int | None
    visible: bool | None
    message: str


@dataclass
class E2EResult:
    """A finished (or re-analysed) e2e run, the typed form of this document: what
    :mod:`perfproof.pipeline.e2e.run` returns and the renderers turn into text or JSON."""

    run_dir: Path
    options: dict[str, Any]
    sides: dict[str, dict[str, Any]]
    command: list[str]
    metrics: list[MetricAnalysis]
    amdahl: AmdahlReport | None
    warnings: list[str]


def _num(x: float | None) -> float | None:
    if x is None or not math.isfinite(x):
        return None
    return float(x)


def _pair(p: tuple[float, float] | None) -> list[float | None] | None:
    return None if p is None else [_num(p[0]), _num(p[1])]


def _side(s: RunsSummary) -> dict[str, Any]:
    return {"mean": _num(s.mean), "ci": _pair(s.ci), "n": s.n, "df": _num(s.df), "sd": _num(s.sd)}


def metric_json(m: MetricAnalysis) -> dict[str, Any]:
    return {
        "name": m.name,
        "unit": m.unit,
        "direction": str(m.direction),
        "base": _side(m.base),
        "head": _side(m.head),
        "delta_pct": _num(m.delta_pct),
        "delta_ci": _pair(m.delta_ci),
        "welch_df": _num(m.welch_df),
        "p_value": _num(m.p_value),
        "ratio": _num(m.ratio),
        "ratio_ci": _pair(m.ratio_ci),
        "diff": {"value": _num(m.diff), "ci": _pair(m.diff_ci)},
        "bootstrap_delta_ci": _pair(m.bootstrap_ci),
        "paired": None
        if m.paired is None
        else {
            "delta_pct": _num(m.paired.delta_pct),
            "ci": _pair(m.paired.ci),
            "pairs": m.paired.pairs,
            "df": _num(m.paired.df),
        },
        "verdict": str(m.verdict),
        "mde_pct": _num(m.mde_pct),
        "runs_needed": m.runs_needed,
        "runs_needed_for_pct": _num(m.target_pct),
        "method": m.method,
        "warnings": list(m.warnings),
    }


def to_json(r: E2EResult) -> dict[str, Any]:
    """The ``perfproof.e2e/1`` document (stable field names; extra fields may be added)."""
    o = r.options
    amdahl = None
    if r.amdahl is not None:
        a = r.amdahl
        amdahl = {
            "metric": a.metric,
            "share_pct": a.ceiling.share * 100.0,
            "per_call_gain_pct": a.ceiling.per_call_gain * 100.0,
            "ceiling_speedup_pct": a.ceiling.speedup * 100.0,
            "ceiling_time_cut_pct": a.ceiling.time_cut * 100.0,
            "mde_pct": _num(a.mde_pct),
            "visible": a.visible,
            "runs_needed": a.runs_needed,
            "message": a.message,
        }
    return {
        "schema": SCHEMA,
        "run_dir": str(r.run_dir),
        "command": shlex.join(r.command) if r.command else None,
        "runs": o["runs"],
        "warmup_runs": o["warmup_runs"],
        "order": o["order"],
        "confidence": o["confidence"],
        "threshold_pct": o["threshold_pct"],
        "sides": r.sides,
        "metrics": [metric_json(m) for m in r.metrics],
        "amdahl": amdahl,
        "warnings": list(r.warnings),
    }

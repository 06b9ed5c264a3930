"""The e2e result as a terminal table or Markdown (the JSON document is
:mod:`perfproof.model.documents.e2e`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from perfproof.process import command_line
from perfproof.units import MISSING, detectable_interval, percent

if TYPE_CHECKING:
    from perfproof.model.documents.e2e import E2EResult, MetricAnalysis, RunsSummary


def _g(x: float | None, digits: int = 4) -> str:
    """Run values as the program printed them (``1``, ``100.6``): shortest form, 4 digits."""
    if x is None or not math.isfinite(x):
        return MISSING
    return f"{x:.{digits}g}"


def _pct(x: float | None) -> str:
    return percent(x, 2)


def _ci_pct(ci: tuple[float, float] | None) -> str:
    if ci is None:
        return MISSING
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def _details(m: MetricAnalysis) -> list[str]:
    lines = [f"Welch df {m.welch_df:.1f}, p = {m.p_value:.3g}"]
    if not math.isfinite(m.ratio):
        u = f" {m.unit}" if m.unit else ""
        lines.append(f"difference {_g(m.diff.value)}{u} [{_g(m.diff.ci[0])}, {_g(m.diff.ci[1])}]")
    if m.paired is not None:
        lines.append(
            f"paired over {m.paired.pairs} rounds: "
            f"{_pct(m.paired.delta_pct)} {_ci_pct(m.paired.ci)}"
        )
    if m.bootstrap_ci is not None:
        lines.append(f"bootstrap: {_ci_pct(m.bootstrap_ci)}")
    detect = MISSING if m.mde_pct is None else f"outside {detectable_interval(m.mde_pct)}"
    need = "more than 100000" if m.runs_needed is None else str(m.runs_needed)
    lines.append(
        f"detectable at 80% power: {detect}; runs per side to detect {m.target_pct:g}%: {need}"
    )
    return lines


def _side_text(s: RunsSummary, unit: str) -> str:
    u = f" {unit}" if unit else ""
    return f"{_g(s.mean)}{u} [{_g(s.ci[0])}, {_g(s.ci[1])}] n={s.n}"


def to_table(r: E2EResult) -> str:
    o = r.settings
    conf = f"{o.confidence * 100:g}%"
    out = [
        f"e2e: {o.runs} runs per side, order {o.order}, {conf} intervals, "
        f"threshold {o.threshold_pct:g}%",
        f"run folder: {r.run_dir}",
        "",
    ]
    for m in r.metrics:
        better = "higher" if str(m.direction) == "higher" else "lower"
        out.append(f"{m.name} ({better} is better)")
        out.append(f"  base  {_side_text(m.base, m.unit)}")
        out.append(f"  head  {_side_text(m.head, m.unit)}")
        out.append(f"  Δ {_pct(m.delta_pct)} {_ci_pct(m.delta_ci)}  → {m.verdict}")
        out.extend(f"  {line}" for line in _details(m))
        out.append("")
    if r.amdahl is not None:
        out.append(r.amdahl.message)
    for w in dict.fromkeys(r.warnings):
        out.append(f"warning: {w}")
    return "\n".join(out).rstrip() + "\n"


def to_markdown(r: E2EResult) -> str:
    o = r.settings
    conf = f"{o.confidence * 100:g}%"
    out = [
        f"End-to-end A/B: {o.runs} runs per side, {o.order} order, {conf} intervals.",
        "",
        f"| metric | baseline | feature | Δ% [{conf} CI] | paired Δ% | verdict | detectable |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in r.metrics:
        paired = (
            MISSING if m.paired is None else f"{_pct(m.paired.delta_pct)} {_ci_pct(m.paired.ci)}"
        )
        detect = MISSING if m.mde_pct is None else f"outside {detectable_interval(m.mde_pct)}"
        out.append(
            f"| {m.name} | {_side_text(m.base, m.unit)} | {_side_text(m.head, m.unit)} | "
            f"{_pct(m.delta_pct)} {_ci_pct(m.delta_ci)} | {paired} | {m.verdict} | {detect} |"
        )
    if r.amdahl is not None:
        out += ["", r.amdahl.message]
    if r.command:
        out += ["", "Reproduce:", "", "```sh", command_line(r.command), "```"]
    for w in dict.fromkeys(r.warnings):
        out.append(f"\n> warning: {w}")
    return "\n".join(out) + "\n"

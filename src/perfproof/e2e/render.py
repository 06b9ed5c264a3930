"""The e2e result as the versioned JSON document, a terminal table or Markdown."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from perfproof.e2e.analysis import MetricAnalysis, SideSummary
from perfproof.process import command_line

if TYPE_CHECKING:
    from perfproof.e2e.experiment import E2EResult

SCHEMA = "perfproof.e2e/1"


def _num(x: float | None) -> float | None:
    if x is None or not math.isfinite(x):
        return None
    return float(x)


def _pair(p: tuple[float, float] | None) -> list[float | None] | None:
    return None if p is None else [_num(p[0]), _num(p[1])]


def _side(s: SideSummary) -> dict[str, Any]:
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
        "command": command_line(r.command) if r.command else None,
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


def _g(x: float | None, digits: int = 4) -> str:
    if x is None or not math.isfinite(x):
        return "–"
    return f"{x:.{digits}g}"


def _pct(x: float | None) -> str:
    if x is None or not math.isfinite(x):
        return "–"
    return f"{x:+.2f}%"


def _ci_pct(ci: tuple[float, float] | None) -> str:
    if ci is None:
        return "–"
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def _details(m: MetricAnalysis) -> list[str]:
    lines = [f"Welch df {m.welch_df:.1f}, p = {m.p_value:.3g}"]
    if m.paired is not None:
        lines.append(
            f"paired over {m.paired.pairs} rounds: "
            f"{_pct(m.paired.delta_pct)} {_ci_pct(m.paired.ci)}"
        )
    if m.bootstrap_ci is not None:
        lines.append(f"bootstrap: {_ci_pct(m.bootstrap_ci)}")
    detect = "–" if m.mde_pct is None else f"{m.mde_pct:.2f}%"
    need = "more than 100000" if m.runs_needed is None else str(m.runs_needed)
    lines.append(
        f"detectable at 80% power: {detect}; runs per side to detect {m.target_pct:g}%: {need}"
    )
    return lines


def _side_text(s: SideSummary, unit: str) -> str:
    u = f" {unit}" if unit else ""
    return f"{_g(s.mean)}{u} [{_g(s.ci[0])}, {_g(s.ci[1])}] n={s.n}"


def to_table(r: E2EResult) -> str:
    o = r.options
    conf = f"{o['confidence'] * 100:g}%"
    out = [
        f"e2e: {o['runs']} runs per side, order {o['order']}, {conf} intervals, "
        f"threshold {o['threshold_pct']:g}%",
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
    o = r.options
    conf = f"{o['confidence'] * 100:g}%"
    out = [
        f"End-to-end A/B: {o['runs']} runs per side, {o['order']} order, {conf} intervals.",
        "",
        f"| metric | baseline | feature | Δ% [{conf} CI] | paired Δ% | verdict | detectable |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in r.metrics:
        paired = "–" if m.paired is None else f"{_pct(m.paired.delta_pct)} {_ci_pct(m.paired.ci)}"
        detect = "–" if m.mde_pct is None else f"{m.mde_pct:.2f}%"
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

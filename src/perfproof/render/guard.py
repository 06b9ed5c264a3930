"""A judged guard as the terminal table ``perfproof guard`` prints."""

from __future__ import annotations

from perfproof.model.documents.guard import PROTECTS, GuardResult
from perfproof.units import significant


def _fmt(x: float) -> str:
    return significant(x)


def render_table(g: GuardResult) -> str:
    conf = f"{g.confidence * 100:g}%"
    lines = [
        f"guard ({g.kind}): baseline/feature ratio, > 1 means the feature is better; "
        f"needs ≥ {g.min_ratio:g} with its {conf} interval above 1 at every @Param",
    ]
    if g.overlay_files:
        lines.append(f"baseline built with the feature's {', '.join(g.overlay_files)}")
    width = max((len(r.label) for r in g.rows), default=10)
    for r in g.rows:
        mark = "ok  " if r.passed else "FAIL"
        lines.append(
            f"  {mark} {r.label:<{width}}  {r.metric:<5}  ratio {_fmt(r.ratio):>6} "
            f"[{_fmt(r.ci[0])}, {_fmt(r.ci[1])}]  {r.reason}"
        )
    lines.extend(f"  note: {n}" for n in g.notes)
    if g.passed:
        lines.append(f"PASS: the benchmark guards {PROTECTS[g.kind]} at every @Param")
    else:
        failed = sum(not r.passed for r in g.rows)
        lines.append(
            f"FAIL: {failed} of {len(g.rows)} checks do not tell the baseline from the feature"
            if g.rows
            else "FAIL: nothing to judge"
        )
    if g.run_dir is not None:
        lines.append(f"run folder: {g.run_dir}")
    return "\n".join(lines) + "\n"

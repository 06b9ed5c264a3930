"""The measured sections of the prove report: profile diff, allocation, Amdahl and end to end,
and the Markdown helpers they share with :mod:`perfproof.render.prove`."""

from __future__ import annotations

from collections.abc import Sequence

from perfproof.model.documents.profile_diff import ProfileDiffDoc
from perfproof.model.documents.prove import ProveResults
from perfproof.model.documents.prove_measured import AmdahlRow, HypothesisFocus, ProfileResult
from perfproof.process import command_line
from perfproof.profile.render import diff_notes, diff_table, read_diff, shown_rows
from perfproof.render.markdown import markdown_table, md_text
from perfproof.units import MISSING, detectable_interval, percent, significant


def skipped(bundle: ProveResults, name: str) -> str | None:
    state = bundle.states[name]
    if state.done:
        return None
    return f"_Not run: {md_text(state.why or state.status)}._\n"


def profile_md(bundle: ProveResults) -> tuple[list[str], list[str], list[str]]:
    """(allocation, profile diff, Amdahl) sections."""
    prof = bundle.profile
    if prof is None:
        reason = skipped(bundle, "profile") or ""
        return [reason], [reason], [reason]
    alloc = [_profiled(prof), ""]
    for entry in prof.per_op:
        sites = _part(entry.tables, entry.diff, "alloc")
        if sites:
            alloc += [f"Bytes per operation of `{entry.benchmark}` by allocation site "
                      "(baseline → feature, interval across forks):", "", *sites, ""]  # fmt: skip
    alloc += [
        "Bytes per operation are in the B/op column of the results above (JMH `-prof gc`). "
        + ("Across all profiled benchmarks, a" if prof.per_op else "A")
        + "llocation sites from the JFR recordings (baseline → feature):",
        "",
    ]
    alloc += _part(prof.tables, prof.diff, "alloc") or ["No allocation samples in the recordings."]
    diff = [
        "CPU samples from the JFR recordings, focused on "
        + ", ".join(f"`{f}`" for f in prof.focus)
        + ":",
        "",
    ]
    diff += _part(prof.tables, prof.diff, "cpu") or ["No CPU samples in the recordings."]
    if prof.flamegraph:
        diff += ["", f"Differential flame graph: `{prof.flamegraph}`."]
    rows = [
        (
            f"`{a.method}`",
            _bounded(a, a.cpu_share),
            _bounded(a, a.alloc_share),
            _factor(a.per_call_gain),
            _from_keys(a),
            percent(a.ceiling_speedup * 100) if a.ceiling_speedup is not None else "–",
        )
        for a in prof.amdahl
    ]
    amdahl = [
        "Share of the baseline recordings spent in or below each changed method, the "
        "per-call speed-up the A/B's verdicts measured, and the most the whole program can "
        "gain (Amdahl: 1 / ((1 − s) + s / (1 + g)) − 1). The per-call speed-up is the "
        "geometric mean of the ratios of the keys whose benchmark reaches the method and whose "
        "time verdict is improved or regressed; the others (same, negligible, undecided) are "
        "left out, and keys moved both ways (some improved, some regressed) have none between "
        "them. The share is taken from the benchmark's own recordings, so the ceiling is "
        "that of a program shaped like the benchmark; a production profile "
        "(`perfproof profile`) gives the real share.",
        "",
    ]
    header = ("Method", "CPU share", "Allocation share", "Per-call speed-up", "From the keys",
              "Ceiling")  # fmt: skip
    amdahl += markdown_table(header, rows, "lrrrlr") if rows else ["No changed method was sampled."]
    amdahl += _overload_notes(prof.amdahl)
    if prof.hypothesis is not None:
        amdahl[0:0] = [*hypothesis_lines(prof.hypothesis), ""]
    return alloc, diff, amdahl


def hypothesis_lines(h: HypothesisFocus) -> list[str]:
    """The hunt's prediction for the hypothesis beside what this change measured."""
    text = (
        f"Hypothesis `{h.id}` of the hunt `{h.hunt}`: `{h.method}` (`{h.where}`), whose cost "
        f"the hunt put at a ceiling of {_share(h.predicted)} of its benchmark's time. "
    )
    if not h.touched:
        text += (
            "**This change does not edit that method**: whatever it gained comes from "
            "elsewhere (or the hunt is of another commit). "
        )
    if h.cpu_share is None:
        text += "The baseline profile forks held no CPU samples to compare."
    else:
        forks = f"of `{h.share_of}`" if h.share_of else "(every profiled benchmark)"
        text += (
            f"In this run's baseline profile forks {forks} it held {_share(h.cpu_share)} of the CPU"
        )
        ceiling = percent(h.ceiling_speedup * 100) if h.ceiling_speedup is not None else "–"
        if h.share_of and h.per_call_gain is not None:
            text += (
                f", so removing it entirely would make that benchmark at most {ceiling} faster; it "
                f"measured {_factor(h.per_call_gain)}"
            )
            text += (
                " — **beyond that ceiling**: the recordings under-attribute this method (it may "
                "be inlined into the benchmark's loop, or each call too short for the sampler to "
                "place), so its share is a lower bound here."
                if h.beyond_ceiling
                else ", within it."
            )
        elif h.benchmark is not None and h.per_call_gain is not None:
            text += (
                f"; `{h.benchmark}` measured {_factor(h.per_call_gain)} per call, a ceiling of "
                f"{ceiling} for a program shaped like the profiled benchmarks."
            )
        else:
            text += "; no benchmark the hunt names was measured in this A/B."
    return ["The profile diff above is focused on this hypothesis's class first.", "", text]


def _bounded(a: AmdahlRow, share: float | None) -> str:
    """A share; marked as a bound when the name it was matched by is several methods'."""
    cell = _share(share)
    return f"≤ {cell}" if a.overloads and share is not None and not a.added else cell


def _overload_notes(rows: Sequence[AmdahlRow]) -> list[str]:
    """Why a row's shares are bounds, or none, said once for all such rows: a recording names
    frames without parameters."""
    added = [f"`{a.method}` ({a.overloads or 1})" for a in rows if a.added]
    bounded = [f"`{a.method}` ({a.overloads})" for a in rows if a.overloads and not a.added]
    out = []
    if added:
        out.append(
            "- New in the feature, so no share: the samples their names find in the baseline "
            "are those of their overloads there (how many in brackets): " + ", ".join(added) + "."
        )
    if bounded:
        out.append(
            "- A recording names a method without its parameters, so these shares are those "
            "of every baseline method of the name (how many in brackets), at most the method's "
            "own, and so are their ceilings: " + ", ".join(bounded) + "."
        )
    return ["", *out] if out else []


def _from_keys(a: AmdahlRow) -> str:
    """Which verdicts the per-call speed-up summarises: their count and range, each verdict
    apart (keys moved both ways have no speed-up between them)."""
    span = a.gain_range
    if span is None and a.per_call_gain is not None:
        return "–"  # a bundle written before the row kept its keys
    if span is None:
        # a dispatch-only benchmark may run it, unmeasured or left out of the A/B: say what
        # is known, that no measured key's call path leads to it
        return (
            f"none of {a.unmoved} moved" if a.unmoved else "no measured key's call path reaches it"
        )
    groups = []
    for verdict in sorted({g.verdict for g in a.gains}):
        values = [1 + g.gain for g in a.gains if g.verdict == verdict]
        low, high = significant(min(values), 3), significant(max(values), 3)
        groups.append(f"{len(values)} {verdict}" + (f", {low}–{high}×" if low != high else ""))
    text = "; ".join(groups)
    return text + (f"; {a.unmoved} other(s) left out" if a.unmoved else "")


def _profiled(prof: ProfileResult) -> str:
    """Which forks were profiled and why: the timings above come from forks JFR never
    touched, and the keys recorded are those whose verdicts this body explains."""
    if prof.forks_run is None:
        return (
            f"Profiled forks: the timing forks themselves ({len(prof.before)} base, "
            f"{len(prof.after)} feature recordings)."
        )
    text = (
        f"Profiled forks: {len(prof.before)} base and {len(prof.after)} feature forks of their "
        f"own, run after the timing forks (`{prof.forks_run}`); no timing above was measured "
        "with JFR on."
    )
    design = prof.design
    if design is None:
        return text
    if design.every:
        return text + f" Every measured key was recorded (`--jfr every`, {design.forks} rounds)."
    keys = ", ".join(f"`{k.key}` ({', '.join(k.why)})" for k in design.recorded)
    text += (
        f" Recorded: {len(design.recorded)} of the {design.measured} keys, {design.forks} forks "
        f"a side each (the fewest that give every row an interval across forks): {keys}."
    )
    left = []
    if design.represented:
        left.append(f"{design.represented} of the same shape as a recorded key (same benchmark, "
                    "verdicts and bytes/op), which stands for them")  # fmt: skip
    if design.futile:
        # not "N stopped for futility": a reader (and check) takes that for the run's count,
        # and a futile key whose bytes/op moved is recorded or stands with its shape instead
        left.append(f"{design.futile} with no verdict, stopped for futility")
    if design.no_verdict:
        left.append(f"{design.no_verdict} with no improved or regressed verdict to explain")
    if left:
        text += " Not recorded: " + "; ".join(left) + "."
    if design.reused:
        text += (
            f" {design.reused} fork(s) a side came from the reach round (`{design.runs[0]}`: "
            "the same builds and JMH settings)."
        )
    return text


def _share(x: float | None) -> str:
    return "–" if x is None else percent(x * 100, 1, sign=False)


def _factor(gain: float | None) -> str:
    """A per-call speed-up as a factor: ``12.3× as fast`` reads better than ``+1130%``."""
    if gain is None:
        return "–"
    return f"{significant(1 + gain, 3)}× as fast"


def _part(tables: ProfileDiffDoc | None, diff: ProfileDiffDoc, kind: str) -> list[str]:
    """The CPU or the allocation table of a profile diff, rendered from the document of the
    rows it shows (its notes under the last table, as ``profile diff`` places them); a bundle
    written before that document was kept shows the first rows its diff document kept."""
    if tables is None:
        d = read_diff(diff)
        rows = shown_rows(d, top=0)
    else:
        d = read_diff(tables)
        rows = {k: [r for r in d.rows if r.kind == k] for k in d.kinds}
    if not rows.get(kind):
        return []
    out = diff_table(d, kind, rows[kind], md=True)
    return out + (["", *diff_notes(d)] if kind == d.kinds[-1] else [])


def e2e_md(bundle: ProveResults) -> list[str]:
    e2e = bundle.e2e
    if e2e is None:
        return [skipped(bundle, "e2e") or ""]
    out = [f"`{command_line(['perfproof', *e2e.command[1:]])}`", ""]
    if e2e.amdahl_message:
        out += [md_text(e2e.amdahl_message), ""]
    rows = []
    for m in e2e.metrics:
        lo, hi = m.delta_ci
        rows.append(
            (
                m.name,
                f"{percent(m.delta_pct)} [{percent(lo)}, {percent(hi)}]",
                m.verdict,
                MISSING if m.mde_pct is None else f"outside {detectable_interval(m.mde_pct)}",
                m.runs if m.runs is not None else "–",
            )
        )
    header = ("Metric", "Δ% [interval]", "Verdict", "Detectable effect", "Runs per side")
    out += markdown_table(header, rows, "lrlrr") if rows else ["No metric was measured."]
    return out

"""A hunt as a work list: the terminal table and ``hunt.md``.

The Markdown reads as an issue or a PR description: one numbered section per hypothesis,
with what it costs (absolute units and the interval across forks), where (file and lines),
the pattern or the plain fact, who calls it, the most the workload can gain, and the
``prove`` line that measures the fix. ``top`` limits what is shown, never what is stored.
"""

from __future__ import annotations

from perfproof.model.documents.hunt import ForkMean, GroupCost, HuntResult, Hypothesis
from perfproof.render.markdown import markdown_table, md_text
from perfproof.units import MISSING, percent, significant


def share(e: ForkMean | None) -> str:
    """``41% [37–45%]``: a share with its interval across forks."""
    if e is None:
        return MISSING
    text = percent(100 * e.mean, 1, sign=False)
    if e.lo is None or e.hi is None:
        return text
    lo, hi = max(e.lo, 0.0), min(e.hi, 1.0)
    return f"{text} [{percent(100 * lo, 1, sign=False)}–{percent(100 * hi, 1, sign=False)}]"


def amount(e: ForkMean | None, unit: str) -> str:
    if e is None:
        return MISSING
    text = f"{significant(e.mean)} {unit}"
    if e.lo is None or e.hi is None or e.hi == e.lo == e.mean:
        return text
    return f"{text} [{significant(max(e.lo, 0.0))}–{significant(e.hi)}]"


def ceiling(x: float | None) -> str:
    """``+6.2%`` for a modest ceiling; ``×17`` once the workload could run twice as fast."""
    if x is None:
        return MISSING
    if x >= 1.0:
        return f"×{significant(1.0 + x)}"
    return percent(100 * x, 1)


def best(h: Hypothesis) -> GroupCost:
    return max(h.costs, key=lambda c: (c.ceiling_discounted or 0.0, c.group))


def cpu_cell(x: Hypothesis) -> str:
    """The CPU share that ranks the hypothesis: its own, or with all it calls (``incl.``)."""
    text = share(best(x).cpu_share)
    return f"{text} incl." if x.ranked_by == "inclusive" else text


def inclusive_line(x: Hypothesis) -> str | None:
    """What an inclusive hypothesis holds itself and what its callees hold, in its best group."""
    group = best(x).group
    split = next((i for i in x.inclusive if i.group == group), None)
    if x.ranked_by != "inclusive" or split is None:
        return None
    mine = share(split.self_share) if split.self_share is not None else "0%"
    below = ", ".join(
        f"`{c.method}` {percent(100 * c.share, 1, sign=False)}" for c in split.callees
    )
    return (
        f"- Ranked by inclusive cost (itself and all it calls): self {mine}; its callees hold "
        f"the rest: {below} (a fix here changes what it asks of them)"
    )


def per_op(c: GroupCost) -> str:
    """Time and bytes in absolute units, as far as the workload allows."""
    parts = []
    if c.ns_per_op is not None:
        parts.append(amount(c.ns_per_op, "ns/op"))
    if c.bytes_per_op is not None or c.bytes_per_s is not None:
        parts.append(_bytes(c))
    return "; ".join(parts) or MISSING


def _bytes(c: GroupCost) -> str:
    if c.bytes_per_op is not None:
        return amount(c.bytes_per_op, "B/op")
    if c.bytes_per_s is not None:
        return amount(_mib(c.bytes_per_s), "MiB/s")
    return MISSING


def _mib(e: ForkMean) -> ForkMean:
    def scale(x: float | None) -> float | None:
        return None if x is None else x / 2**20

    return ForkMean(e.mean / 2**20, scale(e.lo), scale(e.hi), e.forks)


def hunt_table(h: HuntResult, top: int | None = 10) -> str:
    """The terminal's view: rank, id, method, file:line, CPU share, cost, ceiling, callers."""
    shown = h.hypotheses[:top] if top is not None else h.hypotheses
    cols = (
        "#",
        "id",
        "method",
        "where",
        "CPU share",
        "time",
        "allocation",
        "ceiling",
        "callers",
        "called from",
    )
    rows = []
    for x in shown:
        c = best(x)
        rows.append(
            (
                str(x.rank),
                x.id,
                x.method,
                f"{x.file.rsplit('/', 1)[-1]}:{x.line}-{x.end_line}",
                cpu_cell(x),
                amount(c.ns_per_op, "ns/op") if c.ns_per_op else MISSING,
                _bytes(c),
                ceiling(c.ceiling),
                MISSING if x.callers is None else str(x.callers.production),
                (f"held by {x.under}; " if x.under else "") + (x.path[0] if x.path else ""),
            )
        )
    widths = [max(len(r[i]) for r in [cols, *rows]) for i in range(len(cols))]
    lines = [f"hunt: {h.workload.description}", ""]
    for r in [cols, *rows]:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
    if len(h.hypotheses) > len(shown):
        lines.append(f"… {len(h.hypotheses) - len(shown)} more in hunt.json (--top)")
    if not h.hypotheses:
        lines.append("(no project method carries a measurable share)")
    for o in h.other:
        cpu = MISSING if o.cpu_share is None else percent(100 * o.cpu_share, 1, sign=False)
        lines.append(f"not a hypothesis: {o.label}: {cpu} of CPU samples")
    if h.changes is not None:
        lines.append("")
        lines.append(f"against {h.compared_with}:")
        for ch in h.changes:
            lines.append(f"  {ch.label:<10} {ch.id}  {ch.method}")
    lines += [f"warning: {w}" for w in h.warnings]
    return "\n".join(lines) + "\n"


def _costs_table(x: Hypothesis) -> list[str]:
    rows = [
        (
            c.group,
            share(c.cpu_share),
            share(c.alloc_share),
            per_op(c),
            ceiling(c.ceiling),
            c.cpu_share.forks if c.cpu_share else (c.alloc_share.forks if c.alloc_share else 0),
        )
        for c in x.costs
    ]
    headers = ("workload", "CPU share", "bytes share", "absolute", "ceiling", "forks")
    return markdown_table(headers, rows, "lrrrrr")


def hypothesis_md(x: Hypothesis) -> list[str]:
    lines = [f"### {x.rank}. `{x.method}` — {x.file}:{x.line}-{x.end_line} (`{x.id}`)", ""]
    lines.append(md_text(x.fact[:1].upper() + x.fact[1:] + "."))
    lines.append("")
    lines += _costs_table(x)
    lines.append("")
    split = inclusive_line(x)
    if split is not None:
        lines.append(split)
    if x.under is not None:
        lines.append(
            f"- Held by `{x.under}`: most of its stacks are that inclusive hypothesis's, ranked "
            "above, and it is a small part of it; listed after the methods no such one holds"
        )
    if x.classes:
        lines.append(
            "- Allocates: "
            + ", ".join(f"`{c.name}` {percent(100 * c.share, 0, sign=False)}" for c in x.classes)
        )
    if x.via:
        lines.append("- Cost lands in: " + ", ".join(f"`{v}`" for v in x.via))
    if x.path:
        chain = " ← ".join(f"`{m}`" for m in (x.method, *x.path))
        lines.append(f"- Called as: {chain} (heaviest stacks; a fix may belong further up)")
    if x.pattern is not None:
        p = x.pattern
        lines.append(
            f"- Pattern `{p.rule}` (line {p.line}): {p.title}. Rewrite: {md_text(p.rewrite)}"
        )
    else:
        lines.append(
            "- Pattern: none of the `scan` rules matches; the fact above is what is known."
        )
    if x.callers is not None and x.callers.production == 0:
        lines.append("- Production callers: none (only benchmarks or tests call it)")
    elif x.callers is not None:
        kind = "a library primitive" if x.callers.primitive else "not a library primitive"
        sites = f"{x.callers.production} call site{'s' if x.callers.production != 1 else ''}"
        methods = f"{x.callers.distinct} method{'s' if x.callers.distinct != 1 else ''}"
        lines.append(f"- Production callers: {sites} from {methods} ({kind})")
    c = best(x)
    if c.ceiling is not None:
        lines.append(
            f"- Ceiling: at most {ceiling(c.ceiling)} faster on `{c.group}` if this cost went "
            f"away entirely (Amdahl; {ceiling(c.ceiling_discounted)} one standard error lower, "
            "which ranks it)"
        )
    if x.benchmarks:
        lines.append("- Benchmarks that reach it: " + ", ".join(f"`{b}`" for b in x.benchmarks))
    if x.prove:
        lines += ["", "```sh", x.prove, "```"]
    lines.append("")
    return lines


def _measure(value: float | None, measure: str) -> str:
    if measure == "ns/op":
        return MISSING if value is None else f"{significant(value)} ns/op"
    return ceiling(value) + (" ceiling" if value is not None else "")


def hunt_markdown(h: HuntResult, top: int | None = None) -> str:
    """``hunt.md``: the whole work list (``top`` shortens only what is printed)."""
    w = h.workload
    where = f" at `{w.ref}` ({w.sha[:12]})" if w.ref and w.sha else ""
    lines = [f"## perfproof hunt{where}", "", f"Workload: {md_text(w.description)}", ""]
    if w.groups:
        rows = [
            (
                g.name,
                len(g.recordings),
                significant(g.score),
                g.unit or "",
                significant(g.bytes_per_op),
            )
            for g in w.groups
        ]
        lines += markdown_table(("part", "forks", "score", "unit", "B/op"), rows, "lrrlr")
        lines.append("")
    shown = h.hypotheses[:top] if top is not None else h.hypotheses
    if shown:
        lines += [
            "Ranked by the Amdahl ceiling of each CPU share less one standard error across forks: "
            "a method's own share, or, where its callees hold most of its cost, its inclusive "
            "share (itself and all it calls); a method that is a small part of such a hypothesis "
            "above it comes after the rest.",
            "",
        ]
    for x in shown:
        lines += hypothesis_md(x)
    if not h.hypotheses:
        lines += ["No project method carries a measurable share of this workload.", ""]
    if h.other:
        lines += ["### Not hypotheses", ""]
        other: list[tuple[str, str, str]] = [
            (
                o.label,
                MISSING if o.cpu_share is None else percent(100 * o.cpu_share, 1, sign=False),
                MISSING if o.alloc_share is None else percent(100 * o.alloc_share, 1, sign=False),
            )
            for o in h.other
        ]
        lines += markdown_table(("cost", "CPU samples", "bytes"), other, "lrr")
        lines.append("")
    if h.changes is not None:
        lines += [f"### Against `{h.compared_with}`", ""]
        moved = [
            (c.label, c.id, c.method, _measure(c.before, c.measure), _measure(c.after, c.measure))
            for c in h.changes
        ]
        headers = ("status", "id", "method", "before", "now")
        lines += markdown_table(headers, moved, "lllrr")
        lines.append("")
    lines += [f"> warning: {md_text(w)}" for w in h.warnings]
    return "\n".join(lines).rstrip() + "\n"

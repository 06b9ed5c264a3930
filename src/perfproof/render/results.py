"""The results section: a summary line that counts, and a table per benchmark and mode.

One renderer for every place a comparison is shown in Markdown: ``report.md``, ``perfproof ab
--format md`` and ``perfproof compare --format md`` all print :func:`results_markdown`, so
they cannot disagree. Tables are built from typed :class:`~perfproof.model.Comparison`
objects; each row carries the time (or throughput) comparison of one @Param combination and
its bytes/op comparison beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from perfproof.jmh.units import THROUGHPUT_UNIT, TIME_UNIT
from perfproof.model import ALLOC_NORM, PRIMARY, BenchKey, Comparison, Verdict
from perfproof.model.diagnostics import Kind
from perfproof.model.documents.prove_reach import NO_PATH_NOTE, UNEXPLAINED_NOTE
from perfproof.model.reach import unreached_note
from perfproof.render import costs, floor, gate
from perfproof.render.effect import delta_text
from perfproof.render.geomean import geomean_lines
from perfproof.render.levels import level_label, levels_sentence, side_interval
from perfproof.render.markdown import markdown_table
from perfproof.stats import family
from perfproof.units import (
    MISSING,
    Scale,
    bytes_change,
    choose_scale,
    cut_at_zero,
    fraction_pct,
    needs_ends,
    percent_range,
    value_spread,
)

MODE_NAMES = {
    "avgt": "average time",
    "thrpt": "throughput",
    "sample": "sampled time",
    "ss": "single shot",
}


@dataclass
class Row:
    """One @Param combination of one benchmark: the results-table row."""

    params: dict[str, str]
    baseline: str
    feature: str
    delta: str
    verdict: str
    bytes: str
    comparison: Comparison
    alloc: Comparison | None
    scale: Scale
    machine: str = ""
    """The machine that measured the row (merged shards); empty for one machine."""
    reach: str = ""
    """Said beside the verdict where the change may not run in the benchmark (``no static
    path``, ``not in a recording``): :func:`perfproof.model.reach.unreached_note`."""
    sides_ci: tuple[tuple[float, float], tuple[float, float]] | None = None
    """Both sides' intervals as shown: at the row's level (:func:`side_interval`)."""
    costs: dict[str, Comparison] = field(default_factory=dict)
    """Off-heap bytes and GC costs per operation of the row, by metric (:mod:`.costs`)."""

    @property
    def verdict_text(self) -> str:
        """The verdict as every table shows it, with what is known of the change's reach."""
        return verdict_with_reach(self.verdict, self.reach)


def verdict_with_reach(verdict: str, reach: str) -> str:
    """``inconclusive (no static path)``: a verdict and, beside it, that the change may not run
    in its benchmark; the verdict alone where it reaches or nothing is known."""
    return f"{verdict} ({reach})" if reach else verdict


@dataclass
class Table:
    """The results of one benchmark (one mode), a row per @Param combination."""

    benchmark: str
    mode: str
    param_names: list[str]
    rows: list[Row]

    @property
    def cost_columns(self) -> list[str]:
        """The cost metrics some row of the table has something to say about."""
        return [
            m
            for m in costs.COLUMNS
            if any(m in r.costs and costs.worth_showing(r.costs[m]) for r in self.rows)
        ]

    @property
    def by_machine(self) -> bool:
        """Whether rows were measured on different machines (a Machine column is shown)."""
        return any(r.machine for r in self.rows)

    @property
    def title(self) -> str:
        return f"{self.benchmark} ({MODE_NAMES.get(self.mode, self.mode)})"


def short_name(benchmark: str) -> str:
    """``org.acme.bench.Codes.sum`` → ``Codes.sum``: what reviewers call a benchmark."""
    parts = benchmark.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 2 else benchmark


def params_label(params: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def _natural(text: str) -> tuple[Any, ...]:
    """``"16"`` < ``"128"`` < ``"abc"``: numbers by value, then text."""
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


def sort_key(c: Comparison) -> tuple[Any, ...]:
    k = c.key
    return (k.benchmark, k.mode, tuple((n, _natural(v)) for n, v in k.params), k.metric)


def build_row(c: Comparison, alloc: Comparison | None, confidence: float | None = None) -> Row:
    scale = choose_scale(c.unit, c.base.value)
    base_ci, head_ci = side_interval(c, c.base, confidence), side_interval(c, c.head, confidence)
    ends = needs_ends(c.base.value, base_ci) or needs_ends(c.head.value, head_ci)
    if alloc is not None:
        bytes_text = bytes_change(alloc.base.value, alloc.head.value, alloc.delta_pct)
    else:
        bytes_text = MISSING
    return Row(
        params=dict(c.key.params),
        baseline=value_spread(c.base.value, base_ci, scale, ends),
        feature=value_spread(c.head.value, head_ci, scale, ends),
        delta=delta_text(c),
        verdict=str(c.verdict),
        bytes=bytes_text,
        comparison=c,
        alloc=alloc,
        scale=scale,
        reach=unreached_note(c.extra),
        sides_ci=(base_ci, head_ci),
    )


def cut_sides(tables: Sequence[Table]) -> int:
    """How many sides of the tables' rows show an interval cut at zero."""
    count = 0
    for t in tables:
        for r in t.rows:
            c = r.comparison
            shown = r.sides_ci or (c.base.ci, c.head.ci)
            for e, ci in zip((c.base, c.head), shown, strict=True):
                count += cut_at_zero(e.value, ci, c.unit)
    return count


CUT_AT_ZERO = (
    "A side's lower end of 0 is its interval cut at zero: with so few or so spread forks the "
    "interval reached below zero, which no time, rate or size per operation can be."
)
"""The sentence under a results table any of whose sides was cut at zero."""


def build_tables(
    comparisons: Iterable[Comparison],
    machine: Callable[[BenchKey], str] | None = None,
    confidence: float | None = None,
) -> list[Table]:
    """Group primary comparisons by benchmark and mode; attach each one's bytes/op comparison
    (and, for merged shards, the machine that measured the row). ``confidence``: the level
    the sides' intervals were computed at, so each row shows them at its own level."""
    comparisons = list(comparisons)
    allocs = {c.key.entry(): c for c in comparisons if c.key.metric == ALLOC_NORM}
    extra: dict[BenchKey, dict[str, Comparison]] = {}
    for c in comparisons:
        if c.key.metric in costs.COLUMNS:
            extra.setdefault(c.key.entry(), {})[c.key.metric] = c
    tables: dict[tuple[str, str], Table] = {}
    for c in sorted(comparisons, key=sort_key):
        if c.key.metric != PRIMARY:
            continue
        table = tables.setdefault(
            (c.key.benchmark, c.key.mode), Table(c.key.benchmark, c.key.mode, [], [])
        )
        row = build_row(c, allocs.get(c.key.entry()), confidence)
        row.costs = extra.get(c.key.entry(), {})
        if machine is not None:
            row.machine = machine(c.key)
        for name in row.params:
            if name not in table.param_names:
                table.param_names.append(name)
        table.rows.append(row)
    return list(tables.values())


# ---------------------------------------------------------------------------- summary


def summary_line(
    tables: Sequence[Table],
    confidence: float | None,
    threshold: float | None,
    procedure: str | None = None,
) -> str:
    """Counts, not a list: "2 of 9 faster (-50% to -12%), 1 allocates less, 0 regressed, 6
    undecided (α = 1%, Benjamini–Hochberg, 1% threshold)". The tables carry the details."""
    rows = [r for t in tables for r in t.rows]
    total = len(rows)
    if not total:
        return "Nothing was compared."
    improved = [r for r in rows if r.verdict == Verdict.IMPROVED]
    regressed = [r for r in rows if r.verdict == Verdict.REGRESSED]
    word = (
        "faster"
        if all(r.comparison.unit in (TIME_UNIT, THROUGHPUT_UNIT) for r in rows)
        else ("improved")
    )
    parts = [f"{len(improved)} of {total} {word}{_span(improved)}"]
    allocs = [r.alloc for r in rows if r.alloc is not None]
    less = sum(1 for a in allocs if a.verdict is Verdict.IMPROVED)
    more = sum(1 for a in allocs if a.verdict is Verdict.REGRESSED)
    if allocs:
        parts.append(f"{less} allocate{'s' if less == 1 else ''} less")
        if more:
            parts.append(f"{more} allocate{'s' if more == 1 else ''} more")
    parts += costs.off_heap_counts([r.costs for r in rows])
    parts.append(f"{len(regressed)} regressed{_span(regressed)}")
    parts += rest_counts(rows, threshold)
    text = ", ".join(parts) + f" ({_conf_text(confidence, threshold, procedure)})"
    return text + _unexplained(rows) + floor.measures_nothing([r.comparison for r in rows]) + "."


def rest_counts(rows: Sequence[Row], threshold: float | None) -> list[str]:
    """The rows without an improvement or regression, each kind in its own words: ``same``
    is "unchanged", an interval inside the threshold that excludes 1 is "negligible", and an
    undecided row is "undecided" (never "unchanged", which only ``same`` shows)."""
    theta = f" (within ±{fraction_pct(threshold)})" if threshold is not None else ""
    out = []
    for verdict, words in (
        (Verdict.SAME, f"unchanged{theta}"),
        (Verdict.NEGLIGIBLE, "negligible"),
        (Verdict.INCONCLUSIVE, "undecided"),
    ):
        n = sum(1 for r in rows if r.verdict == verdict)
        if n:
            out.append(f"{n} {words}")
    return out


def _unexplained(rows: list[Row]) -> str:
    """Verdicts the change may not explain, counted apart and in words of the evidence's
    strength: a recording showed the changed code never runs there (``unexplained``), or
    no static call path leads there and nothing was recorded (``no-static-path``)."""
    out = ""
    for kind, words in (
        (Kind.UNEXPLAINED, f"{UNEXPLAINED_NOTE}: a recording shows the changed code never runs"),
        (Kind.NO_PATH, f"with {NO_PATH_NOTE}, not confirmed by a recording"),
    ):
        parts = []
        for verdict, noun in ((Verdict.REGRESSED, "regression"), (Verdict.IMPROVED, "improvement")):
            n = sum(
                1
                for r in rows
                if r.verdict == verdict
                and any(n.kind is kind for n in r.comparison.diagnostics.notes or ())
            )
            if n:
                parts.append(f"{n} {noun}{'s' if n > 1 else ''}")
        if parts:
            out += f"; {' and '.join(parts)} {words} (see Warnings)"
    return out


def _span(rows: list[Row]) -> str:
    deltas = sorted(r.comparison.delta_pct for r in rows)
    if not deltas:
        return ""
    return f" ({percent_range(deltas[0], deltas[-1])})"


def _conf_text(confidence: float | None, threshold: float | None, procedure: str | None) -> str:
    bits = []
    if confidence is not None:
        # the error rate, not a level: the intervals' levels are named with the tables
        bits.append(f"α = {fraction_pct(1.0 - confidence)}")
    if procedure in family.DESCRIPTIONS:
        bits.append(family.DESCRIPTIONS[procedure])
    if threshold is not None:
        bits.append(f"{fraction_pct(threshold)} threshold")
    return ", ".join(bits) if bits else "intervals as in Methodology"


def interval_label(tables: Sequence[Table], confidence: float | None) -> str:
    """The level of the Δ% intervals for the column header: the one level when all rows share
    it, otherwise "CI" alone (the levels are named once, per look, by
    :func:`levels_sentence`)."""
    return level_label([r.comparison for t in tables for r in t.rows], confidence)


# ---------------------------------------------------------------------------- markdown


def table_lines(table: Table, conf: str) -> list[str]:
    machine = ["Machine"] if table.by_machine else []
    extra = table.cost_columns
    header = [
        *table.param_names,
        *machine,
        "Baseline",
        "Feature",
        f"Δ% [{conf}]",
        "Verdict",
        "B/op baseline → feature (Δ%)",
        *(costs.header(m) for m in extra),
    ]
    align = (
        ["r"] * len(table.param_names)
        + ["l"] * len(machine)
        + ["r", "r", "r", "l", "r"]
        + ["r"] * len(extra)
    )
    body = [
        [
            *(row.params.get(p, "") for p in table.param_names),
            *([row.machine] if machine else []),
            row.baseline,
            row.feature,
            row.delta,
            row.verdict_text,
            row.bytes,
            *(costs.cell(row.costs.get(m)) for m in extra),
        ]
        for row in table.rows
    ]
    return markdown_table(header, body, align)


FULL_LIST = "results.json of the run folder"
"""Where a report's cut list of regressions sends the reader for the whole list."""


def results_markdown(
    summary: str,
    tables: Sequence[Table],
    confidence: float | None,
    where: str = FULL_LIST,
    digest: Sequence[str] = (),
) -> str:
    """The summary line (with the ``digest`` lines under it: which keys changed and how, what
    is unresolved), every regression by metric, and the results section, exactly as
    ``report.md`` holds them."""
    out = [
        f"**Summary:** {summary}",
        *(["", *digest] if digest else []),
        "",
        "### Results",
        "",
        *results_lines(tables, confidence, where),
    ]
    return "\n".join(out)


def table_failures(tables: Sequence[Table]) -> list[gate.Failure]:
    """What fails the regression gate among the tables' rows: time and bytes/op alike."""
    return gate.failures(shown_comparisons(tables))


def shown_comparisons(tables: Sequence[Table]) -> list[Comparison]:
    """Every comparison a table row shows: time, bytes/op and the row's costs."""
    return [
        c
        for t in tables
        for r in t.rows
        for c in (r.comparison, r.alloc, *r.costs.values())
        if c is not None
    ]


def results_lines(
    tables: Sequence[Table], confidence: float | None, where: str = FULL_LIST
) -> list[str]:
    """The results section's body: every regression by metric (what fails the gate, bytes/op
    alone included), one table per benchmark and mode, then how to read them."""
    conf = interval_label(tables, confidence)
    out: list[str] = gate.markdown_lines(table_failures(tables), where) + floor.floor_lines(
        [r.comparison for t in tables for r in t.rows]
    )
    for table in tables:
        mode = MODE_NAMES.get(table.mode, table.mode)
        out += [f"#### `{table.benchmark}` ({mode})", "", *table_lines(table, conf), ""]
    if not tables:
        out += ["No benchmark was measured on both sides.", ""]
    shown = [c for t in tables for r in t.rows for c in (r.comparison, r.alloc) if c is not None]
    out += geomean_lines(shown)
    out += [
        "Baseline and feature: mean of fork means ± the half-width of its interval, relative "
        "to the mean, at the row's level; Δ% = feature / baseline − 1 with the interval of the "
        "ratio the verdict was decided on; bytes/op from JMH's `-prof gc` (`gc.alloc.rate.norm`)."
        + "".join(
            f" {t}" for t in [levels_sentence([r.comparison for t in tables for r in t.rows])] if t
        )
        + costs.sentence({m for t in tables for m in t.cost_columns})
        + (" " + CUT_AT_ZERO if cut_sides(tables) else ""),
        "",
    ]
    return out

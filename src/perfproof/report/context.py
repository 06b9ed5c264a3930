"""One report context per run: every section's content, every number already formatted.

Markdown, HTML and JSON render the same context, so the three formats can never disagree on
a number, and the test that recomputes the report from results.json checks them all at once.
Numbers come from the compare document (results.json); the raw JMH files only supply what the
compare document does not carry (JMH's own tables, versions and settings).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from perfproof.model import ALLOC_NORM, PRIMARY, Verdict
from perfproof.report import environment, reproduce
from perfproof.report.rawtables import raw_tables
from perfproof.report.rundir import RunFolder
from perfproof.report.units import (
    Scale,
    bytes_change,
    choose_scale,
    delta_with_interval,
    value_with_interval,
)

SIGNIFICANT = (Verdict.IMPROVED, Verdict.REGRESSED)


@dataclass
class Row:
    """One @Param combination of one benchmark: the results-table row."""

    params: dict[str, str]
    baseline: str
    feature: str
    delta: str
    verdict: str
    bytes: str
    comparison: dict[str, Any]
    alloc: dict[str, Any] | None
    scale: Scale


@dataclass
class Table:
    """The results of one benchmark (one mode), a row per @Param combination."""

    benchmark: str
    mode: str
    param_names: list[str]
    rows: list[Row]

    @property
    def title(self) -> str:
        return f"{self.benchmark} ({MODE_NAMES.get(self.mode, self.mode)})"


@dataclass
class ReportContext:
    """Everything a report shows, in section order; strings are final text."""

    title: str
    summary: str
    tables: list[Table]
    methodology: list[tuple[str, str]]
    method: str
    reproduce: list[reproduce.Step]
    reproduce_note: str
    warnings: list[WarningGroup]
    raw: list[tuple[str, str]]
    unmatched: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    jmh_view: list[JmhRow] = field(default_factory=list)


@dataclass(frozen=True)
class JmhRow:
    """JMH's own score ± error per side for one comparison, and whether they overlap."""

    label: str
    baseline: str
    feature: str
    overlap: str


MODE_NAMES = {
    "avgt": "average time",
    "thrpt": "throughput",
    "sample": "sampled time",
    "ss": "single shot",
}


def params_of(comparison: dict[str, Any]) -> dict[str, str]:
    params = comparison.get("params") or {}
    if isinstance(params, list):
        return {str(k): str(v) for k, v in params}
    return {str(k): str(v) for k, v in params.items()}


def entry_key(comparison: dict[str, Any]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """Benchmark, mode and params: what pairs a time comparison with its bytes/op one."""
    return (
        str(comparison.get("benchmark", "")),
        str(comparison.get("mode", "")),
        tuple(sorted(params_of(comparison).items())),
    )


def metric_of(comparison: dict[str, Any]) -> str:
    return str(comparison.get("metric") or PRIMARY)


def short_name(benchmark: str) -> str:
    """``org.acme.bench.Codes.sum`` → ``Codes.sum``: what reviewers call a benchmark."""
    parts = benchmark.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 2 else benchmark


def params_label(params: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def _ci(side: dict[str, Any]) -> tuple[float, float] | None:
    ci = side.get("ci")
    if not ci or len(ci) != 2 or ci[0] is None or ci[1] is None:
        return None
    lo, hi = float(ci[0]), float(ci[1])
    return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None


def delta_ci(comparison: dict[str, Any]) -> tuple[float, float] | None:
    """Δ% interval: given directly, or derived from the ratio interval."""
    ci = comparison.get("delta_ci_pct") or comparison.get("delta_ci")
    if not ci:
        rci = comparison.get("ratio_ci")
        if rci and len(rci) == 2 and rci[0] is not None and rci[1] is not None:
            ci = [(float(rci[0]) - 1) * 100, (float(rci[1]) - 1) * 100]
    if not ci or ci[0] is None or ci[1] is None:
        return None
    lo, hi = float(ci[0]), float(ci[1])
    return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None


def delta_pct(comparison: dict[str, Any]) -> float:
    if comparison.get("delta_pct") is not None:
        return float(comparison["delta_pct"])
    return (float(comparison["ratio"]) - 1) * 100


def estimate(side: dict[str, Any]) -> float:
    value = side.get("estimate", side.get("value"))
    return float(value) if value is not None else math.nan


def build_row(comparison: dict[str, Any], alloc: dict[str, Any] | None) -> Row:
    base, head = comparison.get("base") or {}, comparison.get("head") or {}
    scale = choose_scale(str(comparison.get("unit", "")), estimate(base))
    if alloc is not None:
        bytes_text = bytes_change(
            estimate(alloc.get("base") or {}),
            estimate(alloc.get("head") or {}),
            alloc.get("delta_pct"),
        )
    else:
        bytes_text = "n/a"
    return Row(
        params=params_of(comparison),
        baseline=value_with_interval(estimate(base), _ci(base), scale),
        feature=value_with_interval(estimate(head), _ci(head), scale),
        delta=delta_with_interval(delta_pct(comparison), delta_ci(comparison)),
        verdict=str(comparison.get("verdict", "")),
        bytes=bytes_text,
        comparison=comparison,
        alloc=alloc,
        scale=scale,
    )


def build_tables(comparisons: Iterable[dict[str, Any]]) -> list[Table]:
    """Group primary comparisons by benchmark and mode; attach each one's bytes/op comparison."""
    comparisons = list(comparisons)
    allocs = {entry_key(c): c for c in comparisons if metric_of(c) == ALLOC_NORM}
    tables: dict[tuple[str, str], Table] = {}
    for c in sorted(comparisons, key=_sort_key):
        if metric_of(c) != PRIMARY:
            continue
        bench, mode, _ = entry_key(c)
        table = tables.setdefault((bench, mode), Table(bench, mode, [], []))
        row = build_row(c, allocs.get(entry_key(c)))
        for name in row.params:
            if name not in table.param_names:
                table.param_names.append(name)
        table.rows.append(row)
    return list(tables.values())


def _natural(text: str) -> tuple[Any, ...]:
    """``"16"`` < ``"128"`` < ``"abc"``: numbers by value, then text."""
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


def _sort_key(c: dict[str, Any]) -> tuple[Any, ...]:
    bench, mode, params = entry_key(c)
    return (bench, mode, tuple((k, _natural(v)) for k, v in params), metric_of(c))


def _effect_phrase(row: Row, with_name: bool, bench: str) -> str:
    where = short_name(bench) if with_name else ""
    label = params_label(row.params)
    head = " ".join(p for p in (where, label) if p)
    return f"{head} {row.delta}".strip()


def summary_line(tables: list[Table], options: dict[str, Any]) -> str:
    """One line: what improved or regressed, by how much, with interval, at which params."""
    parts: list[str] = []
    for verdict in SIGNIFICANT:
        phrases = []
        for table in tables:
            rows = [r for r in table.rows if r.verdict == verdict]
            for i, row in enumerate(rows):
                phrases.append(_effect_phrase(row, i == 0, table.benchmark))
        if phrases:
            parts.append(f"{verdict} " + "; ".join(phrases))
    others: dict[str, int] = {}
    for table in tables:
        for row in table.rows:
            if row.verdict not in SIGNIFICANT:
                others[row.verdict] = others.get(row.verdict, 0) + 1
    total = sum(len(t.rows) for t in tables)
    conf = _conf_text(options)
    alloc = _alloc_phrases(tables)
    if not parts:
        text = f"No significant change in {total} comparison{'s' if total != 1 else ''}"
        if others:
            text += " (" + ", ".join(f"{n} {v}" for v, n in sorted(others.items())) + ")"
    else:
        text = "Feature vs baseline: " + "; ".join(parts)
        if others:
            text += "; other comparisons: " + ", ".join(
                f"{n} {v}" for v, n in sorted(others.items())
            )
    if alloc:
        text += "; bytes/op " + ", ".join(alloc)
    return text + f" ({conf})."


def _alloc_phrases(tables: list[Table]) -> list[str]:
    out = []
    for table in tables:
        for row in table.rows:
            if row.alloc is not None and str(row.alloc.get("verdict")) in SIGNIFICANT:
                label = params_label(row.params)
                name = short_name(table.benchmark) + (f" {label}" if label else "")
                out.append(f"{name} {row.bytes}")
    return out


def _conf_text(options: dict[str, Any]) -> str:
    conf = options.get("confidence")
    theta = options.get("threshold")
    bits = []
    if conf is not None:
        bits.append(f"{_pct(conf)} intervals")
    if theta is not None:
        bits.append(f"{_pct(theta)} threshold")
    return ", ".join(bits) if bits else "intervals as in Methodology"


def _pct(fraction: Any) -> str:
    value = float(fraction) * 100 if float(fraction) <= 1 else float(fraction)
    return f"{value:g}%"


def compare_options(compare: dict[str, Any]) -> dict[str, Any]:
    """Confidence, threshold and Holm switch, wherever the compare document keeps them."""
    opts = dict(compare.get("options") or {})
    for key in ("confidence", "threshold", "holm"):
        if key not in opts and key in compare:
            opts[key] = compare[key]
    return opts


def method_sentences(options: dict[str, Any], n_comparisons: int) -> str:
    """The statistical method in two sentences, matching what perfproof.stats computes."""
    conf = _pct(options["confidence"]) if options.get("confidence") is not None else "the"
    theta = _pct(options["threshold"]) if options.get("threshold") is not None else "the"
    holm = options.get("holm", True)
    first = (
        "Each side is estimated by the mean of its fork means (the JVM fork, not the "
        "iteration, is the unit of replication), and the feature/baseline ratio gets a "
        f"{conf} interval from Welch's t on the logarithms of the fork means with "
        "Welch–Satterthwaite degrees of freedom; bytes/op is compared exactly "
        "(tolerance 0.5 B or 0.1%)."
    )
    adjust = (
        f" p-values are Holm-adjusted across the {n_comparisons} comparisons."
        if holm
        else " p-values are not adjusted for multiple comparisons."
    )
    second = (
        f"A change is improved or regressed when its interval excludes 1 and the estimate is "
        f"beyond the {theta} threshold, same when the interval lies within ±{theta}, "
        f"negligible when it excludes 1 inside the threshold, and inconclusive otherwise;" + adjust
    )
    return first + " " + second


def fallback_sentence(comparisons: list[dict[str, Any]]) -> str:
    """Said when some comparison could not use fork-level statistics (one fork on a side)."""
    pooled = [c for c in comparisons if c.get("method") == "iteration-level"]
    if not pooled:
        return ""
    return (
        f" {len(pooled)} comparison{'s' if len(pooled) != 1 else ''} had a single fork on a side,"
        " so iterations were pooled as if independent; those intervals are too narrow and are"
        " flagged under Warnings."
    )


@dataclass
class WarningGroup:
    """Warnings about one comparison (``about``), or about the whole run (``about`` empty)."""

    about: str
    items: list[str]


EXACT_NOTE = "bytes/op compared exactly"
"""Start of the note every exact bytes/op comparison carries; Statistics states it once."""


def comparison_label(c: dict[str, Any]) -> str:
    label = short_name(str(c.get("benchmark", "")))
    params = params_label(params_of(c))
    if params:
        label += f" ({params})"
    if metric_of(c) != PRIMARY:
        label += f" {metric_of(c)}"
    return label


def collect_warnings(
    run: RunFolder, comparisons: list[dict[str, Any]], unmatched: list[str]
) -> list[WarningGroup]:
    """Comparison warnings grouped by what they are about, then run-level warnings."""
    groups: dict[str, WarningGroup] = {}
    for c in sorted(comparisons, key=_sort_key):
        items = [str(w) for w in c.get("warnings") or [] if not str(w).startswith(EXACT_NOTE)]
        inconclusive = str(c.get("verdict")) == Verdict.INCONCLUSIVE and metric_of(c) == PRIMARY
        if inconclusive and not any(w.startswith("inconclusive") for w in items):
            items.append(_inconclusive_text(c))
        if items:
            label = comparison_label(c)
            group = groups.setdefault(label, WarningGroup(label, []))
            group.items += [w for w in items if w not in group.items]
    out = list(groups.values())
    run_level = [str(w) for w in run.compare.get("warnings") or []]
    run_level += [str(n) for n in run.compare.get("notes") or []]
    run_level += environment.run_warnings(run)
    if unmatched:
        run_level.append("Not compared, present on one side only: " + "; ".join(unmatched) + ".")
    if run_level:
        out.append(WarningGroup("", list(dict.fromkeys(run_level))))
    return out


def _inconclusive_text(c: dict[str, Any]) -> str:
    text = "inconclusive"
    mde = c.get("mde_pct")
    if mde is not None and math.isfinite(float(mde)):
        text += f": this design detects about ±{float(mde):.1f}%"
    forks = c.get("forks_needed")
    if forks:
        text += f"; about {int(forks)} forks per side would resolve the threshold"
    return text


def unmatched_lines(compare: dict[str, Any]) -> list[str]:
    out = []
    for u in compare.get("unmatched") or []:
        if isinstance(u, dict):
            label = str(u.get("benchmark", "?"))
            params = params_label(params_of(u))
            side = u.get("side") or u.get("only_in")
            where = f" ({params})" if params else ""
            out.append(f"{label}{where}" + (f" ({side} only)" if side else ""))
        else:
            out.append(str(u))
    return out


def build_context(run: RunFolder) -> ReportContext:
    """The full report context for one loaded run folder."""
    comparisons = [c for c in run.compare.get("comparisons") or [] if isinstance(c, dict)]
    options = compare_options(run.compare)
    tables = build_tables(comparisons)
    n_tested = sum(1 for c in comparisons if c.get("method") != "exact")
    unmatched = unmatched_lines(run.compare)
    warnings = collect_warnings(run, comparisons, unmatched)
    steps, note = reproduce.steps(run)
    return ReportContext(
        title=environment.title(run),
        summary=summary_line(tables, options),
        tables=tables,
        methodology=environment.methodology(run, options),
        method=method_sentences(options, n_tested) + fallback_sentence(comparisons),
        reproduce=steps,
        reproduce_note=note,
        warnings=warnings,
        raw=raw_tables(run),
        unmatched=unmatched,
        options=options,
        jmh_view=jmh_view(tables),
    )


def jmh_view(tables: list[Table]) -> list[JmhRow]:
    """JMH's score ± 99.9% error (iterations pooled) per side, as JMH would print it."""
    out = []
    for table in tables:
        for row in table.rows:
            j = row.comparison.get("jmh") or {}
            if j.get("base_score") is None or j.get("head_score") is None:
                continue
            label = short_name(table.benchmark)
            if row.params:
                label += f" ({params_label(row.params)})"
            overlap = {True: "yes", False: "no"}.get(j.get("overlap"), "n/a")
            out.append(
                JmhRow(
                    label,
                    _jmh_value(j["base_score"], j.get("base_error"), row.scale),
                    _jmh_value(j["head_score"], j.get("head_error"), row.scale),
                    overlap,
                )
            )
    return out


def _jmh_value(score: float, error: float | None, scale: Scale) -> str:
    if error is None or not math.isfinite(float(error)):
        return value_with_interval(float(score), None, scale)
    err = float(error)
    return value_with_interval(float(score), (float(score) - err, float(score) + err), scale)

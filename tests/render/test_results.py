"""The results section every Markdown output shares: a summary that counts what the tables
show, one row per @Param, the Δ% header naming the level of the intervals shown."""

from __future__ import annotations

import re

import numpy as np

from lab.simulate import ForkNoise, hierarchical
from perfproof.compare import CompareOptions, compare_sides
from perfproof.model import ALLOC_NORM, BenchKey, Direction, Samples
from perfproof.model.enums import Family
from perfproof.render.results import build_tables, results_markdown, summary_line


def _suite(family: str):
    """24 throughput keys: 16 made 28–128% faster and allocating half, 8 unchanged."""
    rng = np.random.default_rng(24)
    base, head = {}, {}
    effects = [1.28 + k / 15 for k in range(16)] + [1.0] * 8
    for i, effect in enumerate(effects):
        key = BenchKey("org.acme.Ser.read", "thrpt", (("size", str(i)),))
        for side, level in ((base, 1e9), (head, 1e9 * effect)):
            forks = hierarchical(rng, 3, 5, level=level, noise=ForkNoise(fork_sd=0.03))
            side[key] = Samples(key, "ops/s", Direction.HIGHER, forks)
            alloc = 24.0 if side is base or effect == 1.0 else 12.0
            akey = key.with_metric(ALLOC_NORM)
            side[akey] = Samples(akey, "B/op", Direction.LOWER, [np.full(5, alloc)] * 3)
    return compare_sides(base, head, CompareOptions(family=Family(family)))


def test_summary_counts_what_the_tables_show() -> None:
    result = _suite("bh")
    tables = build_tables(result.comparisons)
    summary = summary_line(tables, 0.99, 0.01, "bh")
    m = re.fullmatch(
        r"(\d+) of 24 faster \(\+(\d+)% to \+(\d+)%\), 16 allocate less, 0 regressed, "
        r"(\d+) undecided \(α = 1%, Benjamini–Hochberg, 1% threshold\)\.",
        summary,
    )
    assert m, summary
    rows = [r for t in tables for r in t.rows]
    improved = [r for r in rows if r.verdict == "improved"]
    assert int(m.group(1)) == len(improved) >= 14
    assert int(m.group(4)) == 24 - len(improved)
    deltas = sorted(r.comparison.delta_pct for r in improved)
    assert (int(m.group(2)), int(m.group(3))) == (round(deltas[0]), round(deltas[-1]))
    md = results_markdown(summary, tables, 0.99)
    assert md.count("| improved |") == len(improved)
    assert "G ops/s ± " in md and "24 → 12 B/op (-50.0%)" in md


def test_the_header_names_the_level_of_the_intervals_shown() -> None:
    bh = build_tables(_suite("bh").comparisons)
    level = bh[0].rows[0].comparison.interval_confidence
    assert f"Δ% [{level * 100:.4g}% CI]" in results_markdown("s", bh, 0.99)
    assert "Δ% [99% CI]" in results_markdown("s", build_tables(_suite("none").comparisons), 0.99)
    holm = build_tables(_suite("holm").comparisons)
    md = results_markdown("s", holm, 0.99)
    assert "Δ% [CI]" in md  # Holm gives each rank its level: each named once below the tables
    shown = {f"{r.comparison.interval_confidence * 100:.4g}" for t in holm for r in t.rows}
    levels = sorted(shown, key=float, reverse=True)
    assert len(levels) > 1
    named = re.search(r"Each Δ% interval is at the level its verdict was decided at: (.*)\.", md)
    assert named and re.findall(r"([\d.]+)% \(", named.group(1)) == levels

"""Inline SVG figures: self-contained, deterministic, with the content they promise."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from perfproof.jmh.console import warmup_scores
from perfproof.model import RatioBounds
from perfproof.report import forkplot, plots, render

SVG = "{http://www.w3.org/2000/svg}"


def _external_refs(svg: str) -> list[str]:
    refs = re.findall(r'(?:href|src)\s*=\s*"([^"]*)"', svg)
    return [r for r in refs if not r.startswith("#")]


def test_forest_plot_is_log_scale_with_threshold_band_and_verdicts() -> None:
    rows = [
        plots.ForestRow("Codes.sum n=16", 0.82, RatioBounds(0.80, 0.84), "improved"),
        plots.ForestRow("Codes.sum n=128", 1.12, RatioBounds(1.07, 1.17), "regressed"),
        plots.ForestRow("Thr.concat", 1.0, RatioBounds.read(None, None), "inconclusive"),
    ]
    plot = plots.forest(rows, 0.01)
    svg = plot.svg
    assert plot.off_chart == ("Thr.concat",)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    for label in ("Codes.sum n=16", "Codes.sum n=128", "improved", "regressed", "±1% threshold"):
        assert label in texts, label
    assert "log scale" in " ".join(texts)
    assert _external_refs(svg) == []
    assert "<?xml" not in svg and "DOCTYPE" not in svg and "<metadata" not in svg


def _arrows(svg: str) -> int:
    """How many arrow heads (interval ends off the axis) a forest plot draws."""
    return len(re.findall(r'<g id="[^"]*off-chart-\d+"', svg))


@pytest.mark.parametrize("threshold", [0.0, 0.01, 0.5, 0.6, 0.99])
def test_forest_of_unbounded_intervals_renders_with_arrows_at_any_threshold(
    threshold: float,
) -> None:
    """Every interval unbounded (two forks a side, a strict look), some past any float ratio:
    the plot still renders on a bounded axis, each cut end an arrow at the limit."""
    inf = float("inf")
    rows = [
        plots.ForestRow("open both", 1.4, RatioBounds.unbounded(), "inconclusive"),
        plots.ForestRow("open above", 2.0, RatioBounds(0.3, inf), "inconclusive"),
        plots.ForestRow("huge", 1e300, RatioBounds.of_logs(-2000.0, 2000.0), "inconclusive"),
        plots.ForestRow("tiny", 1e-300, RatioBounds(0.0, 1e-200), "inconclusive"),
    ]
    left, right = plots.forest_limits(rows, threshold)
    assert 0 < left < 1 - threshold and 1 + threshold < right
    assert right / left <= plots.AXIS_REACH**2 * 10
    plot = plots.forest(rows, threshold)
    assert plot.off_chart == ("open both", "open above", "huge", "tiny")
    texts = [t.text or "" for t in ET.fromstring(plot.svg).iter(f"{SVG}text")]
    assert "open both" in texts and "inconclusive" in texts
    assert _arrows(plot.svg) == 2 + 1 + 2 + 1


def test_forest_arrows_only_where_an_interval_leaves_the_axis() -> None:
    bounded = [plots.ForestRow("a", 1.1, RatioBounds(1.05, 1.15), "regressed")]
    assert plots.forest(bounded, 0.01).off_chart == ()
    assert _arrows(plots.forest(bounded, 0.01).svg) == 0
    one_open = [*bounded, plots.ForestRow("b", 1.1, RatioBounds(0.9, float("inf")), "x")]
    assert _arrows(plots.forest(one_open, 0.01).svg) == 1


def test_figures_are_deterministic_and_ids_unique_per_figure() -> None:
    base = forkplot.SideSeries("baseline", [[1.0, 1.1, 1.05], [1.2, 1.15, 1.18]], [[2.0, 1.4]] * 2)
    head = forkplot.SideSeries("feature", [[0.9, 0.95, 0.92], [0.97, 0.99, 0.96]])
    a1 = forkplot.fork_detail(base, head, "ns/op", 1.0, salt="fig-a")
    a2 = forkplot.fork_detail(base, head, "ns/op", 1.0, salt="fig-a")
    b = forkplot.fork_detail(base, head, "ns/op", 1.0, salt="fig-b")
    assert a1 == a2
    ids_a = set(re.findall(r'id="([^"]+)"', a1))
    ids_b = set(re.findall(r'id="([^"]+)"', b))
    assert ids_a and not (ids_a & ids_b)
    texts = [t.text or "" for t in ET.fromstring(a1).iter(f"{SVG}text")]
    assert "warm-up" in texts and "baseline" in texts and "feature" in texts


def test_bytes_bars_switch_to_log_scale_for_wide_ranges() -> None:
    wide = plots.bytes_bars(["a", "b"], [56.0, 267_872.0], [56.0, 267_872.0])
    narrow = plots.bytes_bars(["a"], [4736.0], [0.0])
    assert "B/op (log scale)" in wide
    assert "B/op (log scale)" not in narrow and "B/op" in narrow
    assert "4,736" in narrow


def test_html_holds_every_plot_inline_and_nothing_external(
    make_run_folder: Callable[[str], Path],
) -> None:
    html = render(make_run_folder("ab"), "html")
    assert html.count("<svg ") == 1 + 1 + 9  # forest, bytes/op bars, one per comparison
    assert html.count("<script") == 1 and "<script>" in html  # inline, no src
    assert "<link" not in html and "<img" not in html
    assert "@import" not in html
    assert re.findall(r"url\((?!#)", html) == []
    assert _external_refs(html) == []
    for section in ("Results", "Methodology", "Reproduce", "Warnings", "Raw JMH results"):
        assert f">{section}</h2>" in html
    assert "warm-up shaded" in html  # warm-ups read from the JMH logs


def test_warmup_log_parsing() -> None:
    log = [
        "# Benchmark: fx.Codes.sum",
        "# Parameters: (n = 16)",
        "# Fork: 1 of 2",
        "# Warmup Iteration   1: 18.250 ns/op",
        "# Warmup Iteration   2: 1.2 us/op",
        "Iteration   1: 11.459 ns/op",
        "# Fork: 2 of 2",
        "# Warmup Iteration   1: 17.000 ns/op",
        "# Benchmark: fx.Thr.concat",
        "# Fork: 1 of 1",
        "# Warmup Iteration   1: 24000000.5 ops/s",
    ]
    found = warmup_scores(log)
    assert found[("fx.Codes.sum", (("n", "16"),))] == [[18.25, pytest.approx(1200.0)], [17.0]]
    assert found[("fx.Thr.concat", ())] == [[24000000.5]]


def test_param_values_the_font_lacks_print_no_warning() -> None:
    """CJK or emoji @Param values drew matplotlib's "Glyph … missing from font" on stderr."""
    import warnings

    from matplotlib.figure import Figure

    from perfproof.report import plots as figures

    fig = Figure()
    fig.add_subplot().set_title("鍵=値 🙂")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svg = figures.to_svg(fig, "cjk")
    assert "<svg" in svg
    assert [str(w.message) for w in caught] == []


def test_jmh_settings_missing_from_the_file_are_named_not_none() -> None:
    from perfproof.jmh.entries import JmhEntry
    from perfproof.report.environment import _setting as setting_of

    def _setting(entry: dict[str, object]) -> str:
        return setting_of(JmhEntry.read(entry))

    full = {"forks": 2, "warmupIterations": 2, "warmupTime": "1 s",
            "measurementIterations": 3, "measurementTime": "1 s"}  # fmt: skip
    assert _setting(full) == "2 forks × (2 × 1 s warm-up + 3 × 1 s measurement)"
    bare = {"forks": 1, "measurementIterations": 3, "measurementTime": "1 s"}
    text = _setting(bare)
    assert "None" not in text
    assert text == "1 fork × (warm-up not recorded + 3 × 1 s measurement)"
    assert "no warm-up" in _setting({**full, "warmupIterations": 0})
    assert _setting({}).startswith("forks not recorded")


def test_strip_plot_shades_the_two_groups_of_fork_means_and_says_so(
    make_run_folder: Callable[[str], Path],
) -> None:
    """A comparison whose results carry fork groups gets both bands in its strip plot, each
    labelled with how many forks of each side it holds, and a caption that says the verdict
    was held; the other comparisons' figures stay as they were."""
    import json

    run = make_run_folder("ab")
    doc = json.loads((run / "results.json").read_text())
    target = next(
        c for c in doc["comparisons"] if c["metric"] == "primary" and c["unit"] == "ns/op"
    )
    base_mean, head_mean = target["base"]["estimate"], target["head"]["estimate"]
    slower = 2 if base_mean > head_mean else 0  # base forks in the high group
    target["diagnostics"]["fork_groups"] = {
        "low": min(base_mean, head_mean), "high": max(base_mean, head_mean),
        "base_low": 2 - slower, "base_high": slower, "head_low": slower, "head_high": 2 - slower,
        "separation": 12.0, "p_occupancy": 0.33, "p_within_low": None, "p_within_high": None,
        "held": True,
    }  # fmt: skip
    (run / "results.json").write_text(json.dumps(doc))
    html = render(run, "html")
    assert html.count("fast group: base ") == 1 and html.count("slow group: base ") == 1
    assert html.count("fall in two groups (shaded): fast near ") == 1
    assert "so the look gave no verdict on it." in html
    plain = render(make_run_folder("ab"), "html")
    assert "fast group:" not in plain and html.count("<svg ") == plain.count("<svg ")


def test_group_bands_render_into_the_strip_plot_only_when_given() -> None:
    base = forkplot.SideSeries("baseline", [[10.0, 10.1], [10.2, 10.0], [15.0, 15.2]])
    head = forkplot.SideSeries("feature", [[15.1, 14.9], [15.3, 15.0], [9.9, 10.1]])
    bands = [
        forkplot.GroupBand(10.05, True, "fast group: base 2 of 3, head 1 of 3"),
        forkplot.GroupBand(15.08, False, "slow group: base 1 of 3, head 2 of 3"),
    ]
    shaded = forkplot.fork_detail(base, head, "ns/op", 1.0, salt="fig-g", groups=bands)
    plain = forkplot.fork_detail(base, head, "ns/op", 1.0, salt="fig-g")
    for color in (forkplot.FAST_BAND, forkplot.SLOW_BAND):
        assert color in shaded and color not in plain
    assert "fast group: base 2 of 3, head 1 of 3" in shaded
    ET.fromstring(shaded)  # still well-formed SVG


RUNS = Path(__file__).parents[1] / "fixtures" / "runs"


def test_report_of_43_keys_is_light_with_styles_declared_once() -> None:
    """43 keys, two forks a side: one figure per key, the forest and the bytes bars in well
    under a megabyte (it was 3 MB for 48 keys), no element carrying its own style, and every
    class the figures use declared once in the page's stylesheet."""
    html = render(RUNS / "wild-43-keys-2-forks-past-999", "html")
    assert len(html.encode()) < 500_000
    assert html.count("<svg ") == 1 + 1 + 43
    svgs = re.findall(r"<svg .*?</svg>", html, re.S)
    assert not any('style="' in svg for svg in svgs)
    style = html[html.index("<style>") : html.index("</style>")]
    declared = re.findall(r"svg\.plot \.(s\d+) \{", style)
    assert len(declared) == len(set(declared)) > 3
    used = {c for svg in svgs for c in re.findall(r'class="(s\d+)"', svg)}
    assert used == set(declared)
    forks = [svg for svg in svgs if 'class="plot fork"' in svg]
    assert len(forks) == 43 and max(len(svg) for svg in forks) < 8_000
    for svg in svgs:
        ET.fromstring(svg)


def test_forest_holds_the_bytes_per_op_verdicts_of_keys_that_allocate() -> None:
    """The demo run's two keys both stop allocating (2,048 and 6,401 → 0 B/op): the forest has
    a B/op row for each beside its time row, with its own verdict, the ratio 0 an arrow."""
    html = render(RUNS / "demo-feature-vs-baseline", "html")
    forest = re.search(r'<figure id="fig-forest">.*?</figure>', html, re.S)
    assert forest is not None
    root = ET.fromstring(re.search(r"<svg .*?</svg>", forest.group(0), re.S).group(0))
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    labels = [t for t in texts if t.endswith("· B/op")]
    assert labels == ["ErrorReporterBench.report · B/op", "EventBusBench.publishNoListeners · B/op"]
    assert texts.count("improved") == 4
    assert "bytes/op comparisons of keys that allocate" in forest.group(0)


def test_a_prove_page_takes_the_figures_with_the_styles_they_need() -> None:
    """prove's report.html shows the A/B run's figures, whose styles the run's report declares
    once for its page: they come along, or the fork figures would draw as black shapes."""
    from perfproof.render import prove_html
    from perfproof.report import embedded_run

    figures = embedded_run(RUNS / "demo-prove-bundle" / "ab").figures()
    page = prove_html.render_html("# Prove\n\n### Allocation\n", figures.svgs, figures.css)
    assert page.count('class="plot fork"') == 2
    assert "svg.fork .base" in page
    used = set(re.findall(r'class="(s\d+)"', page))
    assert used and all(f"svg.plot .{name} {{" in page for name in used)

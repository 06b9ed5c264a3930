"""Time estimates from JMH settings, the benchmark count from JMH's list, and the ETA."""

from __future__ import annotations

import io

import pytest

from perfproof.jmh.listing import benchmark_names
from perfproof.measure.progress import (
    HOST_OVERHEAD_S,
    PlainReporter,
    RichReporter,
    StepTracker,
    count_benchmarks,
    estimate_step_seconds,
    eta_seconds,
    format_duration,
)
from perfproof.model.documents.run_plan import FORK_OVERHEAD_S, JmhSettings, parse_settings
from perfproof.units.durations import parse_time

LIST_OUTPUT = """Benchmarks: \n\
fx.Codes.loopEmpty
  param "n" = {16, 128}
fx.Codes.sum
  param "n" = {16, 128}
  param "kind" = {a, b, c}
fx.Thr.concat
"""


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1s", 1.0),
        ("500ms", 0.5),
        ("2", 2.0),
        ("1m", 60.0),
        ("250 us", 0.00025),
        ("1.5s", 1.5),
        ("250µs", 0.00025),
        ("1hr", 3600.0),
    ],
)
def test_parse_time(text: str, seconds: float) -> None:
    assert parse_time(text) == pytest.approx(seconds)


def test_parse_time_rejects_garbage() -> None:
    with pytest.raises(ValueError):
        parse_time("soon")
    with pytest.raises(ValueError):
        parse_time("5 parsecs")


def test_settings_from_options_last_value_wins_and_unknowns_fall_back() -> None:
    s = parse_settings(["-f", "1", "-wi", "3", "-w", "1s", "-i", "5", "-r", "500ms", "-f", "2"])
    assert s == JmhSettings(forks=2, warmup_iterations=3, warmup_s=1.0, iterations=5,
                            measurement_s=0.5)  # fmt: skip
    assert parse_settings(["-w", "bogus"]).warmup_s == JmhSettings().warmup_s


def test_benchmark_count_multiplies_param_values_and_applies_overrides() -> None:
    assert benchmark_names(LIST_OUTPUT) == ["fx.Codes.loopEmpty", "fx.Codes.sum", "fx.Thr.concat"]
    assert count_benchmarks(LIST_OUTPUT) == 2 + 2 * 3 + 1
    assert count_benchmarks(LIST_OUTPUT, ["-p", "n=16"]) == 1 + 1 * 3 + 1
    assert count_benchmarks("Benchmarks: \n") == 0


def test_step_estimate_from_settings() -> None:
    s = JmhSettings(forks=2, warmup_iterations=3, warmup_s=1.0, iterations=5, measurement_s=1.0)
    expected = HOST_OVERHEAD_S + 4 * 2 * (3 + 5 + FORK_OVERHEAD_S)
    assert estimate_step_seconds(s, 4) == pytest.approx(expected)


def test_tracker_counts_iterations_from_jmh_output() -> None:
    s = JmhSettings(forks=1, warmup_iterations=2, warmup_s=1.0, iterations=2, measurement_s=2.0)
    t = StepTracker(s, estimate_step_seconds(s, 1))
    for line in ["# Fork: 1 of 1", "# Warmup Iteration   1: 10 ns/op",
                 "# Warmup Iteration   2: 9 ns/op", "Iteration   1: 8 ns/op"]:  # fmt: skip
        t.feed(line)
    assert t.done_s == pytest.approx(FORK_OVERHEAD_S + 2 * 1.0 + 2.0)
    for _ in range(50):
        t.feed("Iteration   2: 8 ns/op")
    assert t.done_s == pytest.approx(t.estimate_s)  # never beyond the estimate


def test_eta_scales_by_observed_speed_within_bounds() -> None:
    assert eta_seconds(100.0, 0.0, 0.0) == 100.0
    assert eta_seconds(100.0, 50.0, 75.0) == pytest.approx(150.0)
    assert eta_seconds(100.0, 10.0, 1000.0) == pytest.approx(300.0)  # clamped at 3×
    assert eta_seconds(100.0, 10.0, 1.0) == pytest.approx(50.0)  # clamped at 0.5×


def test_format_duration() -> None:
    assert format_duration(9.6) == "10s"
    assert format_duration(125) == "2m05s"
    assert format_duration(3 * 3600 + 120) == "3h02m"


def _two_steps(duration_s: float, waited_s: float = 0.0, line: str = "") -> str:
    """Two 10 s steps; the first took ``duration_s``, ``waited_s`` of it for the JMH lock."""
    out = io.StringIO()
    r = PlainReporter(out)
    s = JmhSettings(forks=1, warmup_iterations=1, warmup_s=1.0, iterations=1, measurement_s=1.0)
    r.start_run(20.0, 2)
    r.start_step("round 1 base (01-base)", 10.0, s)
    r.line(line)
    r.end_step("round 1 base (01-base)", "done", duration_s, waited_s=waited_s)
    r.start_step("round 1 head (01-head)", 10.0, s)
    return out.getvalue()


def test_plain_reporter_prints_a_line_per_step_with_eta() -> None:
    text = _two_steps(20.0, line="Iteration   1: 5 ns/op")
    assert "2 JMH steps, about 20s" in text
    assert "[1/2] round 1 base (01-base): done in 20.0s" in text
    # the first step took twice its estimate, so the remaining 10 s are predicted as 20 s
    assert "[2/2] round 1 head (01-head) (about 10s, ETA 20s)" in text


def test_time_waiting_for_the_jmh_lock_does_not_stretch_the_eta() -> None:
    # 70 s in all, 60 s of which another JMH held the lock: the benchmark itself took 10 s
    text = _two_steps(70.0, waited_s=60.0)
    waited = "[1/2] round 1 base (01-base): done in 10.0s (after waiting 60.0s for the JMH lock)"
    assert waited in text
    assert "[2/2] round 1 head (01-head) (about 10s, ETA 10s)" in text


def test_live_bar_is_gone_once_the_run_stops(monkeypatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    r = RichReporter()
    r.start_run(10.0, 2)
    r.start_step(
        "round 1 base (01-base)",
        5.0,
        JmhSettings(forks=1, warmup_iterations=1, warmup_s=1.0, iterations=1, measurement_s=1.0),
    )
    r.message("interrupted: finished steps are kept")
    r.close()
    assert err.getvalue() == "interrupted: finished steps are kept\n"


def test_a_new_round_counts_finished_work_plus_only_what_is_ahead() -> None:
    settings = JmhSettings(forks=1, warmup_iterations=0, warmup_s=0, iterations=1,
                           measurement_s=1.0)  # fmt: skip
    rep = PlainReporter(io.StringIO())
    rep.start_run(100.0, 4)  # round 1: four keys, both sides
    for _ in range(2):
        rep.start_step("r1", 50.0, settings)
        rep.end_step("r1", "done", 50.0)
    # round 2 runs the one undecided key: the bar's total shrinks to the work done plus it
    rep.start_run(20.0, 2)
    assert rep.acc.total_s == pytest.approx(120.0) and rep.acc.steps == 4
    assert rep.acc.completed_s() == pytest.approx(100.0)
    assert rep.acc.eta_s() == pytest.approx(20.0)


def test_the_listing_is_read_once_for_names_keys_and_counts() -> None:
    """Names, suite keys and the step count come from one reading of the listing, so a JMH
    warning printed before ``Benchmarks:`` is never a benchmark in any of them."""
    from perfproof.measure.keys import suite_keys

    noisy = "WARNING: An illegal reflective access\nfx.NotABench\n" + LIST_OUTPUT
    names = benchmark_names(noisy)
    assert names == ["fx.Codes.loopEmpty", "fx.Codes.sum", "fx.Thr.concat"]
    assert {k.benchmark for k in suite_keys(noisy)} == set(names)
    assert count_benchmarks(noisy) == len(suite_keys(noisy)) == 2 + 2 * 3 + 1


def test_a_sequential_run_bounds_its_rounds_not_its_steps() -> None:
    """A sequential run's step count rises when a round splits into one JMH process per
    benchmark and falls as keys stop, so it is said as an estimate and never as ``[n/≤N]``;
    the rounds are the bound it keeps."""
    settings = JmhSettings(forks=1, warmup_iterations=0, warmup_s=0, iterations=1,
                           measurement_s=1.0)  # fmt: skip
    out = io.StringIO()
    rep = PlainReporter(out)
    rep.start_run(100.0, 20, rounds=10)
    rep.start_step("round 1/≤10 base", 5.0, settings)
    rep.end_step("round 1/≤10 base", "done", 5.0)
    rep.start_run(90.0, 38, rounds=10)
    rep.start_step("round 2/≤10 head", 5.0, settings)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("at most 10 rounds (keys leave once decided): about 20 JMH steps")
    assert lines[1].startswith("[1] round 1/≤10 base") and lines[2].startswith("[1] round 1")
    assert lines[4].startswith("[2] round 2/≤10 head")
    assert "/≤" not in lines[1].split("]")[0] and "≤38" not in out.getvalue()
    exact = io.StringIO()
    fixed = PlainReporter(exact)
    fixed.start_run(10.0, 2)
    fixed.start_step("round 1 base", 5.0, settings)
    assert exact.getvalue().splitlines()[1].startswith("[1/2] round 1 base")

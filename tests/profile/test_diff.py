"""The before/after diff on synthetic recordings with known means and spread."""

import numpy as np
import pytest
from scipy import stats

from perfproof.profile.diff import diff, mean_stacks
from perfproof.profile.stacks import Profile

ROOT = ("java.lang.Thread.run", "com.acme.Main.run")
HOT = (*ROOT, "com.acme.Codec.toData", "java.util.stream.ReferencePipeline.collect")
KEEP = (*ROOT, "com.acme.Codec.write")


def _rec(hot: int, keep: int, hot_bytes: int = 0) -> Profile:
    cpu = {KEEP: keep}
    alloc = {(KEEP, "byte[]"): 1000}
    if hot:
        cpu[HOT] = hot
    if hot_bytes:
        alloc[(HOT, "java.util.ArrayList")] = hot_bytes
        alloc[(HOT, "java.lang.Object[]")] = hot_bytes // 2
    return Profile(source=f"r{hot}-{keep}", cpu=cpu, alloc=alloc, alloc_events=2)


BEFORE = [_rec(130, 50, 800), _rec(140, 55, 820), _rec(129, 52, 790)]
AFTER = [_rec(0, 51), _rec(0, 49), _rec(0, 53)]


def _rows(d, kind, frame, cls=None):
    return [r for r in d.rows if r.kind == kind and r.frame == frame and r.cls == cls]


def test_hot_frame_vanishes_with_mean_and_welch_interval():
    d = diff(BEFORE, AFTER, ("com.acme",))
    (row,) = _rows(d, "cpu", "java.util.stream.ReferencePipeline.collect")
    assert row.focus_frame == "com.acme.Codec.toData"
    assert row.before_mean == pytest.approx(133.0)
    assert row.after_mean == 0
    assert row.status == "vanished"
    assert row.change == pytest.approx(-133.0)
    # Welch interval for mean(after) - mean(before), computed independently
    x = np.array([130, 140, 129.0])  # after: all zeros, no spread
    se = np.sqrt(x.var(ddof=1) / 3)
    half = stats.t.ppf(0.975, 2) * se
    assert row.ci == pytest.approx((-133 - half, -133 + half))
    assert d.rows[0] is row  # biggest change first


def test_alloc_rows_by_frame_and_by_class():
    d = diff(BEFORE, AFTER, ("com.acme",))
    frame_rows = _rows(d, "alloc", "java.util.stream.ReferencePipeline.collect")
    assert frame_rows[0].before_mean == pytest.approx((1200 + 1230 + 1185) / 3)
    (lst,) = _rows(d, "alloc", "java.util.stream.ReferencePipeline.collect", "java.util.ArrayList")
    assert lst.before_mean == pytest.approx((800 + 820 + 790) / 3)
    assert lst.status == "vanished"
    (kept,) = _rows(d, "alloc", "com.acme.Codec.write", "byte[]")
    assert kept.change == 0 and kept.status == "no clear change"
    assert kept.ci == (0.0, 0.0)


def test_appeared_when_only_after_has_it():
    d = diff(AFTER, BEFORE)
    (row,) = _rows(d, "cpu", "java.util.stream.ReferencePipeline.collect")
    assert row.status == "appeared" and row.change_pct is None


def test_one_recording_a_side_has_no_interval():
    d = diff(BEFORE[:1], AFTER[:1])
    assert all(r.ci is None for r in d.rows)
    assert any("fewer than two" in w for w in d.warnings)


def test_normalized_values_are_percent_of_each_recording():
    d = diff(BEFORE, AFTER, normalize=True, kinds=("cpu",))
    (keep,) = _rows(d, "cpu", "com.acme.Codec.write")
    assert keep.after_mean == pytest.approx(100.0)
    assert keep.before_mean == pytest.approx(np.mean([50 / 180, 55 / 195, 52 / 181]) * 100)


def test_rows_of_both_kinds_ordered_by_relative_change():
    d = diff(BEFORE, AFTER)
    kinds = [r.kind for r in d.rows[:3]]
    assert "cpu" in kinds and "alloc" in kinds


def test_mean_stacks_for_differential_graph():
    m = mean_stacks(BEFORE, "alloc")
    assert m[(*HOT, "java.util.ArrayList")] == pytest.approx((800 + 820 + 790) / 3)
    assert mean_stacks(AFTER, "cpu")[KEEP] == pytest.approx(51)


def test_a_side_recorded_with_allocations_on_but_none_outside_jfr_is_a_zero_not_a_gap():
    """The fix that allocates nothing still recorded JFR's own allocation samples: its side
    answers for allocations, so the hot site vanishes instead of going uncompared."""
    from perfproof.errors import InputError
    from perfproof.profile.api import check_kinds

    sampled = "jdk.ObjectAllocationSample"
    before = [
        Profile("b1", alloc={(HOT, "long[]"): 9000}, alloc_events=3, alloc_source=sampled),
        Profile("b2", alloc={(HOT, "long[]"): 8000}, alloc_events=3, alloc_source=sampled),
    ]
    after = [
        Profile("a1", cpu={KEEP: 5}, alloc_source=sampled, recorder_alloc_bytes=4096),
        Profile("a2", cpu={KEEP: 6}, alloc_source=sampled, recorder_alloc_bytes=4096),
    ]
    assert check_kinds(after, ("cpu", "alloc"), "alloc") == ("cpu", "alloc")
    rows = _rows(diff(before, after, kinds=("alloc",)), "alloc", HOT[-1], "long[]")
    assert len(rows) == 1 and rows[0].status == "vanished"
    cpu_only = [Profile("c", cpu={KEEP: 5})]
    assert check_kinds(cpu_only, ("cpu", "alloc"), "both") == ("cpu",)
    with pytest.raises(InputError, match="no allocation events"):
        check_kinds(cpu_only, ("alloc",), "alloc")


def test_a_status_word_only_when_the_interval_excludes_zero():
    noisy_before = [_rec(10, 50), _rec(90, 50), _rec(40, 50)]
    noisy_after = [_rec(0, 50), _rec(70, 50), _rec(20, 50)]
    (row,) = _rows(diff(noisy_before, noisy_after), "cpu", HOT[-1])
    assert row.ci is not None and row.ci[0] < 0 < row.ci[1]
    assert row.change < 0 and row.status == "no clear change"
    (alone,) = _rows(diff(BEFORE[:1], AFTER[:1]), "cpu", HOT[-1])
    assert alone.ci is None and alone.status == "no clear change"  # no interval, no word


JVM = (
    ("java.lang.Thread.run", "java.lang.ClassLoader.loadClass", "java.util.Arrays.copyOf"),
    ("jdk.jfr.internal.PlatformRecorder.periodicTask", "java.lang.Throwable.fillInStackTrace"),
)


def _with_jvm(p: Profile, weight: int) -> Profile:
    cpu = {**p.cpu, **{s: weight for s in JVM}}
    alloc = {**p.alloc, **{(s, "byte[]"): weight * 100 for s in JVM}}
    return Profile(p.source, cpu=cpu, alloc=alloc, alloc_events=4, duration_s=2.0)


def test_the_jvms_own_work_is_one_row_kept_last_and_never_among_the_code():
    before = [_with_jvm(p, 5) for p in BEFORE]
    after = [_with_jvm(p, 400 + i) for i, p in enumerate(AFTER)]  # it grows the most
    d = diff(before, after, ("com.acme",))
    frames = {r.frame for r in d.rows}
    assert not frames & {"java.util.Arrays.copyOf", "java.lang.Throwable.fillInStackTrace"}
    outside = [r for r in d.rows if r.outside]
    assert {(r.kind, r.cls) for r in outside} == {
        ("cpu", None),
        ("alloc", None),
        ("alloc", "(any class)"),
    }
    (cpu,) = [r for r in outside if r.kind == "cpu"]
    assert cpu.before_mean == pytest.approx(10.0) and cpu.after_mean == pytest.approx(802.0)
    assert d.rows[-len(outside) :] == outside  # after every row of the code under test


def test_per_second_values_with_shares_beside_them():
    before = [_with_jvm(p, 5) for p in BEFORE]
    after = [_with_jvm(p, 5) for p in AFTER]
    d = diff(before, after, ("com.acme",), kinds=("cpu",), per_second=True)
    assert d.per_second
    (row,) = _rows(d, "cpu", HOT[-1])
    assert row.before_mean == pytest.approx(133.0 / 2.0)  # samples per second of 2 s
    total = [130 + 50 + 10, 140 + 55 + 10, 129 + 52 + 10]
    share = np.mean([100 * h / t for h, t in zip((130, 140, 129), total, strict=True)])
    assert row.shares == pytest.approx((share, 0.0))
    assert row.status == "vanished"
    # a recording that does not know its length keeps values per recording
    unknown = [Profile(p.source, cpu=p.cpu, alloc=p.alloc) for p in before]
    assert not diff(unknown, after, per_second=True).per_second


def test_recordings_of_one_step_are_one_replicate(tmp_path):
    from perfproof.profile.api import run_diff

    def write(step: str, name: str, hot: int) -> object:
        path = tmp_path / step / f"{name}.collapsed"
        path.parent.mkdir(exist_ok=True)
        other = 40 + int(step[1]) + (10 if name == "b" else 0)  # no two recordings alike
        rest = f"com.acme.Main.run {other}"
        path.write_text(f"com.acme.Main.run;com.acme.Codec.toData {hot}\n{rest}\n")
        return path

    # each step records two benchmarks, one JVM each: very unlike each other, alike per step
    before = [write(f"r{n}-base", b, hot) for n in (1, 2, 3) for b, hot in (("a", 5), ("b", 95))]
    after = [write(f"r{n}-head", b, 1) for n in (1, 2, 3) for b in ("a", "b")]
    apart, _ = run_diff(before, after)
    steps, _ = run_diff(before, after, replicate=lambda p: p.parent.name)
    assert len(steps.before_sources) == 3 and steps.before_sources[0] == "r1-base"
    (row,) = [r for r in steps.rows if r.frame == "com.acme.Codec.toData"]
    assert row.before == (100.0, 100.0, 100.0) and row.status == "shrank"
    (mixed,) = [r for r in apart.rows if r.frame == "com.acme.Codec.toData"]
    assert mixed.status == "no clear change"  # per fork, two benchmarks look like noise

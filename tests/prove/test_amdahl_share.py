"""The Amdahl share of a changed method: its samples found whatever JFR calls its class."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from perfproof.pipeline.prove.profile import _share
from perfproof.profile.census import census
from perfproof.profile.stacks import Profile


def test_a_nested_class_method_has_the_share_its_frames_hold() -> None:
    cpu = {
        ("java.lang.Thread.run", "com.acme.Codecs$Big.write", "java.util.Arrays.copyOf"): 30,
        ("java.lang.Thread.run", "com.acme.Other.run"): 70,
    }
    alloc = {(("java.lang.Thread.run", "com.acme.Codecs$Big.write"), "byte[]"): 400}
    profile = Profile(source="x", cpu=cpu, alloc=alloc, alloc_events=1, alloc_source="S")
    changed = "com.acme.Codecs.Big.write"  # as the change names it
    c = census([profile], (changed,))
    assert _share(c, "cpu", changed, c.cpu_samples) == pytest.approx(0.3)
    assert _share(c, "alloc", changed, c.alloc_bytes) == pytest.approx(1.0)
    assert _share(c, "cpu", "com.acme.Codecs.Big.read", c.cpu_samples) == 0.0


def test_the_per_call_speed_up_comes_from_the_decided_keys_that_reach_the_method() -> None:
    """The issue's contradiction: 4 keys 3.5–4.8× as fast beside an Amdahl row saying 0.893×,
    taken from whichever key of the benchmark came last (an undecided one)."""
    from perfproof.model.documents.prove_stages import ReachedBenchmark
    from perfproof.stats.amdahl_gains import benchmark_gains, method_gains, summary_gain

    from .conftest import wire_row

    bench = "v.bench.DigitsBench.write"
    rows = [
        wire_row(benchmark=bench, params={"v": str(i)}, verdict="improved", ratio=r)
        for i, r in enumerate((1 / 3.5, 1 / 4.0, 1 / 4.5, 1 / 4.8))
    ] + [
        wire_row(benchmark=bench, params={"v": str(i)}, verdict="inconclusive", ratio=1.12)
        for i in range(4, 8)
    ]
    changed = "Digits.write(long, byte[])"
    path = ("DigitsBench.write()", changed)
    reached = [ReachedBenchmark(benchmark=bench, path=path, changed=changed)]
    gains, unmoved = method_gains(changed, reached, rows)
    assert unmoved == 4 and sorted(round(1 + g.gain, 2) for g in gains) == [3.5, 4.0, 4.5, 4.8]
    gain = summary_gain([g.gain for g in gains])
    assert gain is not None and 3.5 < 1 + gain < 4.8
    assert benchmark_gains(rows)[bench] == gain
    # a method on the path (not its end) is reached too; one on no path is not
    assert method_gains("DigitsBench.write()", reached, rows)[0] == gains
    assert method_gains("Other.m()", reached, rows) == ((), 0)


def test_a_nested_class_method_is_reached_by_the_call_paths_that_name_its_outer_class() -> None:
    """A changed method is labelled with its own class (``BigDecimalSerializer.write``), a call
    path with the outer classes before it; kryo's serializer rows said "no key reaches it"
    beside the improved verdicts of the keys whose paths end in it."""
    from perfproof.model.documents.prove_stages import ReachedBenchmark
    from perfproof.stats.amdahl_gains import method_gains, names

    from .conftest import wire_row

    bench = "k.bench.BigDecimalBenchmark.write"
    rows = [wire_row(benchmark=bench, params={"d": "2"}, verdict="improved", ratio=0.5)]
    step = "DefaultSerializers.BigDecimalSerializer.writeUnscaledLong(Output, long)"
    path = ("BigDecimalBenchmark.write(MyState)", step)
    reached = [ReachedBenchmark(benchmark=bench, path=path, changed=step)]
    gains, _ = method_gains("BigDecimalSerializer.writeUnscaledLong(Output, long)", reached, rows)
    assert [round(1 + g.gain, 2) for g in gains] == [2.0]
    # a class whose name only ends the same is another class; constructors match likewise
    assert not names(step, "Serializer.writeUnscaledLong(Output, long)")
    assert not names(step, "BigDecimalSerializer.writeUnscaledLong(Output, int)")
    assert names("new Outer.Inner(int)", "new Inner(int)")
    assert not names("new Outer.Inner(int)", "Inner(int)")


def test_an_overloaded_name_gives_a_bound_and_a_new_overload_no_share() -> None:
    """kryo's new ``Output.writeInt(int, int)`` was given 17.9 % of the baseline beside "no key
    reaches it": every sample was ``writeInt(int, boolean)``'s, which the change left alone."""
    from perfproof.model.changes import ADDED, MODIFIED, ChangedMethod, baseline_frames
    from perfproof.model.documents.prove_measured import ProfileResult
    from perfproof.pipeline.prove.amdahl import amdahl_row
    from perfproof.render.prove_measured import profile_md

    def method(name: str, params: tuple[str, ...], kind: str, overloads: int) -> ChangedMethod:
        return ChangedMethod("k.io.Output", name, params, kind, "Output.java", (1, 9),
                             base_overloads=overloads)  # fmt: skip

    new = method("writeInt", ("int", "int"), ADDED, 2)
    both = method("writeLong", ("long",), MODIFIED, 3)
    alone = method("flush", (), MODIFIED, 1)
    assert baseline_frames([new, both, alone]) == {"k.io.Output.writeLong", "k.io.Output.flush"}
    rows = [amdahl_row(m, 0.179, 0.05, (), ()) for m in (new, both, alone)]
    assert (rows[0].cpu_share, rows[0].alloc_share, rows[0].added) == (None, None, True)
    assert (rows[1].cpu_share, rows[1].overloads, rows[1].added) == (0.179, 3, False)
    assert (rows[2].overloads, rows[2].added) == (0, False)
    bundle = SimpleNamespace(profile=ProfileResult(amdahl=tuple(rows)))
    amdahl = "\n".join(profile_md(bundle)[2])  # type: ignore[arg-type]
    new_row, both_row, alone_row = (
        next(line for line in amdahl.splitlines() if line.startswith(f"| `{m.label}`"))
        for m in (new, both, alone)
    )
    assert "17.9%" not in new_row and "≤ 17.9%" in both_row and "≤" not in alone_row
    (added,) = [line for line in amdahl.splitlines() if line.startswith("- New in the feature")]
    assert f"`{new.label}` (2)" in added and both.label not in added
    (bound,) = [line for line in amdahl.splitlines() if "at most the method's own" in line]
    assert f"`{both.label}` (3)" in bound and alone.label not in bound


def test_keys_moved_both_ways_have_no_per_call_speed_up_and_each_verdict_its_range() -> None:
    """2 improved and 3 regressed keys of one method were summarised as "1.00× as fast"."""
    from perfproof.model.documents.prove_stages import ReachedBenchmark
    from perfproof.pipeline.prove.amdahl import amdahl_row
    from perfproof.render.prove_measured import _from_keys
    from perfproof.stats.amdahl_gains import mixed, summary_gain

    from .conftest import wire_row

    assert mixed([0.49, -0.34]) and not mixed([0.49, 0.0, 0.2]) and not mixed([])
    assert summary_gain([0.49, -0.34]) is None and summary_gain([0.2, 0.2]) == pytest.approx(0.2)
    bench = "dg.DigitsBench.write"
    ratios = {"improved": (1 / 1.49, 1 / 1.16), "regressed": (1.52, 1.06, 1.05)}
    rows = [
        wire_row(benchmark=bench, params={"v": f"{verdict}{i}"}, verdict=verdict, ratio=r)
        for verdict, rs in ratios.items()
        for i, r in enumerate(rs)
    ]
    from perfproof.model.changes import MODIFIED, ChangedMethod

    method = ChangedMethod("dg.Digits", "write", ("long", "byte[]"), MODIFIED, "D.java", (1, 2))
    reached = [ReachedBenchmark(benchmark=bench, path=("B.write()", method.label),
                                changed=method.label)]  # fmt: skip
    row = amdahl_row(method, 0.7, 0.99, reached, rows)
    assert row.per_call_gain is None and row.ceiling_speedup is None and len(row.gains) == 5
    assert _from_keys(row) == "2 improved, 1.16–1.49×; 3 regressed, 0.658–0.952×"
    other = ChangedMethod("dg.Digits", "pad", ("int",), MODIFIED, "D.java", (3, 4))
    alone = amdahl_row(other, 0.1, 0.0, reached, rows)
    assert _from_keys(alone) == "no measured key's call path reaches it"

"""The census on synthetic profiles whose answer is known by construction."""

import math

import pytest

from perfproof.profile.census import census
from perfproof.profile.stacks import Profile
from perfproof.stats.amdahl import amdahl_ceiling, ceiling_if_removed

MAIN = ("java.lang.Thread.run", "com.acme.Main.run")


def _profile() -> Profile:
    cpu = {
        (*MAIN, "com.acme.Codec.encode", "java.util.Arrays.copyOf"): 60,
        (*MAIN, "com.acme.Codec.decode", "java.util.Arrays.copyOf"): 15,
        (*MAIN, "com.acme.Codec.decode"): 20,
        ("java.lang.Thread.run", "jdk.internal.Gc.work"): 5,
    }
    alloc = {
        ((*MAIN, "com.acme.Codec.encode", "java.util.Arrays.copyOf"), "byte[]"): 9000,
        ((*MAIN, "com.acme.Codec.decode"), "com.acme.Frame"): 900,
        ((*MAIN, "com.acme.Codec.decode"), "java.lang.String"): 100,
    }
    return Profile(source="x", cpu=cpu, alloc=alloc, alloc_events=3, alloc_source="S")


def test_amdahl_ceiling_is_gain_when_cost_goes_to_zero():
    assert ceiling_if_removed(0.5) == pytest.approx(1.0)
    assert ceiling_if_removed(0.2) == pytest.approx(0.25)
    assert ceiling_if_removed(0.0) == 0.0
    assert ceiling_if_removed(1.0) is None
    # the limit of the general ceiling as the part's own speed-up grows without bound
    assert amdahl_ceiling(0.2, 1e12).speedup == pytest.approx(ceiling_if_removed(0.2))


def test_cpu_rows_split_top_frame_by_focus_frame():
    c = census([_profile()], ("com.acme",))
    assert c.cpu_samples == 100
    first = c.cpu[0]
    assert (first.frame, first.focus_frame, first.self) == (
        "java.util.Arrays.copyOf",
        "com.acme.Codec.encode",
        60,
    )
    assert first.share == pytest.approx(0.6)
    # total counts every sample with copyOf on the stack, whoever called it
    assert first.total == 75
    assert first.amdahl_ceiling == pytest.approx(1 / 0.4 - 1)
    decode = [r for r in c.cpu if r.frame == "com.acme.Codec.decode"]
    assert decode[0].self == 20 and decode[0].total == 35
    gc = [r for r in c.cpu if r.frame == "jdk.internal.Gc.work"]
    assert gc[0].focus_frame is None


def test_alloc_rows_weighted_by_bytes_with_class():
    c = census([_profile()], ("com.acme",))
    assert c.alloc_bytes == 10000
    assert [(r.frame, r.cls, r.bytes) for r in c.alloc] == [
        ("java.util.Arrays.copyOf", "byte[]", 9000),
        ("com.acme.Codec.decode", "com.acme.Frame", 900),
        ("com.acme.Codec.decode", "java.lang.String", 100),
    ]
    assert c.alloc[0].focus_frame == "com.acme.Codec.encode"
    assert c.alloc[0].share == pytest.approx(0.9)


def test_focus_rows_attribute_to_leaf_most_focus_frame():
    c = census([_profile()], ("com.acme",))
    cpu = {r.frame: r for r in c.focus_rows if r.kind == "cpu"}
    assert cpu["com.acme.Codec.encode"].self == 60
    assert cpu["com.acme.Codec.decode"].self == 35
    # Main.run is on 95 stacks but never the leaf-most focus frame
    assert "com.acme.Main.run" not in cpu
    alloc = {r.frame: r for r in c.focus_rows if r.kind == "alloc"}
    assert alloc["com.acme.Codec.decode"].share == pytest.approx(0.1)


def test_several_recordings_are_counted_together():
    c = census([_profile(), _profile()], ())
    assert c.cpu_samples == 200
    # without focus, copyOf's samples from both callers make one row
    assert (c.cpu[0].frame, c.cpu[0].self) == ("java.util.Arrays.copyOf", 150)
    assert c.cpu[0].focus_frame is None
    assert math.isclose(sum(r.share for r in c.cpu), 1.0)


def test_unknown_focus_warns():
    c = census([_profile()], ("org.nowhere",))
    assert any("focus packages" in w for w in c.warnings)


def test_truncated_stacks_warn():
    p = _profile()
    p.truncated_stacks = 10
    p.max_depth = 64
    c = census([p], ())
    assert any("stackdepth" in w for w in c.warnings)


def test_allocation_on_but_nothing_sampled_outside_the_recorder_is_said():
    quiet = Profile(source="q", cpu={MAIN: 5}, alloc_source="S", recorder_alloc_bytes=2**20)
    c = census([quiet], ("com.acme",))
    assert c.alloc == [] and c.alloc_bytes == 0
    assert any("no allocation sampled outside JFR's own recorder" in w for w in c.warnings)
    assert not any("no allocation sampled" in w for w in census([_profile()]).warnings)
    assert not any("no allocation sampled" in w for w in census([quiet], kinds=("cpu",)).warnings)


def test_census_document_is_written_from_the_rows_as_they_are():
    """Keys in the rows' order (``cls`` as ``class``), a count stays a whole number and a
    foreign tool's fractional weight a fraction, a missing focus frame a null."""
    from perfproof.profile.render import census_json

    p = Profile(
        source="x",
        cpu={(*MAIN, "com.acme.Codec.encode"): 3, ("other.X.y",): 2.5},  # type: ignore[dict-item]
        alloc={((*MAIN, "com.acme.Codec.decode"), "byte[]"): 64},
        alloc_events=1,
        alloc_source="S",
    )
    doc = census_json(census([p], ("com.acme",)))
    assert list(doc) == [
        "schema", "recordings", "focus", "totals", "alloc", "cpu", "focus_frames", "warnings"
    ]  # fmt: skip
    assert doc["totals"] == {"cpu_samples": 5.5, "alloc_bytes": 64, "alloc_source": "S"}
    assert doc["alloc"] == [
        {
            "frame": "com.acme.Codec.decode",
            "focus_frame": "com.acme.Codec.decode",
            "class": "byte[]",
            "bytes": 64,
            "share": 1.0,
            "amdahl_ceiling": None,
        }
    ]
    cpu = doc["cpu"]
    assert isinstance(cpu, list)
    assert [list(r) for r in cpu] == [
        ["frame", "focus_frame", "self", "total", "share", "amdahl_ceiling"]
    ] * 2
    assert [(r["self"], type(r["self"])) for r in cpu] == [(3, int), (2.5, float)]
    assert cpu[1]["focus_frame"] is None
    frames = doc["focus_frames"]
    assert isinstance(frames, list)
    assert [(r["kind"], r["frame"], r["self"]) for r in frames] == [
        ("cpu", "com.acme.Codec.encode", 3),
        ("alloc", "com.acme.Codec.decode", 64),
    ]


def test_a_nested_class_method_given_as_the_source_spells_it_has_its_samples():
    """prove asks for a changed method by its source name (Outer.Inner.m); JFR's frames say
    Outer$Inner.m: the method's rows must hold its samples, not none."""
    nested = "com.acme.Codecs$Big.write"
    cpu = {(*MAIN, nested, "java.util.Arrays.copyOf"): 30, (*MAIN, "com.acme.Other.run"): 70}
    p = Profile(source="x", cpu=cpu, alloc={}, alloc_events=0, alloc_source="S")
    c = census([p], ("com.acme.Codecs.Big.write",))
    [row] = [r for r in c.focus_rows if r.kind == "cpu"]
    assert row.frame == nested and row.total == 30
    assert [r.focus_frame for r in c.cpu if r.frame == "java.util.Arrays.copyOf"] == [nested]

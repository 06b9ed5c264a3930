"""Which keys the profile forks record: those whose verdicts the PR body explains, one per
shape, never a key stopped for futility, the reach round's forks counted where reusable."""

from __future__ import annotations

from perfproof.model.documents.compare_wire import ComparisonDoc
from perfproof.pipeline.prove.profile_keys import PROFILE_FORKS, choose_keys, still_to_record

from .conftest import wire_row

BENCH = "v.bench.DigitsBench.write"
FUTILE = {"sequential": {"look": 1, "decided": True, "futile": True}}


def _key(value: str, width: str, time: str, alloc: str, bytes_: tuple[float, float],
         **extra: object) -> list[ComparisonDoc]:  # fmt: skip
    params = {"value": value, "width": width}
    base, head = bytes_
    return [
        wire_row(benchmark=BENCH, params=params, metric="primary", verdict=time, ratio=0.25,
                 **extra),
        wire_row(benchmark=BENCH, params=params, metric="gc.alloc.rate.norm", verdict=alloc,
                 base={"estimate": base}, head={"estimate": head}),
    ]  # fmt: skip


def _suite() -> list[ComparisonDoc]:
    """The issue's shape: the change removes a 40-byte allocation from 4 of 8 keys."""
    rows: list[ComparisonDoc] = []
    for value in ("7", "4242", "12345678", "1234567890123"):
        rows += _key(value, "32", "improved", "improved", (40.0, 0.0))
        rows += _key(value, "16", "inconclusive", "same", (40.0, 40.0))
    return rows


def test_one_key_stands_for_the_keys_of_its_shape_and_the_undecided_are_not_recorded() -> None:
    design = choose_keys(_suite())
    assert [k.key for k in design.recorded] == [f"{BENCH}(value=12345678, width=32)"]
    only = design.recorded[0]
    assert only.why == ("time improved", "bytes/op improved")
    assert len(only.stands_for) == 3 and all("width=32" in k for k in only.stands_for)
    assert (design.measured, design.no_verdict, design.futile, design.represented) == (8, 4, 0, 3)
    assert design.forks == PROFILE_FORKS == 2
    assert still_to_record(design) == {2: (only.key,)}


def test_a_key_stopped_for_futility_is_recorded_only_for_a_bytes_verdict() -> None:
    rows = _suite()
    rows += _key("9", "64", "inconclusive", "same", (40.0, 40.0), diagnostics=FUTILE)
    rows += _key("9", "96", "inconclusive", "improved", (40.0, 0.0), diagnostics=FUTILE)
    rows += _key("9", "128", "improved", "improved", (56.0, 0.0))
    design = choose_keys(rows)
    recorded = {k.key: k for k in design.recorded}
    assert set(recorded) == {
        f"{BENCH}(value=12345678, width=32)",
        f"{BENCH}(value=9, width=128)",  # other bytes: a shape of its own
        f"{BENCH}(value=9, width=96)",  # its time stopped for futility, its bytes moved
    }
    assert recorded[f"{BENCH}(value=9, width=96)"].why == ("bytes/op improved",)
    assert not any("width=64" in k for r in design.recorded for k in (r.key, *r.stands_for))
    assert design.futile == 1 and design.no_verdict == 4


def test_a_fork_of_the_reach_round_counts_and_its_key_stands_for_the_shape() -> None:
    reach = {f"{BENCH}(value=7, width=32)": 1, f"{BENCH}(value=7, width=16)": 1}
    design = choose_keys(_suite(), reach)
    assert [(k.key, k.reused) for k in design.recorded] == [(f"{BENCH}(value=7, width=32)", 1)]
    assert design.reused == 1
    assert still_to_record(design) == {1: (f"{BENCH}(value=7, width=32)",)}


def test_jfr_every_records_every_measured_key() -> None:
    design = choose_keys(_suite(), every=True)
    assert design.every and len(design.recorded) == 8 and design.represented == 0


def test_the_not_recorded_line_is_no_count_of_the_runs_futility_stops() -> None:
    """A key whose time stopped for futility but whose bytes moved stands with its shape, so
    the keys left unrecorded for futility can be fewer than the run's futility stops: the
    sentence must not read as that count (check failed a small project's body, "1 stopped for
    futility" beside 2 such stops)."""
    from perfproof.audit.claims import _FUTILE_COUNT
    from perfproof.model.documents.prove_measured import ProfileResult
    from perfproof.model.documents.prove_profile import ProfileDesign
    from perfproof.render.prove_measured import _profiled

    design = ProfileDesign(measured=8, forks=2, futile=1, no_verdict=3)
    text = _profiled(ProfileResult(forks_run="profile/forks", design=design))
    assert "1 with no verdict, stopped for futility" in text
    assert not _FUTILE_COUNT.search(text)

"""Allocation in bytes per operation: a site's share of its fork's bytes × the fork's B/op."""

from __future__ import annotations

import pytest

from perfproof.profile.diff import diff_per_operation
from perfproof.profile.render import diff_json, diff_text
from perfproof.profile.stacks import Profile

BENCH = ("app.Bench.run", "app.Codes.parse")
OTHER = ("app.Bench.run", "app.Codes.copy")
LOADING = ("java.lang.ClassLoader.loadClass",)  # the JVM's own work: "outside the benchmark"


def fork(parse: int, copy: int, loading: int = 50) -> Profile:
    alloc = {(BENCH, "java.lang.Short"): parse, (OTHER, "byte[]"): copy}
    alloc = {k: v for k, v in alloc.items() if v}
    alloc[(LOADING, "byte[]")] = loading
    return Profile(source="f", alloc=alloc, alloc_events=3)


def test_sites_in_bytes_per_operation_with_an_interval_across_forks() -> None:
    # baseline: 48 B/op, of which parse holds 2/3 of the bytes sampled beside the JVM's own
    before = [fork(600, 300), fork(640, 320), fork(560, 280)]
    before_bop = [48.0 * 950 / 900, 48.0 * 1010 / 960, 48.0 * 890 / 840]
    # feature: parse allocates nothing; 16 B/op left
    after = [fork(0, 300), fork(0, 310), fork(0, 290)]
    after_bop = [16.0 * 350 / 300, 16.0 * 360 / 310, 16.0 * 340 / 290]
    d = diff_per_operation(before, after, (before_bop, after_bop), ("app.",), 0.95)
    assert d.per_operation and d.with_shares and d.kinds == ("alloc",)
    parse = next(r for r in d.rows if r.cls == "java.lang.Short")
    assert parse.before_mean == pytest.approx(32.0, rel=0.01)
    assert parse.after_mean == 0.0 and parse.status == "vanished"
    assert parse.ci is not None and parse.ci[1] < 0
    copy = next(r for r in d.rows if r.cls == "byte[]" and r.frame == "app.Codes.copy")
    assert copy.before_mean == pytest.approx(16.0, rel=0.01)
    assert copy.after_mean == pytest.approx(16.0, rel=0.01)
    assert copy.status == "no clear change"  # its share grew from 1/3 to all; its bytes did not
    assert copy.shares is not None and copy.shares[1] > copy.shares[0]
    assert d.rows[-1].outside  # the JVM's own work is one row, last
    text = diff_text(d, top=5, md=True)
    assert "B/op" in text and "per benchmark operation" in text and "across forks" in text
    assert diff_json(d, top=5)["unit"]["alloc"] == "bytes/op"


def test_forks_and_figures_must_pair() -> None:
    with pytest.raises(ValueError):
        diff_per_operation([fork(1, 1)], [fork(1, 1)], ([1.0, 2.0], [1.0]))

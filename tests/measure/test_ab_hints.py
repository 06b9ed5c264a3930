"""The profile commands ``ab --jfr`` prints point the census at the project's own code."""

from __future__ import annotations

from pathlib import Path

from perfproof.measure.jfr_hints import focus_package, profile_hints


def test_focus_is_the_benchmarks_package_root():
    names = [
        "org.acme.bench.queues.OfferBench.offer",
        "org.acme.bench.maps.GetBench.get",
    ]
    assert focus_package(names) == "org.acme"
    assert focus_package(["org.acme.bench.OfferBench.offer"]) == "org.acme"
    assert focus_package(["bench.OfferBench.offer"]) == "bench"
    assert focus_package(["io.netty.microbench.buffer.ByteBufBench.get"]) == "io.netty"
    # no reverse domain: the project's name alone covers benchmarks and code under test
    assert focus_package(["demo.bench.OfferBench.offer"]) == "demo"
    assert focus_package(["OfferBench.offer"]) is None  # default package: nothing to focus on
    assert focus_package(["a.x.B.m", "c.y.D.m"]) is None  # nothing shared
    assert focus_package([]) is None


def test_hints_carry_the_focus():
    lines = profile_hints(Path("/r/jfr"), ["org.acme.bench.OfferBench.offer"])
    assert lines[1] == "  perfproof profile /r/jfr/r1-head --focus org.acme"
    assert lines[2].endswith("--after /r/jfr/r*-head* --focus org.acme")
    unfocused = profile_hints(Path("/r/jfr"), ["OfferBench.offer"])
    assert unfocused[1] == "  perfproof profile /r/jfr/r1-head"
    assert profile_hints(None, ["org.acme.bench.OfferBench.offer"]) == []

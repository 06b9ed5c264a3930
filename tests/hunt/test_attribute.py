"""Charging stacks to project methods: the nearest project frame, the JDK call it made, and
the costs that are never a hypothesis (harness, once-only work, the benchmark's own code)."""

from __future__ import annotations

from perfproof.profile.attribute import (
    Method,
    attribute,
    combine,
    method_frame,
    once_only,
    runs_project_code,
)
from perfproof.profile.stacks import Profile

STUB = "p.bench.jmh_generated.CodecBench_encode_jmhTest"
LOOP = ("java.lang.Thread.run", f"{STUB}.encode_AverageTime", f"{STUB}.encode_avgt_jmhStub")
SETUP = ("java.lang.Thread.run", f"{STUB}.encode_AverageTime", f"{STUB}._jmh_tryInit_f_codec0_0")
METHODS = {
    "p.Codec.encode": Method(
        "p.Codec.encode", "Codec.encode", "src/p/Codec.java", 10, 20, "production"
    ),
    "p.Codec.<clinit>": Method(
        "p.Codec.<clinit>", "Codec.<clinit>", "src/p/Codec.java", 3, 5, "production"
    ),
    "p.Codec$Table.get": Method(
        "p.Codec$Table.get", "Codec.Table.get", "src/p/Codec.java", 30, 33, "production"
    ),
    "p.bench.CodecBench.encode": Method(
        "p.bench.CodecBench.encode",
        "CodecBench.encode",
        "src/p/bench/CodecBench.java",
        9,
        12,
        "benchmark",
    ),
    "p.bench.CodecBench.setup": Method(
        "p.bench.CodecBench.setup",
        "CodecBench.setup",
        "src/p/bench/CodecBench.java",
        5,
        8,
        "benchmark",
    ),
}
BENCH = "p.bench.CodecBench.encode"


def test_a_jdk_call_is_charged_to_the_project_method_that_made_it() -> None:
    p = Profile("r.jfr")
    p.cpu[(*LOOP, BENCH, "p.Codec.encode", "java.lang.Short.valueOf")] = 7
    p.alloc[
        (
            (
                *LOOP,
                BENCH,
                "p.Codec.encode",
                "java.util.HashMap.merge",
                "java.lang.Integer.valueOf",
            ),
            "java.lang.Integer",
        )
    ] = 640
    p.cpu[(*LOOP, BENCH, "p.Codec.encode", "p.Codec$Table.get")] = 3
    a = attribute(p, METHODS.get)
    encode = a.sites["p.Codec.encode"]
    assert (encode.cpu, encode.alloc) == (7, 640)
    assert encode.via_cpu == {"java.lang.Short.valueOf": 7}
    assert encode.via_alloc == {"java.util.HashMap.merge": 640}
    assert encode.classes == {"java.lang.Integer": 640}
    # the nearest project frame wins: the nested class's method is charged, not its caller
    assert a.sites["p.Codec$Table.get"].cpu == 3
    assert a.sites["p.Codec$Table.get"].via_cpu == {"p.Codec$Table.get": 3}


def test_lambdas_are_charged_to_the_method_that_declares_them() -> None:
    assert method_frame("p.Bus.lambda$publish$0") == "p.Bus.publish"
    assert method_frame("p.Bus.lambda$static$3") == "p.Bus.<clinit>"
    assert method_frame("p.Bus.lambda$new$1") == "p.Bus.<init>"
    assert method_frame("p.Bus.publish") == "p.Bus.publish"
    p = Profile("r.jfr")
    p.cpu[(*LOOP, BENCH, "p.Codec.lambda$encode$2", "java.util.ArrayList.add")] = 4
    assert attribute(p, METHODS.get).sites["p.Codec.encode"].cpu == 4


def test_once_only_work_and_the_harness_are_never_a_site() -> None:
    p = Profile("r.jfr")
    p.alloc[((*SETUP, "p.bench.CodecBench.setup", "p.Codec.encode"), "byte[]")] = 10_000
    p.cpu[(*LOOP, BENCH, "p.Codec.<clinit>", "java.util.HashMap.put")] = 5
    p.cpu[(*LOOP, BENCH, "org.openjdk.jmh.infra.Blackhole.consume")] = 6
    p.cpu[(*LOOP, BENCH)] = 2
    p.cpu[("java.lang.Thread.run", "java.lang.ref.Reference.processPendingReferences")] = 1
    a = attribute(p, METHODS.get)
    assert a.sites == {}
    assert a.buckets[("once", "setup")] == (0, 10_000)
    assert a.buckets[("once", "static-init")] == (5, 0)
    assert a.buckets[("outside", "harness")] == (6, 0)
    assert a.buckets[("driver", BENCH)] == (2, 0)
    assert a.buckets[("unattributed", "java.lang.ref.Reference")] == (1, 0)


def test_a_stub_in_its_measured_loop_is_not_set_up() -> None:
    assert once_only((*LOOP, BENCH, "p.Codec.encode")) is None
    assert once_only((*SETUP, "p.bench.CodecBench.setup")) == "setup"
    assert once_only(("p.Main.main", "p.Codec.<clinit>")) == "static-init"
    assert once_only(("p.Main.main", "p.Codec.encode")) is None


def test_the_project_callers_above_a_method_are_kept_nearest_first() -> None:
    sort = Method("p.Sort.sort", "Sort.sort", "src/p/Sort.java", 1, 9, "production")
    quick = Method("p.Sort.quickSort", "Sort.quickSort", "src/p/Sort.java", 10, 40, "production")
    swap = Method("p.Sort.swap", "Sort.swap", "src/p/Sort.java", 41, 45, "production")
    known = {**METHODS, **{m.frame: m for m in (sort, quick, swap)}}
    p = Profile("r.jfr")
    recursion = ("p.Sort.quickSort",) * 4
    p.cpu[(*LOOP, BENCH, "p.Codec.encode", "p.Sort.sort", *recursion, "p.Sort.swap")] = 9
    swap_cost = attribute(p, known.get).sites["p.Sort.swap"]
    # recursion folded; the benchmark (not production) still names a caller on the way
    assert swap_cost.paths == {("p.Sort.quickSort", "p.Sort.sort", "p.Codec.encode"): 9}


def test_the_jvms_of_one_command_run_add_up_and_those_without_project_code_are_known() -> None:
    work, probe = Profile("w.jfr", duration_s=2.0), Profile("p.jfr", duration_s=0.5)
    work.cpu[(*LOOP, BENCH, "p.Codec.encode")] = 8
    work.alloc[((*LOOP, BENCH, "p.Codec.encode"), "byte[]")] = 800
    probe.cpu[("java.lang.Thread.run", "java.lang.System.getProperty")] = 3
    a, b = attribute(work, METHODS.get), attribute(probe, METHODS.get)
    assert runs_project_code(a) and not runs_project_code(b)
    both = combine([a, a], "w+w")
    assert (both.cpu_total, both.alloc_total, both.duration_s) == (16, 1600, 4.0)
    assert both.sites["p.Codec.encode"].cpu == 16
    assert both.sites["p.Codec.encode"].classes == {"byte[]": 1600}

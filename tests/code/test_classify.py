"""Production, test or benchmark: by path, by content and by the user's globs."""

from __future__ import annotations

import json

import pytest

from perfproof.code.classify import by_path, classify, matches
from perfproof.code.index import index_file


@pytest.mark.parametrize(
    ("path", "scope"),
    [
        ("core/src/main/java/a/B.java", None),
        ("core/src/test/java/a/BTest.java", "test"),
        ("test/a/B.java", "test"),
        ("clients/src/testFixtures/java/a/B.java", "test"),
        ("jmh-benchmarks/src/main/java/a/B.java", "benchmark"),
        ("benchmarks/src/main/java/a/B.java", "benchmark"),
        ("core/src/jmh/java/a/B.java", "benchmark"),
        ("microbench/a/B.java", "benchmark"),
        ("src/main/java/org/testing/Util.java", None),  # a package named like a test folder
        ("src/main/java/a/test.java", None),  # only folders count
        ("src/main/java/it/unimi/dsi/Big.java", None),  # a package, not a source set
        ("core/src/main/java/org/acme/test/Helper.java", None),
        ("core/src/it/java/a/FlowIT.java", "test"),
        ("core/src/integrationTest/java/a/X.java", "test"),
        ("tests/src/main/java/a/X.java", "test"),  # a test module
        ("benchmarks/jmh/a/X.java", "benchmark"),  # no standard layout: every folder counts
        ("acme-benchmarks/src/main/java/a/QueueFactory.java", "benchmark"),  # prefixed module
        ("acme-jmh/src/main/java/a/X.java", "benchmark"),
        ("acme-benchmarks-api/src/main/java/a/X.java", None),  # only a trailing -benchmarks
    ],
)
def test_by_path(path, scope):
    assert by_path(path) == scope


def test_content_and_globs():
    bench = index_file("src/main/java/a/B.java", b"class B { @Benchmark void b() {} }")
    assert classify(bench) == "benchmark"
    helper = index_file("src/main/java/a/H.java", b"import org.junit.Assert; class H {}")
    assert classify(helper) == "test"
    stress = index_file(
        "acme-stress/src/main/java/a/QStressTest.java",
        b"import org.openjdk.jcstress.annotations.Actor; class QStressTest {}",
    )
    assert classify(stress) == "test"
    kept_with_tests = index_file(  # the Apache Commons layout: JMH in src/test/java
        "src/test/java/a/JoinBenchmark.java",
        b"import org.openjdk.jmh.annotations.Benchmark; class J { @Benchmark void j() {} }",
    )
    assert classify(kept_with_tests) == "benchmark"
    util = index_file("test-utils/src/test/java/a/U.java", b"class U {}")
    assert classify(util) == "test"
    assert classify(util, include=["test-utils/*"]) == "production"
    assert matches("a/generated/X.java", ["generated"])
    assert matches("a/b/X.java", ["*.java"]) and not matches("a/b/X.java", ["c/*"])


def test_exclude_and_include_flags(run_cli, corpus):
    base = ["callers", "Errors.forCode", "--repo", corpus, "--format", "json", "--all"]
    doc = json.loads(run_cli(*base, "--exclude", "server").out)
    assert (doc["production"], doc["test"], doc["benchmark"]) == (1, 1, 2)
    doc = json.loads(run_cli(*base, "--include", "core/src/test/*").out)
    assert (doc["production"], doc["test"]) == (7, 0)

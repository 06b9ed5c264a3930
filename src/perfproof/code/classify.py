"""Production, test or benchmark: which code a caller count should include.

By path first (the conventional Maven/Gradle test and benchmark folders), then by content
(a file that uses JMH is a benchmark, one that imports a test framework is a test), and the
user's globs last, because they know their repository's odd layouts best.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatchcase

from perfproof.code.model import FileIndex

PRODUCTION = "production"
TEST = "test"
BENCHMARK = "benchmark"
SCOPES = (PRODUCTION, TEST, BENCHMARK)

_TEST_DIRS = frozenset({"test", "tests", "testFixtures", "test-fixtures"})
_TEST_SOURCE_SETS = _TEST_DIRS | {"it", "integrationTest", "intTest", "functionalTest"}
_BENCH_DIRS = frozenset(
    {"jmh-benchmarks", "benchmarks", "benchmark", "microbench", "microbenchmarks", "jmh"}
)
_LANGUAGES = frozenset({"java", "kotlin", "scala", "groovy"})


def _bench_dir(name: str) -> bool:
    """A benchmark folder, also when the module carries the project's prefix
    (``jctools-benchmarks``, ``kafka-jmh``): multi-module builds name their modules that way."""
    return name in _BENCH_DIRS or any(name.endswith("-" + d) for d in _BENCH_DIRS)


def by_path(path: str) -> str | None:
    """The scope a path's folders imply, or ``None`` when they say nothing.

    With a Maven/Gradle layout (``module/src/<set>/java/<package>/…``) only the module
    folders and the source set count, so a package named ``test`` or ``it`` (as in
    ``it.unimi.dsi``) inside main sources stays production.
    """
    folders = path.split("/")[:-1]
    for i in range(len(folders) - 2):
        if folders[i] == "src" and folders[i + 2] in _LANGUAGES:
            source_set = folders[i + 1]
            if source_set in _BENCH_DIRS or any(_bench_dir(f) for f in folders[:i]):
                return BENCHMARK
            if source_set in _TEST_SOURCE_SETS or source_set.endswith("Test"):
                return TEST
            return TEST if any(f in _TEST_DIRS for f in folders[:i]) else None
    if any(_bench_dir(part) for part in folders):
        return BENCHMARK
    if any(part in _TEST_DIRS for part in folders):
        return TEST
    return None


def matches(path: str, globs: Sequence[str]) -> bool:
    """Shell-style match against the relative path; a glob without ``/`` matches any folder."""
    for glob in globs:
        if fnmatchcase(path, glob) or fnmatchcase(path, f"*/{glob}"):
            return True
        if "/" not in glob.rstrip("/") and glob.rstrip("/") in path.split("/")[:-1]:
            return True
    return False


def classify(f: FileIndex, include: Sequence[str] = ()) -> str:
    """Scope of one file. ``include`` globs force production (e.g. a module named test-utils
    whose code ships)."""
    if include and matches(f.path, include):
        return PRODUCTION
    scope = by_path(f.path)
    if scope == TEST and f.jmh:
        return BENCHMARK  # JMH kept with the tests (the Apache Commons layout) still benchmarks
    if scope is not None:
        return scope
    if f.jmh:
        return BENCHMARK
    if f.test_framework:
        return TEST
    return PRODUCTION

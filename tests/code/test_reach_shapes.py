"""The call graph on the fixture project of call shapes (tests/fixtures/java/reach): each
``@Benchmark`` says in a ``// reach: direct|dispatch|none`` comment what the walk up from the
changed private helper ``VarIntEncoder.packBits`` must find, and every path found must end at
that helper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from perfproof.code.external import external_supertypes
from perfproof.code.graph import same_parameters
from perfproof.code.query import open_project
from perfproof.code.reach import affected_benchmarks
from perfproof.model.documents.prove_stages import ReachedBenchmark as Reach

FIXTURE = Path(__file__).parent.parent / "fixtures" / "java" / "reach" / "base"
HELPER = ("reachfix.VarIntEncoder", "packBits", ("int", "byte[]"))
_MARK = re.compile(r"public \w+ (\w+)\(.*// reach: (direct|dispatch|none)")


def expected() -> dict[str, str]:
    """JMH name → what the benchmark's comment says the walk must find."""
    found: dict[str, str] = {}
    for path in sorted((FIXTURE / "src/main/java/reachfix/bench").glob("*.java")):
        for match in _MARK.finditer(path.read_text()):
            found[f"reachfix.bench.{path.stem}.{match.group(1)}"] = match.group(2)
    return found


@pytest.fixture(scope="module")
def reached() -> dict[str, Reach]:
    project = open_project(FIXTURE)
    return {r.benchmark: r for r in affected_benchmarks(project, FIXTURE, [HELPER])}


def test_the_fixture_marks_every_shape() -> None:
    marks = expected()
    assert len(marks) == 19
    assert set(marks.values()) == {"direct", "dispatch", "none"}


@pytest.mark.parametrize("benchmark", sorted(expected()))
def test_each_benchmark_is_reached_as_its_comment_says(
    benchmark: str, reached: dict[str, Reach]
) -> None:
    want = expected()[benchmark]
    found = reached.get(benchmark)
    if want == "none":
        assert found is None, found
        return
    assert found is not None, f"{benchmark} unreached"
    assert found.via_dispatch == (want == "dispatch"), found
    assert found.path[-1] == "VarIntEncoder.packBits(int, byte[])"
    assert found.changed == "VarIntEncoder.packBits(int, byte[])"


def test_the_state_field_path_names_the_override_and_the_helper(
    reached: dict[str, Reach],
) -> None:
    state = reached["reachfix.bench.EncodeBench.stateField"]
    assert state.path == (
        "EncodeBench.stateField(VarState)",
        "VarIntEncoder.encode(Integer, byte[])",
        "VarIntEncoder.packBits(int, byte[])",
    )
    factory = reached["reachfix.bench.EncodeBench.factory"]
    assert factory.dispatch == "EncodeBench.factory(FactoryState) → Encoder.encode(Integer, byte[])"
    generic = reached["reachfix.bench.ShapesBench.generic"]
    assert generic.dispatch == "Pipeline.push(int) → Encoder.encode(Integer, byte[])"
    # an anonymous class is a type of its own, named as javac names it, whose method
    # overrides the interface's; the method creating it is charged with what it does
    anonymous = reached["reachfix.bench.ShapesBench.anonymousImplementation"]
    assert anonymous.path[1] == "Encoders$1.sizeOf(int)"
    assert anonymous.dispatch == "ShapesBench.anonymousImplementation() → Sizer.sizeOf(int)"
    inline = reached["reachfix.bench.ShapesBench.anonymousClass"]
    assert inline.path[1] == "ShapesBench$1.getAsInt()" and not inline.via_dispatch
    # a call through java.util.Queue reaches the repository class extending AbstractQueue
    jdk = reached["reachfix.bench.ShapesBench.jdkInterface"]
    assert jdk.dispatch == "ShapesBench.jdkInterface() → Queue.offer(Integer)"
    assert jdk.path[1] == "SizeQueue.offer(Integer)"
    initialiser = reached["reachfix.bench.ShapesBench.initialiser"]
    assert initialiser.path[1:3] == ("new TaggedFrame()", "new Frame()")


@pytest.mark.parametrize(
    ("own", "declared", "overrides"),
    [
        (("Kryo", "Output", "BigDecimal"), ("Kryo", "Output", "T"), True),
        (("Integer", "byte[]"), ("T", "byte[]"), True),
        (("int[]",), ("T",), True),  # an array is a reference type
        (("String[]",), ("T[]",), True),
        (("int",), ("T",), False),  # a primitive is not
        (("java.util.List",), ("List",), True),
        (("int", "long"), ("int", "int"), False),
        (("int",), ("int", "int"), False),
        (("Integer",), ("Value",), False),  # a type, not a type variable
    ],
)
def test_an_override_may_fill_a_type_variable(
    own: tuple[str, ...], declared: tuple[str, ...], overrides: bool
) -> None:
    assert same_parameters(own, declared) is overrides


def test_the_jdk_types_a_class_extends_are_known_by_their_supertypes() -> None:
    project = open_project(FIXTURE)
    assert external_supertypes(project, "reachfix.SizeQueue") == {
        "AbstractQueue",
        "AbstractCollection",
        "Queue",
        "Collection",
        "Iterable",
    }
    assert external_supertypes(project, "reachfix.VarIntEncoder") == frozenset()

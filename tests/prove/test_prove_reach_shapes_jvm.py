"""The call shapes that lost a changed private helper, on a real Maven build: the fixture
project (tests/fixtures/java/reach) rewrites ``VarIntEncoder.packBits``, reached from a
benchmark through ``s.enc.encode(...)`` on a ``@State`` whose final field holds ``new
VarIntEncoder()`` (direct), one whose ``@Setup`` assigns ``Encoders.varInt()`` (dispatch), and
a decoy whose field holds ``new FixedEncoder()`` (unreached). ``prove`` picks them so, and ``ab``
on the real improvement does not call it unexplained."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from perfproof.model.documents.prove import read_prove

from .conftest import commit

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(3600)]

TINY = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"
FIXTURE = Path(__file__).parent.parent / "fixtures" / "java" / "reach"
BENCH = "reachfix.bench.EncodeBench."
HELPER = "VarIntEncoder.packBits(int, byte[])"


def _files(layer: str) -> dict[str, str | None]:
    root = FIXTURE / layer
    return {
        p.relative_to(root).as_posix(): p.read_text()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "target" not in p.relative_to(root).parts
    }


@pytest.fixture
def fixture_repo(tmp_path: Path) -> tuple[Path, str, str]:
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.skip("needs Maven and a JDK")
    repo = tmp_path / "project"
    base = commit(repo, {".gitignore": "target/\n", **_files("base")}, "encoders")
    head = commit(repo, _files("head"), "pack seven bits at a time, once")
    return repo, base, head


def test_prove_reaches_the_state_field_directly_and_the_factory_by_dispatch(
    fixture_repo: tuple[Path, str, str], tmp_path: Path, prove_cache: Path, run_cli
) -> None:
    repo, base, head = fixture_repo
    out = tmp_path / "bundle"
    res = run_cli(
        "prove", "--repo", repo, "--base", base, "--head", head, "--jmh-args", TINY,
        "--skip", "ab", "--skip", "guard", "--skip", "tests", "--skip", "profile",
        "--out", out,
    )  # fmt: skip
    assert res.code == 0, res.err
    stage = read_prove(out / "prove.json").dump()["stages"]["benchmarks"]["result"]
    reached = {r["benchmark"]: r for r in stage["reached"]}
    state = reached[BENCH + "stateField"]
    assert state["via_dispatch"] is False
    assert state["path"] == [
        "EncodeBench.stateField(VarState)",
        "VarIntEncoder.encode(Integer, byte[])",
        HELPER,
    ]
    assert reached[BENCH + "setupNew"]["via_dispatch"] is False
    factory = reached[BENCH + "factory"]
    assert factory["via_dispatch"] is True and factory["path"][-1] == HELPER
    assert (
        factory["dispatch"] == "EncodeBench.factory(FactoryState) → Encoder.encode(Integer, byte[])"
    )
    assert BENCH + "decoy" not in reached
    assert stage["unreached"] == []
    # the directly reached benchmarks are measured first, the dispatch-only ones last
    order = [r["benchmark"] for r in stage["reached"]]
    assert order.index(BENCH + "stateField") < order.index(BENCH + "factory")


def test_ab_on_the_real_improvement_is_explained_by_the_change(
    fixture_repo: tuple[Path, str, str], tmp_path: Path, prove_cache: Path, run_cli
) -> None:
    repo, base, head = fixture_repo
    out = tmp_path / "run"
    res = run_cli(
        "ab", "--repo", repo, "--base", base, "--head", head, "--jmh-args", TINY,
        "--bench", "EncodeBench.stateField", "--max-rounds", "8", "--out", out,
        "--lock-timeout", "3000",  # a shared machine's JMH queue; the timing is JMH's own
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads((out / "results.json").read_text())
    (primary,) = [c for c in doc["comparisons"] if c.get("metric") in (None, "primary")]
    assert primary["verdict"] == "improved", primary
    assert primary["reach"]["reached"] is True
    assert primary["reach"]["path"][-1] == HELPER
    assert "not explained" not in res.out + res.err
    assert "not explained" not in (out / "report.md").read_text()

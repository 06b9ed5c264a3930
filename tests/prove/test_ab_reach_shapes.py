"""``ab``'s reach on the fixture project of call shapes (tests/fixtures/java/reach), two real
commits and no JMH: an improvement of the ``@State``-field benchmark is explained by a static
path ending at the changed private helper, the factory-made one by a path through dispatch,
and only the decoy (its field holds ``new FixedEncoder()``) has none."""

from __future__ import annotations

from pathlib import Path

from tests.prove.conftest import commit, compare_doc

from perfproof.model.reach import Reach
from perfproof.pipeline.ab.reach import annotate, reach_of_run, static_reach
from perfproof.workspace.worktree import ensure_worktree

FIXTURE = Path(__file__).parent.parent / "fixtures" / "java" / "reach"
BENCH = "reachfix.bench.EncodeBench."
HELPER = "VarIntEncoder.packBits(int, byte[])"


def _files(layer: str) -> dict[str, str | None]:
    root = FIXTURE / layer
    return {p.relative_to(root).as_posix(): p.read_text() for p in root.rglob("*") if p.is_file()}


def test_the_state_field_improvement_is_explained_and_only_the_decoy_is_not(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "project"
    shas = {"base": commit(repo, _files("base")), "head": commit(repo, _files("head"))}
    tree = ensure_worktree(repo, shas["head"], tmp_path / "cache")
    names = ["stateField", "setupNew", "factory", "decoy"]
    reach = static_reach(repo, shas, tree, [BENCH + n for n in names])
    for name in ("stateField", "setupNew", "factory"):
        assert reach.of(BENCH + name).kind is Reach.STATIC_PATH, name
        assert reach.of(BENCH + name).path[-1] == HELPER
    assert reach.of(BENCH + "decoy").kind is Reach.NO_STATIC_PATH
    document = compare_doc(
        [{"benchmark": BENCH + n, "metric": "primary", "verdict": "improved"} for n in names]
    )
    keys = {k.benchmark: k for k in reach_of_run(reach, document.comparisons)}
    assert keys[BENCH + "stateField"].reached and not keys[BENCH + "stateField"].unconfirmed
    document = annotate(document, reach)
    noted = {c.key.benchmark for c in document.comparisons if c.warnings}
    assert noted == {BENCH + "decoy"}  # no static path; a recording would decide the words

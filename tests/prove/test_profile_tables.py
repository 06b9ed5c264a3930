"""The prove report's profile tables come from the rows the stage keeps (a typed diff), and
read the same as the tables ``profile diff`` writes in Markdown: every row, the notes under
the last table, the "(all classes)" row only where a frame allocates several classes."""

from __future__ import annotations

import json

import pytest

from perfproof.model.documents.profile_diff import ProfileDiffDoc
from perfproof.model.documents.prove import (
    BundleView,
    ProveResults,
    ProveSettings,
    StageEntry,
    new_document,
)
from perfproof.model.documents.prove_measured import ProfileResult
from perfproof.model.documents.run import SideRef
from perfproof.profile.diff import diff
from perfproof.profile.render import diff_json, diff_text, read_diff, shown_doc
from perfproof.profile.stacks import Profile
from perfproof.render.prove_measured import profile_md

LOADING = ("java.lang.ClassLoader.loadClass",)  # the JVM's own work: "outside the benchmark"


def _profile(scale: float, seconds: float = 2.0) -> Profile:
    """20 methods sampled on CPU, 20 sites each allocating one class and 3 allocating two."""
    cpu = {("app.Bench.run", f"app.M{i}.go"): int(100 + i * 7 * scale) for i in range(20)}
    cpu[LOADING] = 40
    alloc = {(("app.Bench.run", f"app.A{i}.mk"), "byte[]"): int(1000 + i * 90 * scale)
             for i in range(20)}  # fmt: skip
    for i in range(3):
        alloc[(("app.Bench.run", f"app.Two{i}.mk"), "long[]")] = int(20000 * scale) + i
        alloc[(("app.Bench.run", f"app.Two{i}.mk"), "int[]")] = int(300 / scale) + i
    alloc[(LOADING, "byte[]")] = 70
    return Profile(source="f", cpu=cpu, alloc=alloc, alloc_events=3, duration_s=seconds)


@pytest.mark.parametrize("kinds", [("cpu", "alloc"), ("cpu",), ("alloc",)])
def test_the_tables_from_the_typed_rows_read_as_the_markdown(kinds: tuple[str, ...]) -> None:
    before = [_profile(1.0 + k / 50) for k in range(3)]
    after = [_profile(1.6 + k / 40, 2.1) for k in range(3)]
    d = diff(before, after, ("app.",), kinds=kinds, per_second=True)
    assert len([r for r in d.rows if r.kind == kinds[0]]) > 15  # more than a table shows
    doc = json.loads(json.dumps(shown_doc(d, top=15).model_dump(mode="json", by_alias=True)))
    again = read_diff(ProfileDiffDoc.model_validate(doc))
    assert again.per_second and again.kinds == kinds and len(again.rows) == len(doc["rows"])
    md = diff_text(d, top=15, md=True)
    # the stage's old document keeps the first rows of both kinds together: fewer than shown
    assert len(diff_json(d, top=15)["rows"]) < len(doc["rows"]) or len(kinds) == 1
    typed = _sections(ProfileResult(focus=("app.",), tables=doc))
    for kind, lines in zip(("alloc", "cpu"), typed, strict=True):
        table = [line for line in lines if line.startswith("|")]
        assert bool(table) == (kind in kinds)
        if table:  # the rows, and the notes under the last table, as profile diff wrote them
            assert table[0].startswith("| frame | focus frame |")
            assert "\n".join(table) in md and lines[-1] in md.splitlines()
    assert any("(all classes)" in line for line in typed[0]) == ("alloc" in kinds)


def _sections(prof: ProfileResult) -> tuple[list[str], list[str]]:
    doc = new_document(ProveSettings(), {"base": SideRef(ref="a"), "head": SideRef(ref="b")})
    doc.stages.profile = StageEntry[ProfileResult](status="done", result=prof)
    from pathlib import Path

    alloc, cpu, _amdahl = profile_md(ProveResults.of(BundleView(Path("b"), doc)))
    return alloc, cpu


def test_a_profile_diff_of_another_shape_in_a_bundle_is_named_by_its_path() -> None:
    import copy
    from pathlib import Path

    from perfproof.errors import InputError
    from perfproof.model.documents.prove import check_prove

    fixture = Path(__file__).parents[1] / "fixtures" / "prove" / "demo-bundle" / "prove.json"
    doc = json.loads(fixture.read_text())
    assert check_prove(copy.deepcopy(doc), "prove.json").stages.profile.result is not None
    rows = doc["stages"]["profile"]["result"]["diff"]["rows"]
    rows[0]["before_mean"] = "12"
    with pytest.raises(InputError, match=r"stage profile: 'diff\.rows\[0\]\.before_mean' is not"):
        check_prove(doc, "prove.json")

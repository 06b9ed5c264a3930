"""The reach table tells a benchmark's keys apart: its @Param values in columns, and what is
the same on every row said once above the table."""

from __future__ import annotations

from pathlib import Path

from perfproof.model.documents.prove import (
    BundleView,
    ProveResults,
    ProveSettings,
    StageEntry,
    new_document,
)
from perfproof.model.documents.prove_measured import AbStageResult
from perfproof.model.documents.prove_reach import reach_of_keys
from perfproof.model.documents.run import SideRef
from perfproof.render.prove_reach import reach_md

from .conftest import wire_row

BENCH = "v.bench.DigitsBench.write"
PATH = ("DigitsBench.write()", "Digits.write(long, byte[])")


def test_eight_keys_of_one_benchmark_read_as_eight_rows() -> None:
    rows = [
        wire_row(benchmark=BENCH, params={"value": v, "width": w},
                 verdict="improved" if w == "32" else "inconclusive")
        for v in ("7", "4242", "12345678", "1234567890123") for w in ("16", "32")
    ]  # fmt: skip
    ab = AbStageResult(run_dir="ab", comparisons=tuple(rows),
                       reach=reach_of_keys(rows, {BENCH: PATH}, ()))  # fmt: skip
    doc = new_document(ProveSettings(), {"base": SideRef(ref="a"), "head": SideRef(ref="b")})
    doc.stages.ab = StageEntry[AbStageResult](status="done", result=ab)
    lines = reach_md(ProveResults.of(BundleView(Path("b"), doc)))
    header = next(line for line in lines if line.startswith("| Benchmark"))
    assert header.startswith("| Benchmark | value | width | Verdict |")
    assert "How" not in header and "Reached" not in header  # the same on every row
    table = [line for line in lines if line.startswith(f"| `{BENCH}`")]
    assert len(table) == 8 and len(set(table)) == 8
    assert "| `1234567890123` | `32` | improved |" in "\n".join(table)
    (note,) = [line for line in lines if line.startswith("Every row:")]
    assert "Reached: yes" in note and "call path: DigitsBench.write() → Digits.write" in note

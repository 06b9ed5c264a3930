"""Off-heap bytes and GC costs per operation in the report, and ``check`` reading them back.

The run folder holds the costs project's real JMH files (``tests/fixtures/jmh/costs``): the
baseline reserves 10,240 direct bytes per ``FrameBench.frame`` call, the feature none.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from perfproof.audit.check import check_text
from perfproof.compare import CompareOptions, compare_document, compare_sides
from perfproof.jmh.reader import read_results
from perfproof.report import render
from perfproof.report.rundir import load_run


def _run(run: Path, options: CompareOptions) -> Path:
    fixtures = Path(__file__).parents[1] / "fixtures" / "jmh" / "costs"
    (run / "jmh").mkdir(parents=True)
    for side in ("base", "head"):
        shutil.copy(fixtures / f"{side}.json", run / "jmh" / f"1-{side}.json")
    sides = [read_results([run / "jmh" / f"1-{side}.json"]) for side in ("base", "head")]
    doc = compare_document(compare_sides(*sides, options))
    (run / "results.json").write_text(json.dumps({**doc, "run_dir": str(run)}))
    return run


@pytest.fixture(scope="module")
def costs_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("costs") / "run", CompareOptions())


def test_gc_time_going_to_nothing_is_shown_with_its_verdict_and_checked(tmp_path) -> None:
    """At 95% the baseline's two collections against none in 12× the operations decide
    (a Poisson-rate bound): the GC columns show on the frame's row, and check holds them."""
    run = _run(tmp_path / "run", CompareOptions(confidence=0.95))
    text = render(run, "md")
    frame = text.split("#### `costs.FrameBench.frame`")[1].split("\n\n")[1]
    assert "GC time/op baseline → feature (Δ%)" in frame
    (row,) = [line for line in frame.splitlines() if "10,240 →" in line]
    gc = [c.strip() for c in row.split("|") if "→" in c and c.strip().endswith("improved")]
    assert gc == ["436 ns/op → 0 ns/op (×0 [0, 0.840]) improved",  # GC time, GCs per 10⁶ ops
                  "11.1 → 0 (×0 [0, 0.840]) improved"], row  # fmt: skip
    result = check_text(text, load_run(run), "report.md")
    assert result.ok, [m.message for m in result.mismatches]
    edited = text.replace(gc[0], gc[0].replace("[0, 0.840]", "[0, 0.850]"))
    assert not check_text(edited, load_run(run), "report.md").ok


def test_the_report_shows_direct_bytes_only_where_something_is_allocated(costs_run) -> None:
    text = render(costs_run, "md")
    frame = text.split("#### `costs.FrameBench.frame`")[1].split("\n\n")[1]
    assert "direct B/op baseline → feature (Δ%)" in frame
    assert "| 10,240 → 0 B/op (-100.0%) |" in frame
    inline = text.split("#### `costs.InlineBench.sum`")[1].split("\n\n")[1]
    assert "direct B/op" not in inline and "native B/op baseline" not in text  # none anywhere
    assert "1 allocates less off the heap" in text
    assert "counted exactly by perfproof's JMH profiler" in text


def test_check_passes_on_the_report_it_wrote(costs_run) -> None:
    result = check_text(render(costs_run, "md"), load_run(costs_run), "report.md")
    assert result.ok, [m.message for m in result.mismatches]


COSTS_LINES = ("direct B/op", "10,240 →", "off the heap")
"""What marks a line of the report as the costs': the direct-bytes column and its rows, the
off-heap count line (the rest, the GC family's counts included, is swept for every ab report
by ``test_check_every_number.py``)."""


def test_every_number_of_the_costs_lines_is_tied_to_the_run(costs_run, number_changes) -> None:
    """Each number of the costs' lines, its last digit moved on by one, is caught on its own
    line."""
    text = render(costs_run, "md")
    lines = text.splitlines()
    run = load_run(costs_run)
    missed = []
    count = 0
    for line, _old, new, changed in number_changes(text):
        if not any(mark in lines[line - 1] for mark in COSTS_LINES):
            continue
        count += 1
        result = check_text(changed, run)
        if not any(m.line == line and new in m.quoted for m in result.mismatches):
            missed.append((line, new, lines[line - 1][:90]))
    assert count > 15 and not missed, missed[:10]


BODY = """\
| Benchmark | Baseline | Feature | direct B/op baseline → feature (Δ%) |
|---|---:|---:|---:|
| `FrameBench.frame` | {base} ns/op | {head} ns/op | {direct} |
"""


def test_check_reads_back_a_hand_written_direct_bytes_column(costs_run) -> None:
    doc = json.loads((costs_run / "results.json").read_text())
    (time,) = [c for c in doc["comparisons"]
               if c["benchmark"].endswith("frame") and c["metric"] == "primary"]  # fmt: skip
    sides = {"base": f"{time['base']['estimate']:.0f}", "head": f"{time['head']['estimate']:.0f}"}
    run = load_run(costs_run)
    good = check_text(BODY.format(**sides, direct="10,240 → 0 B/op (-100.0%)"), run)
    assert good.ok and good.checked >= 5, [m.message for m in good.mismatches]
    bad = check_text(BODY.format(**sides, direct="10,250 → 0 B/op (-100.0%)"), run)
    (wrong,) = bad.mismatches
    assert (
        wrong.line == 3 and "10,250" in wrong.quoted and "10240" in wrong.expected.replace(",", "")
    )
    assert "direct" in wrong.message


GC_BODY = """\
| n | Baseline | Feature | GCs per 10⁶ ops baseline → feature (Δ%) |
|---|---:|---:|---:|
| 16 | {base} ns/op | {head} ns/op | {gc} |
"""


def test_check_reads_back_collections_per_operation(make_run_folder) -> None:
    run_dir = make_run_folder("ab")
    doc = json.loads((run_dir / "results.json").read_text())

    def one(metric: str) -> dict:
        (c,) = [c for c in doc["comparisons"] if c["benchmark"] == "fx.Codes.streamEmpty"
                and c["params"] == {"n": "16"} and c["metric"] == metric]  # fmt: skip
        return c

    time, gc = one("primary"), one("gc.count.norm")
    b, h = (gc[side]["estimate"] * 1e6 for side in ("base", "head"))
    body = "### `fx.Codes.streamEmpty`\n\n" + GC_BODY
    sides = {"base": f"{time['base']['estimate']:.0f}", "head": f"{time['head']['estimate']:.0f}"}
    run = load_run(run_dir)
    good = check_text(body.format(**sides, gc=f"{b:.2f} → {h:.2f} ({gc['delta_pct']:+.1f}%)"), run)
    assert good.ok, [m.message for m in good.mismatches]
    bad = check_text(body.format(**sides, gc=f"{b:.2f} → {h + 1:.2f}"), run)
    assert [m.line for m in bad.mismatches] == [5] and "gc count" in bad.mismatches[0].message


def test_reproduce_leaves_perfproofs_off_heap_profiler_out(make_run_folder, tmp_path) -> None:
    run = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), run)
    manifest = json.loads((run / "manifest.json").read_text())
    helper = "/root/.cache/perfproof/offheap-profiler/0123/perfproof-offheap.jar"
    for step in manifest["steps"]:
        jar = step["argv"][2]
        step["argv"][:3] = ["java", "-cp", f"{jar}:{helper}", "org.openjdk.jmh.Main",
                            "-prof", "perfproof.offheap.OffHeapProfiler"]  # fmt: skip
    (run / "manifest.json").write_text(json.dumps(manifest))
    text = render(run, "md").split("### Reproduce")[1]
    assert "OffHeapProfiler" not in text and "perfproof-offheap.jar" not in text
    assert "org.openjdk.jmh.Main -foe" in text or "org.openjdk.jmh.Main fx." in text


JIT = {
    "benchmark": "demo.ChecksumBench.sum",
    "base_recordings": 2,
    "head_recordings": 2,
    "calls": [
        {
            "caller": "ChecksumBench.sum",
            "callee": "Checksum.sum",
            "base_forks": 2,
            "head_forks": 2,
            "base": "not inlined (hot method too big)",
            "head": "inlined",
        },
    ],
    "methods": [
        {
            "method": "Checksum.sum",
            "base_tier": "C2 (tier 4)",
            "head_tier": "C2 (tier 4)",
            "base_deopts": "3 in 2 forks (unstable_if)",
            "head_deopts": "none",
        },
    ],
}
"""A JIT account as the profile stage keeps it: two recorded forks a side, as it records."""


def test_check_holds_the_jit_section_of_a_prove_report(tmp_path) -> None:
    from perfproof.audit.check import load_evidence
    from perfproof.model.documents.prove import BundleView, ProveResults, read_prove
    from perfproof.render.prove import render_markdown
    from perfproof.report import embedded_run

    bundle = tmp_path / "bundle"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "prove" / "demo-bundle", bundle)
    doc = json.loads((bundle / "prove.json").read_text())
    doc["stages"]["profile"]["result"]["jit"] = [JIT]
    (bundle / "prove.json").write_text(json.dumps(doc))
    view = ProveResults.of(BundleView(bundle, read_prove(bundle / "prove.json")))
    text = render_markdown(view, embedded_run(bundle / "ab").section())
    (bundle / "report.md").write_text(text)  # as prove's report stage writes it, without the page
    section = text.split("### JIT\n")[1].split("\n### ")[0]
    line = "`Checksum.sum` into `ChecksumBench.sum`: not inlined (hot method too big) → inlined"
    assert "(2 + 2 recorded forks)" in section and f"- **{line}**" in section
    evidence = load_evidence(bundle)
    assert check_text(text, evidence).ok
    edited = check_text(text.replace("3 in 2 forks (unstable_if)", "2 in 2 forks (unstable_if)"),
                        evidence)  # fmt: skip
    assert [m.quoted for m in edited.mismatches] == ["2"]

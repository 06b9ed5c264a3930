"""The 30-second summary and the rounds in view.

The summary stands before any table, in at most 12 lines, and names each benchmark whose keys
changed with the range of the change and the @Param values it holds for; the per-round table
gives each key's ratio in every round as the raw files have it; a machine that slowed down for
two rounds is stated, and two groups of fork means that are those rounds are called drift,
not two code shapes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from perfproof.report import render
from perfproof.units import percent_range

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def _summary(md: str) -> list[str]:
    """The summary: the counting line and the lines under it, before the first table."""
    return md[: md.index("### Results")].splitlines()[2:]


def _bullets(md: str) -> list[str]:
    return [line for line in _summary(md) if line.startswith("- ")]


def test_the_summary_comes_first_and_names_each_changed_group_with_its_range() -> None:
    run = RUNS / "kryo-merged"
    md = render(run, "md")
    summary = _summary(md)
    assert len([line for line in summary if line.strip()]) <= 12
    doc = json.loads((run / "results.json").read_text())
    improved = [
        c for c in doc["comparisons"] if c["metric"] == "primary" and c["verdict"] == "improved"
    ]
    assert improved
    deltas = sorted(c["delta_pct"] for c in improved)
    values = ", ".join(
        c["params"]["numOfDigits"]
        for c in sorted(improved, key=lambda c: _natural(c["params"]["numOfDigits"]))
    )
    line = next(x for x in summary if x.startswith("- `BigDecimalBenchmark.read`: faster"))
    assert f"faster {percent_range(deltas[0], deltas[-1])} on numOfDigits = {values}" in line
    assert "allocates less, B/op 64 → 40 on numOfDigits = " in line
    assert "24 → 0 on numOfDigits = " in line
    undecided = next(x for x in _bullets(md) if "undecided" in x)
    assert "`BigDecimalBenchmark.read` undecided on numOfDigits = " in undecided
    assert "unchanged" not in "\n".join(summary)


def _natural(text: str) -> tuple[int, float, str]:
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


def _round_ratio(run: Path, key: tuple[str, str], round_no: int) -> float:
    """A round's ratio straight from the raw files: geometric mean of the fork means."""
    logs = {}
    for side in ("base", "head"):
        means = []
        for path in (run / "jmh").glob(f"{round_no:02d}-{side}*.json"):
            for e in json.loads(path.read_text()):
                if (e["benchmark"], json.dumps(e.get("params", {}), sort_keys=True)) == key:
                    means += [float(np.mean(f)) for f in e["primaryMetric"]["rawData"]]
        logs[side] = float(np.mean(np.log(means)))
    return math.exp(logs["head"] - logs["base"])


def test_each_keys_ratio_in_every_round_is_the_raw_files(
    make_run_folder: Callable[[str], Path],
) -> None:
    run = make_run_folder("ab")
    md = render(run, "md")
    section = md[md.index("### Rounds") : md.index("### Methodology")]
    rows = [line for line in section.splitlines() if line.startswith("| Codes.sum (n=128)")]
    assert len(rows) == 1
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    key = ("fx.Codes.sum", json.dumps({"n": "128"}, sort_keys=True))
    for round_no, cell in zip((1, 2), cells[1:3], strict=True):
        assert cell == f"×{_round_ratio(run, key, round_no):.3g}"
    assert cells[3] == "baseline"  # sum (n=128) regressed in both rounds


def test_a_machine_that_slowed_down_for_two_rounds_is_stated_and_not_called_code_shapes(
    tmp_path: Path, make_drifting_run: Callable[[Path], Path]
) -> None:
    md = render(make_drifting_run(tmp_path), "md")
    drift = re.search(
        r"The machine drifted between rounds: rounds 3–4 took about (\d+)% longer per "
        r"operation than round 1 across 6 keys, both sides alike",
        md,
    )
    assert drift, md[: md.index("### Methodology")]
    assert 15 <= int(drift.group(1)) <= 19
    assert "(see Rounds)." in "\n".join(_summary(md))  # said in the summary too
    assert "code shapes" not in md.replace("not two code shapes", "")
    assert "the groups are the rounds (rounds 1–2 against rounds 3–4, both sides alike)" in md
    assert "run more forks to weigh them" not in md or "code shapes" not in md


def test_a_note_of_a_keys_primary_metric_is_not_said_again_for_its_bytes(
    make_run_folder: Callable[[str], Path],
) -> None:
    md = render(RUNS / "demo-feature-vs-baseline", "md")
    warnings = md[md.index("### Warnings") : md.index("### Raw JMH results")]
    assert warnings.count("left out as not warmed up") == 1
    assert "ErrorReporterBench.report gc.alloc.rate.norm" not in warnings


def test_a_geomean_says_which_keys_it_leaves_out(make_run_folder: Callable[[str], Path]) -> None:
    md = render(make_run_folder("ab"), "md")
    row = next(line for line in md.splitlines() if line.startswith("| bytes/op |"))
    assert "left out: 1 going to 0, 4 at 0 on both sides" in row


def test_jmhs_own_numbers_are_called_so_only_when_they_are_jmhs(
    make_run_folder: Callable[[str], Path],
) -> None:
    several = render(make_run_folder("ab"), "md")  # two rounds: JMH never saw them together
    raw = several[several.index("### Raw JMH results") :]
    assert "JMH's own score" not in raw and "recomputed by perfproof over all rounds" in raw
    assert "```text" not in raw  # JMH's console tables stay in the run folder
    one = render(RUNS / "kryo-budget-cut-1-round", "md")
    assert "JMH's own score ± its 99.9% error per side" in one

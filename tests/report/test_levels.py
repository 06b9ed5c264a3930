"""One level per interval, named once: the level a sequential look decided at, the same in the
Markdown, the HTML, the JSON and the CSV export, with the sides' intervals at it too."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

from perfproof.export import export
from perfproof.report import render

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
SEQUENTIAL = RUNS / "demo-feature-vs-baseline"
"""A sequential run whose results.json (an older writer's) gives the run's 99% beside
intervals its first look decided at 99.49%."""


def _look_levels(run_dir: Path) -> set[str]:
    doc = json.loads((run_dir / "results.json").read_text())
    return {
        f"{(1 - c['diagnostics']['sequential']['per_look_level']) * 100:.4g}%"
        for c in doc["comparisons"]
        if c["metric"] == "primary"
    }


def test_every_format_names_the_level_the_look_decided_at() -> None:
    (level,) = _look_levels(SEQUENTIAL)
    assert level == "99.49%"
    md = render(SEQUENTIAL, "md")
    assert set(re.findall(r"Δ% \[([\d.]+%) CI\]", md)) == {level}
    assert "99% confidence" not in md and "the side intervals are at 99%" not in md
    html = render(SEQUENTIAL, "html")
    assert f"Δ% [{level} CI]" in html
    rows = [r for t in json.loads(render(SEQUENTIAL, "json"))["results"] for r in t["rows"]]
    assert {f"{r['delta']['interval_confidence'] * 100:.4g}%" for r in rows} == {level}
    _, files = export([SEQUENTIAL], "csv")
    (text,) = [f.text for f in files.values()]
    table = list(csv.DictReader(io.StringIO(text)))
    primary = [r for r in table if r["metric"] == "primary"]
    assert primary and {f"{float(r['level']) * 100:.4g}%" for r in primary} == {level}


def test_the_sides_are_shown_at_their_rows_level() -> None:
    """A side's interval widens from the run's 99% to the row's 99.49% (Student's t, the same
    forks): the JSON gives the interval the table shows."""
    doc = json.loads((SEQUENTIAL / "results.json").read_text())
    rows = [r for t in json.loads(render(SEQUENTIAL, "json"))["results"] for r in t["rows"]]
    for c, r in zip(
        sorted(
            (c for c in doc["comparisons"] if c["metric"] == "primary"),
            key=lambda c: c["benchmark"],
        ),
        rows,
        strict=True,
    ):
        shown = r["baseline"]["ci"]
        stored = c["base"]["ci"]
        assert shown[1] - shown[0] > stored[1] - stored[0]


def test_levels_that_differ_by_look_are_each_named_once_with_their_look(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(SEQUENTIAL, run_dir)
    path = run_dir / "results.json"
    doc = json.loads(path.read_text())
    later = next(c for c in doc["comparisons"] if c["metric"] == "primary")
    later["diagnostics"]["sequential"].update(look=3, per_look_level=0.001)
    path.write_text(json.dumps(doc))
    md = render(run_dir, "md")
    assert "Δ% [CI]" in md
    assert (
        "Each Δ% interval is at the level its verdict was decided at: 99.9% (look 3, 1 key) "
        "and 99.49% (look 1, 1 key)."
    ) in md

"""A round split into several JMH processes writes ``NN-side-K.json`` parts: the report reads them
as the round's own files, so what it counts (forks measured, JMH's own table) agrees with the
comparisons, which were computed from every part."""

from __future__ import annotations

import json
from pathlib import Path

from perfproof.report.environment import forks_text
from perfproof.report.rundir import load_run, side_of

RUN = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / "demo-aa-control"


def test_a_part_file_belongs_to_its_round_and_side() -> None:
    assert side_of("04-head-2") == ("04", "head")
    assert side_of("04-head") == ("04", "head")
    assert side_of("04-head-x") is None


def test_forks_measured_counts_the_parts_of_a_split_round() -> None:
    """The fixture's round 4 ran a fork again in a second head process (``04-head-2``): the
    forks measured are every file's, that part included."""
    run = load_run(RUN)
    assert "04-head-2.json" in [r.path.name for r in run.raw_for("head")]
    per_key: dict[str, int] = {}
    for path in sorted((RUN / "jmh").glob("*-head*.json")):
        for entry in json.loads(path.read_text()):
            key = entry["benchmark"] + json.dumps(entry.get("params") or {}, sort_keys=True)
            per_key[key] = per_key.get(key, 0) + len(entry["primaryMetric"]["rawData"])
    low, high = min(per_key.values()), max(per_key.values())
    assert low != high  # the part adds a fork to one key only
    assert forks_text(run).endswith(f"{low}–{high} per benchmark on the feature")

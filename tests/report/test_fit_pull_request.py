"""A report that fits a pull-request comment, and the short form for a CI job summary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from perfproof.report.markdown import DEFAULT_MAX_CHARS, GITHUB_COMMENT_LIMIT

KEYS = 40


@pytest.fixture(scope="module")
def big_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 keys (one benchmark, @Param n = 0..39), 8 rounds per side, 3 forks each: raw JMH
    tables of well over 100,000 characters, as a real 40-key suite has."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "compare"))
    from conftest import jmh_entry

    run = tmp_path_factory.mktemp("big") / "run"
    (run / "jmh").mkdir(parents=True)
    rng = np.random.default_rng(7)
    for r in range(1, 9):
        for side in ("base", "head"):
            entries = []
            for n in range(KEYS):
                level = 100.0 * (0.8 if side == "head" and n % 4 == 0 else 1.0)
                forks = level * np.exp(rng.normal(0, 0.01, (3, 5)))
                entries.append(
                    jmh_entry(
                        "org.acme.bench.SerializerBenchmark.write",
                        forks.tolist(),
                        params={"n": str(n), "codec": "json-with-a-long-name"},
                        alloc=48.0,
                    )
                )
            (run / "jmh" / f"{r:02d}-{side}.json").write_text(json.dumps(entries))
    return run


def test_a_forty_key_report_fits_a_comment_with_every_verdict(run_cli, big_run: Path) -> None:
    whole = run_cli("report", big_run, "--max-chars", "0")
    assert whole.code == 0, whole.err
    # JMH's console tables stay in the run folder, so forty keys fit GitHub's limit whole;
    # a tighter limit still gives way from the bottom
    assert len(whole.out) <= DEFAULT_MAX_CHARS < GITHUB_COMMENT_LIMIT
    assert run_cli("report", big_run).out == whole.out
    limit = len(whole.out) - 1
    fitted = run_cli("report", big_run, "--max-chars", str(limit))
    assert fitted.code == 0, fitted.err
    assert len(fitted.out) <= limit
    for n in range(KEYS):  # every key's row, with its verdict, is still there
        row = rf"^\| json-with-a-long-name \| {n} \|.*\| (improved|same|inconclusive) \|"
        assert re.search(row, fitted.out, re.M), n
    assert "### Reproduce" in fitted.out and "left out to fit this page" in fitted.out
    assert fitted.out.split("### Raw JMH results")[0] == whole.out.split("### Raw JMH results")[0]


def test_too_small_a_limit_is_refused_naming_the_flag(run_cli, big_run: Path) -> None:
    r = run_cli("report", big_run, "--max-chars", "2000")
    assert r.code == 2
    (line,) = r.err.strip().splitlines()
    assert line.startswith("perfproof: error: --max-chars 2000:")


def test_summary_lists_the_keys_that_moved(run_cli, big_run: Path) -> None:
    r = run_cli("report", big_run, "--summary")
    assert r.code == 0, r.err
    assert len(r.out) < 10_000
    moved = [line for line in r.out.splitlines() if line.startswith("- **improved**")]
    assert len(moved) == KEYS // 4  # n = 0, 4, 8, …: 20% faster on head
    assert "**Summary:**" in r.out or "faster" in r.out
    assert run_cli("report", big_run, "--summary", "--format", "json").code == 2

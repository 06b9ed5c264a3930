"""Golden files of the Markdown report for fixed run folders built from the recorded JMH data.

The goldens are generated, never edited by hand. After an intended change to the report,
regenerate them and review the diff:

    PERFPROOF_REGEN_GOLDEN=1 python3 -m pytest tests/report/test_golden.py
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from perfproof.report import render

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("PERFPROOF_REGEN_GOLDEN") == "1"


def _normalised(text: str, run: Path) -> str:
    """Run folders live in a per-session temp dir; the golden names it <RUN>."""
    return text.replace(str(run), "<RUN>")


@pytest.mark.parametrize("kind", ["ab", "compare"])
def test_markdown_matches_golden(kind: str, make_run_folder: Callable[[str], Path]) -> None:
    run = make_run_folder(kind)
    text = _normalised(render(run, "md"), run)
    golden = GOLDEN / f"{kind}.md"
    if REGEN:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.is_file(), f"missing {golden}; run with PERFPROOF_REGEN_GOLDEN=1 to create it"
    expected = golden.read_text(encoding="utf-8")
    assert text == expected, (
        f"report differs from {golden}; if the change is intended, regenerate with "
        "PERFPROOF_REGEN_GOLDEN=1 and review the diff"
    )


def test_sections_in_the_order_of_a_good_perf_pr(make_run_folder: Callable[[str], Path]) -> None:
    text = render(make_run_folder("ab"), "md")
    order = [
        "**Summary:**",
        "### Results",
        "### Rounds",
        "### Methodology",
        "### Reproduce",
        "### Warnings",
        "### Raw JMH results",
        "<details>",
        "</details>",
    ]
    positions = [text.index(marker) for marker in order]
    assert positions == sorted(positions)

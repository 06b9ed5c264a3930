"""Numbers a reviewer reads at a glance, on a real run whose every interval is past ±999%:
43 keys, two forks a side from bimodal JVMs. No side prints a negative time, and no ratio
prints a bound past the 1,000× the exports already refuse: such an interval is said in words
with the forks that left it so, in Markdown, HTML and the terminal table alike."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from perfproof.report import render
from perfproof.units import MAX_BOUND_FACTOR

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
WILD = RUNS / "wild-43-keys-2-forks-past-999"
TOO_WIDE = "(interval too wide: 2 forks a side)"


def _numbers(text: str) -> list[float]:
    return [
        float(n.replace(",", "")) for n in re.findall(r"-?\d[\d,]*(?:\.\d+)?(?:e[-+]\d+)?", text)
    ]


def _ratio_ok(cell: str) -> bool:
    """A Δ% cell is an effect with an interval within the factor, or the effect and words."""
    if cell.endswith(TOO_WIDE):
        return "[" not in cell
    m = re.fullmatch(r"×([\d.,]+) \[([^,]+), ([^\]]+)\]", cell)
    if m is None:
        return re.fullmatch(r"[-+]?[\d.,]+% \[[^\]]+\]", cell) is not None
    ratio, lo, hi = (float(x.replace(",", "")) for x in m.groups())
    return ratio / MAX_BOUND_FACTOR <= lo and hi <= ratio * MAX_BOUND_FACTOR


def test_markdown_sides_are_never_negative_and_wide_ratios_are_words() -> None:
    text = render(WILD, "md")
    rows = [line.split(" | ") for line in text.splitlines() if re.match(r"\| \d+ \| ", line)]
    assert len(rows) == 43
    for cells in rows:
        baseline, feature, delta = cells[1], cells[2], cells[3]
        assert all(n >= 0 for n in _numbers(baseline) + _numbers(feature)), cells
        assert _ratio_ok(delta), delta
    assert sum(TOO_WIDE in cells[3] for cells in rows) >= 30
    assert "e-" not in text.split("### Methodology")[0]
    assert "A side's lower end of 0 is its interval cut at zero" in text


def test_html_cells_say_the_same() -> None:
    html = render(WILD, "html")
    cells = re.findall(r'<td class="num" data-v="[^"]*">([^<]*)</td>', html)
    assert cells and not any(re.search(r"\[-\d", c) for c in cells)
    assert html.count(TOO_WIDE) == render(WILD, "md").count(TOO_WIDE)


def test_terminal_table_of_the_raw_files_says_the_same(run_cli: Callable[..., Any]) -> None:
    base, head = WILD / "jmh" / "01-base.json", WILD / "jmh" / "01-head.json"
    r = run_cli("compare", base, head, "--format", "table")
    assert r.code == 0, r.err
    table = r.out.split("Geometric mean")[0]
    assert "interval too wide" in " ".join(table.split())
    assert not re.search(r"\[-\d", table)
    assert not re.search(r"\d\.\d+e[-+]\d", table)
    assert "interval cut at 0" in " ".join(table.split())

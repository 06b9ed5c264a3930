"""A PR body's Amdahl rows held to the verdicts beside them.

An Amdahl row's per-call speed-up is the changed method's own speed as the A/B measured it,
so it must lie among the ratios of the keys whose benchmark reaches the method and whose time
verdict is decided (:mod:`perfproof.stats.amdahl_gains`). A body that says "0.893× as fast"
for a method beside four verdicts of 3.5–4.8× as fast for it contradicts itself, however
faithfully it copied the bundle, and a speed-up where no reaching key decided anything is a
number no verdict supports: both are reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from perfproof.audit.truth import Mismatch
from perfproof.model.documents.prove import BundleView, ProveResults, read_prove
from perfproof.model.documents.prove_measured import KeyGain
from perfproof.stats.amdahl_gains import method_gains, mixed
from perfproof.units import significant

HEADER = "Per-call speed-up"
_FACTOR = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)× as fast")
TOLERANCE = 0.006
"""The body prints three significant digits: a factor within this share of the verdicts'
range is the same figure."""


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def amdahl_rows(lines: Sequence[str]) -> list[tuple[int, str, str]]:
    """(line index, method, per-call speed-up cell) of every Amdahl table row in a body."""
    out = []
    column = None
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("|"):
            column = None
            continue
        cells = _cells(line)
        if HEADER in cells:
            column = cells.index(HEADER)
            continue
        if column is None or set(line.strip()) <= set("|-: "):
            continue
        if column < len(cells):
            out.append((i, cells[0].strip("`"), cells[column]))
    return out


def amdahl_contradictions(lines: Sequence[str], folder: Path) -> list[Mismatch]:
    """The Amdahl rows of ``lines`` whose per-call speed-up the bundle's verdicts deny."""
    path = folder / "prove.json"
    if not path.is_file():
        return []
    results = ProveResults.of(BundleView(folder, read_prove(path)))
    ab, bench = results.ab, results.benchmarks
    if ab is None or bench is None:
        return []
    out = []
    for i, method, cell in amdahl_rows(lines):
        gains, unmoved = method_gains(method, bench.reached, ab.comparisons)
        found = _FACTOR.search(cell)
        if not gains:
            if found:
                out.append(Mismatch(i + 1, "amdahl", cell, "–",
                                    f"Amdahl row `{method}`: a per-call speed-up of {cell} where "
                                    f"no key reaching the method has a decided time verdict "
                                    f"({unmoved} without one)"))  # fmt: skip
            continue
        if mixed([g.gain for g in gains]):
            if found:
                out.append(Mismatch(i + 1, "amdahl", cell, "–",
                                    f"Amdahl row `{method}`: a per-call speed-up of {cell} where "
                                    "the decided keys reaching the method moved both ways "
                                    f"({_counts(gains)}): no one factor says it"))  # fmt: skip
            continue
        factors = sorted(1 + g.gain for g in gains)
        low, high = factors[0], factors[-1]
        span = f"{significant(low, 3)}×" + (f" to {significant(high, 3)}×" if high > low else "")
        value = float(found.group(1).replace(",", "")) if found else None
        if value is None or not low * (1 - TOLERANCE) <= value <= high * (1 + TOLERANCE):
            out.append(Mismatch(i + 1, "amdahl", cell, f"{span} as fast",
                                f"Amdahl row `{method}`: per-call speed-up {cell}, but the "
                                f"{len(gains)} decided key(s) reaching it measured {span} as "
                                "fast"))  # fmt: skip
    return out


def _counts(gains: Sequence[KeyGain]) -> str:
    """How many keys each verdict has: "2 improved, 3 regressed"."""
    by: dict[str, int] = {}
    for g in gains:
        by[g.verdict] = by.get(g.verdict, 0) + 1
    return ", ".join(f"{n} {v}" for v, n in sorted(by.items()))

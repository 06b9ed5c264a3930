"""benchstat's geometric-mean rows under the results tables, saying which keys they leave out.

A key at zero on a side has no logarithm, so a geometric mean cannot hold it; the keys whose
bytes/op fell to zero are the change itself, so a reader must be told they are outside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from perfproof.compare.geomean import GeoMean, geomeans
from perfproof.model import ALLOC_NORM, Comparison
from perfproof.render import gate
from perfproof.render.markdown import markdown_table
from perfproof.units import bytes_value, choose_scale, percent, scaled

GEOMEAN_HEADER = ("Geometric mean", "Keys", "Baseline", "Feature", "Δ%")


def geomean_lines(comparisons: Sequence[Comparison]) -> list[str]:
    """benchstat's geomean row as a Markdown table; nothing when no metric has two keys."""
    body = geomean_rows(comparisons)
    if not body:
        return []
    return [*markdown_table(GEOMEAN_HEADER, body, ["l", "r", "r", "r", "r"]), ""]


def geomean_rows(comparisons: Sequence[Comparison]) -> list[list[str]]:
    """benchstat's geomean row: per metric, the geometric means over the keys of both sides
    and their ratio."""
    body = []
    for g in geomeans(comparisons):
        if g.metric == ALLOC_NORM:
            sides = [f"{bytes_value(v)} B/op" for v in (g.base, g.head)]
        else:
            scale = choose_scale(g.unit, g.base)
            sides = [scaled(v, scale) for v in (g.base, g.head)]
        keys = f"{g.keys}" + (f" ({left_out_words(g)})" if g.left_out else "")
        name = gate.metric_name(g.metric, g.unit)
        body.append([name, keys, *sides, percent((g.ratio - 1) * 100)])
    return body


def left_out_words(g: GeoMean) -> str:
    """What a geometric mean leaves out, each kind by name: ``left out: 7 going to 0, 6 at 0
    on both sides``. Keys whose change is to or from zero are the ones a reader would count
    in, so they are never folded into one number with the keys that stay at zero."""
    both = g.left_out - g.to_zero - g.from_zero
    parts = [
        f"{g.to_zero} going to 0" if g.to_zero else "",
        f"{g.from_zero} from 0" if g.from_zero else "",
        f"{both} at 0 on both sides" if both else "",
    ]
    return "left out: " + ", ".join(p for p in parts if p)

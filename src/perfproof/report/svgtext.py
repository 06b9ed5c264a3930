"""matplotlib's SVG made light enough to inline many times in one page.

matplotlib writes every group with a generated id (``line2d_12``), every coordinate with six
decimals and every element's full style (``font-family`` with a dozen fallbacks), so the same
few styles are repeated thousands of times. A figure inlined in a report needs none of that:
ids nobody refers to go, coordinates keep two decimals (a hundredth of a point), and the
styles of all the figures on a page become classes declared once (:func:`share_styles`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_AUTO_ID = re.compile(r'\sid="([A-Za-z][\w.]*_\d+)"')
_NUMBER = re.compile(r"-?\d+\.\d{3,}")
_GEOMETRY = re.compile(r'(\s(?:d|x|y|x1|x2|y1|y2|width|height|transform|viewBox)=")([^"]*)"')
_STYLE = re.compile(r'\sstyle="([^"]*)"')


def _round(match: re.Match[str]) -> str:
    text = f"{float(match.group(0)):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def compact(svg: str) -> str:
    """The same drawing in fewer bytes: generated ids no element refers to dropped,
    coordinates rounded to two decimals, whitespace between elements and inside paths gone."""
    referenced = set(re.findall(r"#([\w.-]+)", svg))
    svg = _AUTO_ID.sub(lambda m: m.group(0) if m.group(1) in referenced else "", svg)

    def geometry(m: re.Match[str]) -> str:
        value = " ".join(_NUMBER.sub(_round, m.group(2)).split())
        return f'{m.group(1)}{value}"'

    svg = _GEOMETRY.sub(geometry, svg)
    return re.sub(r">\s+<", "><", svg)


def share_styles(svgs: Sequence[str], prefix: str = "s") -> tuple[list[str], str]:
    """Every ``style="…"`` of the figures of one page replaced by a class, and the CSS that
    declares each distinct style once (an element with a class of its own keeps it)."""
    classes: dict[str, str] = {}

    def to_class(m: re.Match[str]) -> str:
        name = classes.setdefault(m.group(1), f"{prefix}{len(classes)}")
        return f' class="{name}"'

    out = []
    for svg in svgs:
        # the root element already carries a class; its style (none from matplotlib) stays
        head, _, body = svg.partition(">")
        out.append(head + ">" + _STYLE.sub(to_class, body))
    css = "\n".join(f"svg.plot .{name} {{ {style} }}" for style, name in classes.items())
    return out, css

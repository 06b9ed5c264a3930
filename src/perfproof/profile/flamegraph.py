"""Self-contained interactive flame graphs (one HTML file, no network) and differential ones.

The page carries its data as JSON and draws it with a few lines of its own script: click to
zoom, search by regular expression, hover for values. Frames too narrow to see at full
width are dropped before writing, which keeps the file small for large profiles. In the
differential graph a frame's width is the larger of its before and after means, so frames
that vanished stay visible, and its colour is the change (red grew, blue shrank).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from perfproof.model.documents import json_safe
from perfproof.profile.stacks import Stack
from perfproof.storage import write_text_atomic

MIN_FRACTION = 1.0 / 20000  # narrower than this never reaches a pixel on a wide screen


@dataclass
class _Node:
    value: float = 0.0
    before: float = 0.0
    after: float = 0.0
    kids: dict[str, _Node] = field(default_factory=dict)


@dataclass(frozen=True)
class Graph:
    """One tab of the page: a label, its unit and the tree in the page's compact form."""

    label: str
    unit: str
    data: dict


def _tree(stacks: dict[Stack, tuple[float, float, float]]) -> _Node:
    root = _Node()
    for stack, (v, b, a) in stacks.items():
        node = root
        node.value += v
        node.before += b
        node.after += a
        for frame in stack:
            node = node.kids.setdefault(frame, _Node())
            node.value += v
            node.before += b
            node.after += a
    return root


def _encode(root: _Node, root_name: str, diff: bool) -> tuple[list, list[str]]:
    names: list[str] = []
    index: dict[str, int] = {}
    cutoff = root.value * MIN_FRACTION

    def name_id(n: str) -> int:
        i = index.get(n)
        if i is None:
            i = index[n] = len(names)
            names.append(n)
        return i

    def enc(name: str, node: _Node, kids: list) -> list:
        out: list = [name_id(name), _round(node.value), kids]
        if diff:
            out += [_round(node.before), _round(node.after)]
        return out

    # iterative: JFR keeps stacks up to 2048 frames deep, past Python's recursion limit
    top: list = enc(root_name, root, [])
    todo = [(root, top[2])]
    while todo:
        node, into = todo.pop()
        for k, c in node.kids.items():
            if c.value >= cutoff and c.value > 0:
                kid = enc(k, c, [])
                into.append(kid)
                todo.append((c, kid[2]))
    return top, names


def _round(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 3)


def graph(
    label: str,
    unit: str,
    stacks: Mapping[Stack, float],
    focus: tuple[str, ...] = (),
    class_leaves: bool = False,
) -> Graph:
    """A plain flame graph of stacks (root first) weighted in ``unit``."""
    tree = _tree({s: (w, 0.0, 0.0) for s, w in stacks.items() if w > 0})
    return _graph(label, unit, tree, focus, diff=False, classLeaves=class_leaves)


def diff_graph(
    label: str,
    unit: str,
    before: dict[Stack, float],
    after: dict[Stack, float],
    focus: tuple[str, ...] = (),
) -> Graph:
    """A differential flame graph: width max(before, after) per stack, colour the change."""
    keys = set(before) | set(after)
    stacks = {}
    for s in keys:
        b, a = before.get(s, 0.0), after.get(s, 0.0)
        if max(a, b) > 0:
            stacks[s] = (max(a, b), b, a)
    tree = _tree(stacks)
    max_delta = max((abs(a - b) for _, b, a in stacks.values()), default=0.0)
    return _graph(label, unit, tree, focus, diff=True, maxDelta=_frame_max_delta(tree) or max_delta)


def _graph(
    label: str, unit: str, tree: _Node, focus: tuple[str, ...], diff: bool, **extra: Any
) -> Graph:
    """The page's data for one tree: what the plain and the differential graph share."""
    root, names = _encode(tree, "all", diff=diff)
    data = {
        "label": label,
        "unit": unit,
        "root": root,
        "names": names,
        "focus": list(focus),
        "diff": diff,
        **extra,
    }
    return Graph(label, unit, data)


def _frame_max_delta(root: _Node) -> float:
    best = 0.0
    todo = list(root.kids.values())
    while todo:
        n = todo.pop()
        best = max(best, abs(n.after - n.before))
        todo.extend(n.kids.values())
    return best


def render_html(graphs: list[Graph], title: str, subtitle: str = "") -> str:
    """The page, with its data embedded by jinja2's ``tojson``: HTML-safe JSON (``<``, ``>``,
    ``&`` and ``'`` escaped), so a frame named ``</script>`` cannot end the element early."""
    template_text = (
        resources.files("perfproof.profile") / "templates" / "flamegraph.html.j2"
    ).read_text("utf-8")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    parts = []
    for g in graphs:  # each tree written by hand: json nests one call per level
        rest = htmlsafe_json_dumps(
            json_safe({k: v for k, v in g.data.items() if k != "root"}),
            separators=(",", ":"),
            allow_nan=False,
        )
        parts.append('{"root":' + _tree_json(g.data["root"]) + "," + str(rest)[1:])
    data = Markup('{"graphs":[' + ",".join(parts) + "]}")
    return env.from_string(template_text).render(title=title, subtitle=subtitle, data=data)


def _tree_json(root: list) -> str:
    """``[name, value, [kids…], before?, after?]`` as JSON without recursion: the tree holds
    only numbers (names are indexes), so nothing in it needs escaping for HTML."""
    out: list[str] = []
    todo: list[Any] = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        head = f"[{_number(item[0])},{_number(item[1])},["
        tail = "".join(f",{_number(x)}" for x in item[3:]) + "]"
        kids = item[2]
        todo.append("]" + tail)
        for i in range(len(kids) - 1, -1, -1):
            todo.append(kids[i])
            if i:
                todo.append(",")
        out.append(head)
    return "".join(out)


def _number(x: float) -> str:
    return json.dumps(x if math.isfinite(x) else 0, allow_nan=False)


def write_flamegraph(path: Path, graphs: list[Graph], title: str, subtitle: str = "") -> Path:
    return write_text_atomic(path, render_html(graphs, title, subtitle))

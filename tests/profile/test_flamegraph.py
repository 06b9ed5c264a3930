import json
import re

import pytest

from perfproof.profile.flamegraph import MIN_FRACTION, diff_graph, graph, render_html

STACKS = {
    ("main", "a.A.run", "a.A.hot"): 90.0,
    ("main", "a.A.run", "a.A.cold"): 10.0,
    ("main", "b.B.tiny"): 100.0 * MIN_FRACTION / 10,
    ("main", "x.Evil.</script><img src=x onerror=alert(1)>"): 5.0,
}


def _data(html: str) -> dict:
    m = re.search(r'<script id="data" type="application/json">(.*?)</script>', html, re.S)
    assert m, "data block missing"
    return json.loads(m.group(1))


def _names(node, names, out):
    out[names[node[0]]] = node
    for k in node[2]:
        _names(k, names, out)
    return out


def test_page_is_self_contained():
    html = render_html([graph("CPU", "samples", STACKS, ("a.",))], "t")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "http://" not in html and "https://" not in html
    assert "<link" not in html
    # frame names cannot close the data block or inject markup
    assert "</script><img" not in html
    assert html.count("</script>") == 2


def test_tree_values_and_pruning():
    g = graph("CPU", "samples", STACKS)
    data = _data(render_html([g], "t"))["graphs"][0]
    nodes = _names(data["root"], data["names"], {})
    assert nodes["all"][1] == pytest.approx(105.0 + 100.0 * MIN_FRACTION / 10, abs=1e-3)
    assert nodes["a.A.run"][1] == 100
    assert nodes["a.A.hot"][1] == 90
    assert "b.B.tiny" not in nodes  # too narrow to draw
    assert "x.Evil.</script><img src=x onerror=alert(1)>" in data["names"]


def test_differential_graph_keeps_vanished_frames():
    before = {("main", "a.hot"): 100.0, ("main", "a.keep"): 50.0}
    after = {("main", "a.keep"): 60.0, ("main", "a.new"): 5.0}
    data = _data(render_html([diff_graph("CPU", "samples", before, after)], "t"))["graphs"][0]
    nodes = _names(data["root"], data["names"], {})
    # [name, width, kids, before, after]
    assert nodes["a.hot"][1] == 100 and nodes["a.hot"][3:] == [100, 0]
    assert nodes["a.keep"][1] == 60 and nodes["a.keep"][3:] == [50, 60]
    assert nodes["a.new"][3:] == [0, 5]
    assert data["diff"] is True and data["maxDelta"] == 100

"""``hunt.html``: the work list and the flame graph in one self-contained page.

The flame graph is the profile package's own page, embedded whole in an ``iframe``'s
``srcdoc`` (jinja2 escapes it), so the file opens offline and its script keeps its own scope.
"""

from __future__ import annotations

import jinja2

from perfproof.model.documents.hunt import HuntResult
from perfproof.render.hunt import best, ceiling, cpu_cell, per_op
from perfproof.units import MISSING, percent

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>perfproof hunt</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:3px 7px}
th{background:#f2f2f2}td.n{text-align:right}code{font-size:92%}
.fact{color:#333}.prove{background:#f6f8fa;padding:6px;font-family:monospace;white-space:pre-wrap}
iframe{width:100%;height:720px;border:1px solid #ccc}.warn{color:#8a5a00}
</style></head><body>
<h1>perfproof hunt</h1>
<p>Workload: {{ h.workload.description }}{% if h.workload.sha %}
 at <code>{{ h.workload.ref }}</code> ({{ h.workload.sha[:12] }}){% endif %}</p>
<table><tr><th>#</th><th>id</th><th>method</th><th>where</th><th>CPU share</th>
<th>cost</th><th>ceiling</th><th>callers</th><th>pattern</th></tr>
{% for x in rows %}<tr><td class="n">{{ x.rank }}</td><td><code>{{ x.id }}</code></td>
<td><code>{{ x.method }}</code></td><td>{{ x.where }}</td><td class="n">{{ x.cpu }}</td>
<td class="n">{{ x.cost }}</td><td class="n">{{ x.ceiling }}</td><td class="n">{{ x.callers }}</td>
<td>{{ x.pattern }}</td></tr>
<tr><td></td><td colspan="8"><span class="fact">{{ x.fact }}</span>
{% if x.prove %}<div class="prove">{{ x.prove }}</div>{% endif %}</td></tr>{% endfor %}
</table>
{% if h.other %}<h2>Not hypotheses</h2>
<table><tr><th>cost</th><th>CPU samples</th><th>bytes</th></tr>
{% for o in other %}<tr><td>{{ o[0] }}</td><td class="n">{{ o[1] }}</td>
<td class="n">{{ o[2] }}</td></tr>{% endfor %}
</table>{% endif %}
{% if h.changes is not none %}<h2>Against {{ h.compared_with }}</h2><table>
<tr><th>status</th><th>id</th><th>method</th></tr>{% for c in h.changes %}
<tr><td>{{ c.label }}</td><td><code>{{ c.id }}</code></td>
<td><code>{{ c.method }}</code></td></tr>{% endfor %}
</table>{% endif %}
{% for w in h.warnings %}<p class="warn">warning: {{ w }}</p>{% endfor %}
<h2>Flame graph</h2>
<iframe title="flame graph" sandbox="allow-scripts" srcdoc="{{ flame }}"></iframe>
</body></html>
"""


def _pct(x: float | None) -> str:
    return MISSING if x is None else percent(100 * x, 1, sign=False)


def hunt_html(h: HuntResult, flame: str) -> str:
    rows = []
    for x in h.hypotheses:
        c = best(x)
        rows.append(
            {
                "rank": x.rank,
                "id": x.id,
                "method": x.method,
                "where": f"{x.file}:{x.line}-{x.end_line}",
                "cpu": cpu_cell(x),
                "cost": per_op(c),
                "ceiling": ceiling(c.ceiling),
                "callers": MISSING if x.callers is None else x.callers.production,
                "pattern": x.pattern.rule if x.pattern else "",
                "fact": x.fact,
                "prove": x.prove,
            }
        )
    other = [(o.label, _pct(o.cpu_share), _pct(o.alloc_share)) for o in h.other]
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(_PAGE).render(h=h, rows=rows, other=other, flame=flame)

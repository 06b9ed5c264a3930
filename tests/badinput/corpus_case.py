"""One bad-input case: the command, the files it reads, and what perfproof must answer."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent.parent / "fixtures"


@dataclass(frozen=True)
class Case:
    """``perfproof ARGV`` run in a fresh folder ``{d}`` holding ``files``.

    ``exit`` is the expected exit code (or the codes either of which is right, when the
    contract allows both); ``message`` a regex the one ``perfproof: error:`` line must match
    (for exit 0 and 1: a regex the combined output must match). ``forbid`` must not appear in
    the output. File names starting with ``fifo:`` become named pipes fed once by a thread;
    ``ro:`` makes a file read-only (0444), or a name ending in ``/`` a read-only folder (0555);
    ``repo`` makes ``{d}/repo`` a git repository with a ``main`` and a ``feature`` commit;
    ``run`` copies a fixture run folder (``"ab"`` or ``"compare"``) to ``{d}/run``.
    ``strict_json`` parses stdout as strict JSON; ``xfail`` names the module holding a known
    defect the case exposes.
    """

    id: str
    argv: tuple[str, ...]
    exit: int | tuple[int, ...]
    message: str
    files: dict[str, str | bytes] = field(default_factory=dict)
    repo: bool = False
    run: str | None = None
    forbid: str | None = None
    strict_json: bool = False
    xfail: str | None = None  # a known defect in a module perfproof's corpus names

    @property
    def exits(self) -> tuple[int, ...]:
        return self.exit if isinstance(self.exit, tuple) else (self.exit,)


def entry(
    bench: str = "org.acme.Bench.m",
    raw: Any = ((10.0, 10.2, 9.9), (10.4, 10.1, 10.0)),
    unit: str = "ns/op",
    mode: str = "avgt",
    params: dict[str, str] | None = None,
    **primary: Any,
) -> dict[str, Any]:
    """A JMH ``-rf json`` entry with the given raw data (forks × iterations)."""
    data = [list(f) for f in raw]
    flat = [v for f in data for v in f if isinstance(v, (int, float))]
    metric = {
        "score": sum(flat) / len(flat) if flat else 0.0,
        "scoreError": 0.1,
        "scoreUnit": unit,
        "rawData": data,
        **primary,
    }
    out: dict[str, Any] = {
        "jmhVersion": "1.37",
        "benchmark": bench,
        "mode": mode,
        "forks": len(data),
        "primaryMetric": metric,
        "secondaryMetrics": {},
    }
    if params:
        out["params"] = params
    return out


def jmh(*entries: dict[str, Any]) -> str:
    return json.dumps(list(entries) or [entry()])


GOOD = jmh(entry())
GOOD_HEAD = jmh(entry(raw=((9.0, 9.1, 8.9), (9.2, 9.0, 9.1))))
RECORDED = (FIXTURES / "jmh" / "jmh-1.37-allmodes-gc.json").read_text()
CPU = "main;app.A.run;app.A.hot 30\nmain;app.A.run;app.A.cold 10\n"
ALLOC = "main;app.A.run;app.A.grow;long[]_[a] 4096\n"
DEEP = "[" * 200_000 + "]" * 200_000

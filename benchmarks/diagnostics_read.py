"""How long the lenient readers of a comparison's diagnostics and JMH scores take, beside the
whole compare document's read and write, on the 2,000-entry ``results.json`` that
``codec_choice.py`` builds. Short enough to run alternately against two trees, which is how
its figures in BENCHMARKS.md were taken on a shared machine.

    pip install msgspec                            # codec_choice.py needs it
    PYTHONPATH=src python3 benchmarks/diagnostics_read.py
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from codec_choice import big_document

from perfproof.model.diagnostics import Diagnostics, JmhScores
from perfproof.model.documents.codec import decode_value
from perfproof.model.documents.compare import CompareDocument


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> int:
    doc = json.loads(json.dumps(big_document(2000)))
    rows = doc["comparisons"]
    typed = CompareDocument.read(doc, "r.json")
    timed: list[tuple[str, Callable[[], object], int]] = [
        ("diagnostics", lambda: [decode_value(Diagnostics, c["diagnostics"]) for c in rows], 30),
        ("jmh", lambda: [decode_value(JmhScores, c["jmh"]) for c in rows if c.get("jmh")], 30),
        ("read", lambda: CompareDocument.read(doc, "r.json"), 10),
        ("dump", typed.dump, 7),
    ]
    print("  ".join(f"{name} {best_ms(fn, n):.1f} ms" for name, fn, n in timed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

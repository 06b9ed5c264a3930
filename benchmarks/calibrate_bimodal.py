"""Null quantiles of the bimodal-forks statistic (2-means B/W on one normal group), seeded.

    python3 benchmarks/calibrate_bimodal.py           # rewrites stats/bimodal_levels.json
    python3 benchmarks/calibrate_bimodal.py --check   # recomputes and compares, writes nothing

For every number of pooled fork means n from 4 to 64, 200,000 samples of n standard normal
values; the quantiles of B/W at the upper 5%, 1% and 0.1% are the detector's thresholds
(``perfproof.stats.bimodal``): a key is bimodal when its statistic exceeds the one at its level.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from perfproof.stats.bimodal import LEVELS_FILE, LEVELS_SCHEMA, MIN_GROUP, null_statistics

SEED = 20261125
DRAWS = 200_000
LEVELS = (0.05, 0.01, 0.001)
LARGEST = 64
TARGET = Path(__file__).resolve().parents[1] / "src" / "perfproof" / "stats" / LEVELS_FILE


def table() -> dict[str, object]:
    rng = np.random.default_rng(SEED)
    quantiles = {}
    for n in range(2 * MIN_GROUP, LARGEST + 1):
        stat = null_statistics(rng, n, DRAWS)
        quantiles[str(n)] = [round(float(np.quantile(stat, 1 - a)), 4) for a in LEVELS]
    return {
        "schema": LEVELS_SCHEMA,
        "statistic": "2-means between/within sum of squares, groups of at least "
        f"{MIN_GROUP}, pooled log fork means",
        "seed": SEED,
        "draws": DRAWS,
        "levels": list(LEVELS),
        "quantiles": quantiles,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped table")
    args = parser.parse_args()
    started = time.perf_counter()
    doc = table()
    quantiles = doc.pop("quantiles")
    assert isinstance(quantiles, dict)
    rows = ",\n".join(f'  "{n}": {json.dumps(q, allow_nan=False)}' for n, q in quantiles.items())
    head = json.dumps(doc, indent=1, allow_nan=False)[:-2]
    text = f'{head},\n "quantiles": {{\n{rows}\n }}\n}}\n'
    took = time.perf_counter() - started
    if args.check:
        same = TARGET.read_text(encoding="utf-8") == text
        print("shipped table reproduced" if same else "shipped table differs", f"({took:.0f} s)")
        sys.exit(0 if same else 1)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET} ({took:.0f} s)")


if __name__ == "__main__":
    main()

"""Synthetic sides with known truth, in memory (Samples) and as JMH JSON files."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lab.simulate import hierarchical
from perfproof.model import BenchKey, Direction, Samples

FIXTURES = Path(__file__).parent.parent / "fixtures" / "jmh"


def samples(name: str, forks: list[np.ndarray], unit: str = "ns/op", metric: str = "primary"):
    key = BenchKey(name, "avgt", (), metric)
    direction = Direction.HIGHER if unit == "ops/s" else Direction.LOWER
    return Samples(key, unit, direction, [np.asarray(f, dtype=float) for f in forks])


def jmh_entry(
    name: str,
    forks: list[Any],
    unit: str = "ns/op",
    mode: str = "avgt",
    params: dict[str, str] | None = None,
    alloc: float | None = None,
) -> dict[str, Any]:
    """A JMH 1.37 ``-rf json`` entry with the given raw data (and constant B/op if given)."""
    raw = [[float(v) for v in f] for f in forks]
    flat = [v for f in raw for v in f]
    entry: dict[str, Any] = {
        "jmhVersion": "1.37",
        "benchmark": name,
        "mode": mode,
        "forks": len(raw),
        "primaryMetric": {
            "score": sum(flat) / len(flat),
            "scoreError": "NaN",
            "scoreUnit": unit,
            "rawData": raw,
        },
        "secondaryMetrics": {},
    }
    if params:
        entry["params"] = params
    if alloc is not None:
        entry["secondaryMetrics"]["gc.alloc.rate.norm"] = {
            "score": alloc,
            "scoreError": 0.0,
            "scoreUnit": "B/op",
            "rawData": [[alloc] * len(f) for f in raw],
        }
    return entry


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20240601)


@pytest.fixture
def make_forks() -> Callable[..., list[np.ndarray]]:
    return hierarchical


@pytest.fixture
def make_samples() -> Callable[..., Samples]:
    return samples


@pytest.fixture
def make_jmh_entry() -> Callable[..., dict[str, Any]]:
    return jmh_entry


@pytest.fixture
def write_jmh(tmp_path: Path) -> Callable[[str, list[dict[str, Any]]], Path]:
    def _write(name: str, entries: list[dict[str, Any]]) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(entries))
        return path

    return _write


@pytest.fixture
def stream_vs_loop(tmp_path: Path) -> tuple[Path, Path]:
    """Real JMH 1.37 data (4 forks, -prof gc): streamEmpty as base, loopEmpty as head.

    Both are renamed to one benchmark so they match: the head does the same (nothing) with a
    plain loop instead of a stream, which is much faster and allocates nothing.
    """
    recorded = json.loads((FIXTURES / "jmh-1.37-empty-f4-gc.json").read_text())
    out = []
    for method in ("streamEmpty", "loopEmpty"):
        entries = [copy.deepcopy(e) for e in recorded if e["benchmark"].endswith(method)]
        for e in entries:
            e["benchmark"] = "fx.Codes.empty"
        path = tmp_path / f"{method}.json"
        path.write_text(json.dumps(entries))
        out.append(path)
    return out[0], out[1]

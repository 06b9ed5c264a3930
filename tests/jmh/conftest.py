"""Builders for hand-made JMH result files: the edge cases real runs rarely produce on demand."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def entry(
    benchmark: str = "x.B.m",
    mode: str = "avgt",
    raw: Any = ((1.0, 2.0), (3.0, 4.0)),
    unit: str = "ns/op",
    params: dict[str, str] | None = None,
    secondary: dict[str, dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One JMH entry shaped like ``-rf json`` output (JMH 1.37 layout)."""
    doc: dict[str, Any] = {
        "jmhVersion": "1.37",
        "benchmark": benchmark,
        "mode": mode,
        "threads": 1,
        "forks": len(raw),
        "primaryMetric": {
            "score": 2.5,
            "scoreError": 1.0,
            "scoreUnit": unit,
            "rawData": [list(f) for f in raw],
        },
        "secondaryMetrics": secondary or {},
    }
    if params is not None:
        doc["params"] = params
    doc.update(extra)
    return doc


@pytest.fixture
def make_entry() -> Callable[..., dict[str, Any]]:
    return entry


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[[str, Any], Path]:
    """Write a JSON document (or raw text when given a str) under tmp_path."""

    def _write(name: str, doc: Any) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
        return path

    return _write

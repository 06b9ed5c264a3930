"""Calibration tables shipped inside the package (``*_levels.json``), read once each.

The sequential design's α′ grid and the bimodal detector's null quantiles are simulated once by
a script under ``benchmarks/`` and shipped as data; both are read the same way, with their
schema checked so a table written by another version is refused rather than misread.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from perfproof.model.documents import loads_strict


@functools.cache
def shipped_table(file: str, schema: str) -> dict[str, Any]:
    """The table ``file`` of ``perfproof.stats``, which must declare ``schema``."""
    text = resources.files("perfproof.stats").joinpath(file).read_text(encoding="utf-8")
    table = loads_strict(text, file)
    if not isinstance(table, dict) or table.get("schema") != schema:
        found = table.get("schema") if isinstance(table, dict) else None
        raise ValueError(f"{file}: unexpected schema {found!r}")
    return table

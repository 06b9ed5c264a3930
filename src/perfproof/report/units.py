"""Former home of the report's number formatting, kept as a name for old imports.

Everything is defined once in :mod:`perfproof.render.format`; import from there.
"""

from __future__ import annotations

from perfproof.render.format import (
    BYTES_ZERO,
    MINUS,
    TIME_SCALES,
    Scale,
    bytes_change,
    bytes_value,
    choose_scale,
    decimals_for,
    delta_with_interval,
    duration,
    is_symmetric,
    number,
    percent_decimals,
    signed,
    value_with_interval,
)

__all__ = [
    "BYTES_ZERO",
    "MINUS",
    "TIME_SCALES",
    "Scale",
    "bytes_change",
    "bytes_value",
    "choose_scale",
    "decimals_for",
    "delta_with_interval",
    "duration",
    "is_symmetric",
    "number",
    "percent_decimals",
    "signed",
    "value_with_interval",
]

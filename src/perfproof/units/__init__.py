"""How every perfproof output spells a number: the one formatter, a leaf of the house.

A reviewer compares numbers across a row and across reports, so every verb spells a value the
same way: throughput with SI prefixes (``1.04 G ops/s``), time in JMH's own units (``412
ns/op``, ``3.19 µs/op``), spread as a share of the estimate (``± 4.1%``), effects as signed
percentages, and a missing value always as ``n/a``. The statistics, the measurement loop, the
profiles, the history and the audit all spell numbers, so this package imports nothing else of
perfproof: anything may import it.
"""

from __future__ import annotations

from perfproof.units.allocation import BYTES_ZERO, bytes_change, bytes_value
from perfproof.units.bounds import MAX_BOUND_FACTOR, beyond_factor, forks_words, too_wide
from perfproof.units.change_interval import (
    change_interval,
    detectable_interval,
    log_half_width_bounds,
)
from perfproof.units.durations import duration, eta
from perfproof.units.hashes import SHORT_SHA, short_sha
from perfproof.units.numbers import (
    MINUS,
    MISSING,
    SIG_DIGITS,
    decimals_for,
    finite,
    is_symmetric,
    number,
    signed,
    significant,
)
from perfproof.units.percentages import (
    delta_with_interval,
    fraction_pct,
    is_large,
    percent,
    percent_decimals,
    percent_range,
    ratio_text,
    relative_spread,
)
from perfproof.units.scale import (
    SI_PREFIXES,
    SI_UNITS,
    TIME_SCALES,
    Scale,
    choose_scale,
    cut_at_zero,
    needs_ends,
    quantity,
    scaled,
    value_spread,
    value_with_interval,
)

__all__ = [
    "BYTES_ZERO",
    "MAX_BOUND_FACTOR",
    "MINUS",
    "MISSING",
    "SHORT_SHA",
    "SIG_DIGITS",
    "SI_PREFIXES",
    "SI_UNITS",
    "TIME_SCALES",
    "Scale",
    "beyond_factor",
    "bytes_change",
    "bytes_value",
    "change_interval",
    "choose_scale",
    "cut_at_zero",
    "decimals_for",
    "delta_with_interval",
    "detectable_interval",
    "duration",
    "eta",
    "finite",
    "forks_words",
    "fraction_pct",
    "is_large",
    "is_symmetric",
    "log_half_width_bounds",
    "needs_ends",
    "number",
    "percent",
    "percent_decimals",
    "percent_range",
    "quantity",
    "ratio_text",
    "relative_spread",
    "scaled",
    "short_sha",
    "signed",
    "significant",
    "too_wide",
    "value_spread",
    "value_with_interval",
]

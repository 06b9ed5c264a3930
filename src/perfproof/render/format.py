"""The one number formatter and the one Markdown table writer of every perfproof output.

A reviewer compares numbers across a row and across reports, so every verb spells a value the
same way: throughput with SI prefixes (``1.04 G ops/s``), time in JMH's own units (``412
ns/op``, ``3.19 µs/op``), spread as a share of the estimate (``± 4.1%``, as benchstat prints
it), effects as signed percentages, and a missing value always as ``n/a``. Everything here is
plain Python arithmetic on floats, so a score of 1e306 formats without numpy overflow warnings.

The precision functions (``decimals_for``, ``value_with_interval``) round an estimate to what its
interval supports: printing more digits than the interval supports invites readers to see
differences that are noise; printing fewer hides real ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MISSING = "n/a"
"""The one spelling of a value that does not exist (no interval, no data, not a number)."""

MINUS = "-"
"""ASCII hyphen-minus: survives copy-paste into terminals, spreadsheets and `perfproof check`."""

SIG_DIGITS = 3
"""Significant digits of a scaled quantity: ``1.04 G ops/s``, ``412 ns/op``, ``48.0 ns/op``."""

TIME_SCALES: tuple[tuple[str, float], ...] = (
    ("ns/op", 1.0),
    ("µs/op", 1e3),
    ("ms/op", 1e6),
    ("s/op", 1e9),
)
"""Time units a report may show, with their size in nanoseconds (the canonical time unit)."""

SI_PREFIXES: tuple[tuple[str, float], ...] = (
    ("", 1.0),
    ("k", 1e3),
    ("M", 1e6),
    ("G", 1e9),
    ("T", 1e12),
    ("P", 1e15),
    ("E", 1e18),
)
"""Prefixes for counts per time (``ops/s``): beyond exa the number is written with an exponent."""

SI_UNITS = frozenset({"ops/s"})
"""Canonical units shown with SI prefixes; other units (``B/op``, JMH's secondary metrics such as
``MB/sec`` or ``counts``) keep their own name, since a prefix on them would read as a new unit."""


# ---------------------------------------------------------------------------- scale


@dataclass(frozen=True)
class Scale:
    """A display unit for one row: ``value_in_canonical / factor`` gives the shown number."""

    unit: str
    factor: float


def choose_scale(unit: str, reference: float | None) -> Scale:
    """The display unit for a row whose canonical unit is ``unit`` and baseline is ``reference``.

    Time moves to µs, ms or s once the number would need four or more integer digits in the
    smaller unit; ``ops/s`` takes an SI prefix (``k``, ``M``, ``G``, …) by the same rule; any
    other unit is kept as it is. One row shares one scale so its numbers compare by eye.
    """
    magnitude = abs(reference) if reference is not None and math.isfinite(reference) else 0.0
    # 999.7 ns/op rounds to 1,000 at three digits: it is shown as 1.00 µs/op instead
    limit = 1000 * (1 - 0.5 * 10**-SIG_DIGITS)
    if unit == "ns/op":
        for name, factor in TIME_SCALES:
            if magnitude < factor * limit:
                return Scale(name, factor)
        return Scale(*TIME_SCALES[-1])
    if unit in SI_UNITS:
        for prefix, factor in SI_PREFIXES:
            if magnitude < factor * limit:
                return Scale(f"{prefix} {unit}" if prefix else unit, factor)
    return Scale(unit, 1.0)


def significant(value: float | None, digits: int = SIG_DIGITS) -> str:
    """``value`` with ``digits`` significant digits, thousands separators for large integer
    parts and an exponent only where a fixed notation would be absurd (``1.00e+306``)."""
    if value is None or math.isnan(value):
        return MISSING
    if math.isinf(value):
        return "∞" if value > 0 else MINUS + "∞"
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e15 or magnitude < 1e-4:
        return _minus(f"{magnitude:.{digits - 1}e}", value)
    exponent = math.floor(math.log10(magnitude))
    decimals = max(0, digits - 1 - exponent)
    text = f"{magnitude:,.{decimals}f}"
    if decimals and float(text.replace(",", "")) >= 10 ** (exponent + 1):
        text = f"{magnitude:,.{max(0, decimals - 1)}f}"  # 9.999 rounded up to 10.0, not 10.00
    return _minus(text, value)


def _minus(text: str, value: float) -> str:
    return MINUS + text if value < 0 and float(text.replace(",", "")) != 0 else text


def quantity(value: float | None, unit: str, digits: int = SIG_DIGITS) -> str:
    """A value with its unit, scaled: ``1.04 G ops/s``, ``412 ns/op``, ``3.19 µs/op``."""
    if value is None or not math.isfinite(value):
        return significant(value)
    scale = choose_scale(unit, value)
    return f"{significant(value / scale.factor, digits)} {scale.unit}"


def scaled(value: float | None, scale: Scale, digits: int = SIG_DIGITS) -> str:
    """A value in a scale chosen for its row (``quantity`` chooses per value)."""
    if value is None or not math.isfinite(value):
        return significant(value)
    return f"{significant(value / scale.factor, digits)} {scale.unit}"


# ---------------------------------------------------------------------------- spread and percent


def relative_spread(value: float | None, ci: tuple[float, float] | None) -> str:
    """An interval's half-width as a share of its estimate: ``± 4.1%`` (benchstat's form).

    Below 10% one decimal, then whole percent; an interval wider than ten times its estimate
    carries no more information than ``± >999%``.
    """
    if value is None or ci is None or not all(_finite(x) for x in (value, *ci)) or value == 0:
        return f"± {MISSING}"
    share = abs((ci[1] - ci[0]) / 2 / value) * 100
    if share >= 1000:
        return "± >999%"
    return f"± {share:.1f}%" if share < 10 else f"± {share:.0f}%"


def value_spread(value: float | None, ci: tuple[float, float] | None, scale: Scale) -> str:
    """``1.04 G ops/s ± 4.1%``: the scaled estimate and its relative spread."""
    return f"{scaled(value, scale)} {relative_spread(value, ci)}"


def percent(x: float | None, decimals: int = 1, *, sign: bool = True) -> str:
    """A percentage: ``+12.0%``, ``-50.0%``, ``0.0%``; beyond ±999% ``>+999%``; near -100% two
    decimals, since -99.97% (3,000× faster) and -99.5% differ a lot."""
    if x is None or math.isnan(x):
        return MISSING
    if math.isinf(x):
        return ("+∞" if x > 0 else MINUS + "∞") if sign else ("∞" if x > 0 else MINUS + "∞")
    if abs(x) >= 1000:
        return (">+999%" if x > 0 else "<-999%") if sign else (">999%" if x > 0 else "<-999%")
    if -100.0 < x <= -99.0 and decimals < 2:
        decimals = 2
    return (signed(x, decimals) if sign else number(x, decimals)) + "%"


def percent_range(lo: float, hi: float) -> str:
    """``+28% to +128%``: the span of several effects, in whole percent."""
    if math.isclose(round(lo), round(hi)):
        return percent(lo, 0)
    return f"{percent(lo, 0)} to {percent(hi, 0)}"


def fraction_pct(fraction: float | None) -> str:
    """A confidence or threshold given as a fraction: ``0.99`` → ``99%``, ``0.01`` → ``1%``."""
    if fraction is None or not math.isfinite(fraction):
        return MISSING
    return f"{fraction * 100:g}%"


# ---------------------------------------------------------------------------- fixed decimals


def decimals_for(half_width: float | None, value: float, *, sig: int = 2) -> int:
    """Decimal places so that ``half_width`` shows ``sig`` significant digits.

    Without an interval (one fork, or exact metrics) the value itself gets four significant
    digits. Capped so that a near-zero interval cannot ask for absurd precision.
    """
    if half_width is not None and math.isfinite(half_width) and half_width > 0:
        exponent = math.floor(math.log10(half_width))
        return max(0, min(6, sig - 1 - exponent))
    if not math.isfinite(value) or value == 0:
        return 0
    exponent = math.floor(math.log10(abs(value)))
    return max(0, min(6, 3 - exponent))


def number(value: float | None, decimals: int) -> str:
    """``12345.678, 1`` → ``12,345.7``; ASCII minus; missing → ``n/a``."""
    if value is None or not math.isfinite(value):
        return MISSING
    text = f"{abs(value):,.{decimals}f}"
    return _minus(text, value)


def signed(value: float | None, decimals: int) -> str:
    """A number with an explicit sign, for effects: ``+3.2``, ``-12.0``, ``0.0``."""
    if value is None or not math.isfinite(value):
        return MISSING
    text = number(value, decimals)
    if text.startswith(MINUS) or float(text.replace(",", "")) == 0:
        return text
    return "+" + text


def value_with_interval(
    value: float, ci: tuple[float, float] | None, scale: Scale, decimals: int | None = None
) -> str:
    """``12.34 ± 0.56 ns/op``; an asymmetric interval is written ``12.3 [11.9, 13.1] ns/op``."""
    shown = value / scale.factor
    if ci is None or not all(math.isfinite(c) for c in ci):
        d = decimals if decimals is not None else decimals_for(None, shown)
        return f"{number(shown, d)} {scale.unit}"
    lo, hi = ci[0] / scale.factor, ci[1] / scale.factor
    half = (hi - lo) / 2
    d = decimals if decimals is not None else decimals_for(half, shown)
    if is_symmetric(shown, lo, hi):
        return f"{number(shown, d)} ± {number(half, d)} {scale.unit}"
    return f"{number(shown, d)} [{number(lo, d)}, {number(hi, d)}] {scale.unit}"


def is_symmetric(value: float, lo: float, hi: float) -> bool:
    """Whether an interval is centred on its estimate closely enough to write it as ``±``."""
    half = (hi - lo) / 2
    if half <= 0:
        return True
    return abs((value - lo) - (hi - value)) <= 0.02 * half


def percent_decimals(ci_pct: tuple[float, float] | None) -> int:
    """One decimal for Δ%, two when the interval is narrower than 0.2 points."""
    finite = ci_pct is not None and all(math.isfinite(c) for c in ci_pct)
    return 2 if finite and abs(ci_pct[1] - ci_pct[0]) < 0.2 else 1  # type: ignore[index]


def delta_with_interval(delta_pct: float, ci_pct: tuple[float, float] | None) -> str:
    """``-12.3% [-14.1, -10.5]``: the effect and its interval in percent."""
    d = percent_decimals(ci_pct)
    text = percent(delta_pct, d)
    if ci_pct is not None and all(math.isfinite(c) for c in ci_pct):
        lo, hi = (percent(c, d).removesuffix("%") for c in ci_pct)
        text += f" [{lo}, {hi}]"
    return text


# ---------------------------------------------------------------------------- bytes, durations

BYTES_ZERO = 0.5
"""Below half a byte per operation a benchmark does not allocate (JMH reports tiny noise)."""


def bytes_value(value: float | None) -> str:
    """Bytes per operation: whole bytes, since allocation sizes are whole numbers."""
    if value is None or not math.isfinite(value):
        return MISSING
    if abs(value) < BYTES_ZERO:
        return "0"
    return number(value, 0)


def bytes_change(base: float, head: float, delta_pct: float | None) -> str:
    """``1,024 → 512 B/op (-50.0%)``; zero-to-zero and new allocations said in words."""
    text = f"{bytes_value(base)} → {bytes_value(head)} B/op"
    if not (_finite(base) and _finite(head)):
        return text
    if abs(base) < BYTES_ZERO and abs(head) < BYTES_ZERO:
        return text + " (no allocation)"
    if abs(base) < BYTES_ZERO:
        return text + " (new allocation)"
    pct = delta_pct if delta_pct is not None else (head / base - 1) * 100
    return text + f" ({signed(pct, 1)}%)"


def duration(seconds: float | None) -> str:
    """Wall-clock time for methodology lines: ``850 ms``, ``12.3 s``, ``4 min 05 s``."""
    if seconds is None or not math.isfinite(seconds):
        return MISSING
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def eta(seconds: float) -> str:
    """A progress line's estimate, whole seconds up: ``10s``, ``2m05s``, ``3h02m``.

    Shorter than :func:`duration` because it is rewritten on one line every step; a run of
    more than an hour needs no seconds.
    """
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


# ---------------------------------------------------------------------------- markdown


def md_cell(text: object) -> str:
    """One GitHub table cell: ``|`` escaped, line breaks as ``<br>``, so a parameter value
    holding either cannot split a row or end the table."""
    s = str(text).replace("\\", "\\\\").replace("|", "\\|")
    return s.replace("\r\n", "<br>").replace("\n", "<br>").replace("\r", "<br>")


def md_text(text: object) -> str:
    """Text outside a table (a list item, a footnote) kept on one line."""
    return " ".join(str(text).splitlines())


def markdown_table(
    headers: Sequence[str], rows: Iterable[Sequence[object]], align: Sequence[str] | None = None
) -> list[str]:
    """A GitHub-flavoured Markdown table as lines; ``align`` holds ``l``, ``r`` or ``c`` per
    column (default: left). Every cell, headers included, goes through :func:`md_cell`."""
    marks = {"l": ":---", "r": "---:", "c": ":---:", "": "---"}
    align = list(align) if align is not None else ["" for _ in headers]
    if len(align) != len(headers):
        raise ValueError("one alignment per column")
    lines = [
        "| " + " | ".join(md_cell(h) for h in headers) + " |",
        "|" + "|".join(marks[a] for a in align) + "|",
    ]
    for row in rows:
        cells = list(row)
        if len(cells) != len(headers):
            raise ValueError(f"row has {len(cells)} cells, the table {len(headers)} columns")
        lines.append("| " + " | ".join(md_cell(c) for c in cells) + " |")
    return lines

"""JMH ``-rf json`` files, globs and folders of rounds → ``Samples`` per key.

Every JMH version from 1.12 to 1.37 writes the same outline (a list of entries with
``benchmark``, ``mode``, ``params``, ``primaryMetric`` and ``secondaryMetrics``) but the
details drift: metric-name prefixes, ``"NaN"``/``"+INF"`` written as strings, SampleTime
results as histograms, secondary metrics whose ``rawData`` is shorter than the primary's or
absent. The reader absorbs all of that here so nothing downstream has to know JMH versions.
A file is one round; reading several files of one side appends their forks, which is how
interleaved rounds become one sample of forks.
"""

from __future__ import annotations

import glob
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from perfproof.errors import InputError, unreadable
from perfproof.jmh.gc_costs import gc_cost_samples
from perfproof.jmh.names import normalise_metric
from perfproof.jmh.units import BYTES_UNIT, canonical, direction_of
from perfproof.model import PRIMARY, BenchKey, JmhScore, Samples
from perfproof.model.documents import check_depth

_SPECIAL = {
    "nan": math.nan,
    "+inf": math.inf,
    "inf": math.inf,
    "infinity": math.inf,
    "+infinity": math.inf,
    "-inf": -math.inf,
    "-infinity": -math.inf,
}


class NotAMeasurement(ValueError):
    """A value that cannot have been measured (bytes/op below zero): the file is refused,
    never read as an effect or quietly skipped as an odd secondary metric. Times and rates
    at or below zero are refused where the comparison needs their logarithm."""


def to_float(value: Any) -> float:
    """A JMH number: a JSON number or one of the strings JMH writes for non-finite values."""
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        special = _SPECIAL.get(value.strip().lower())
        if special is not None:
            return special
        return float(value)
    raise ValueError(f"not a number: {value!r}")


def _natural_key(path: Path) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(path))]


def expand_spec(spec: str) -> list[Path]:
    """The files a side names: one file, every ``*.json`` in a folder, or a glob's matches."""
    path = Path(spec)
    if path.is_dir():
        # hidden files are not rounds: an interrupted JMH step leaves its ".NN-side.partial.json"
        found = (p for p in path.glob("*.json") if p.is_file() and not p.name.startswith("."))
        files = sorted(found, key=_natural_key)
        if not files:
            raise InputError(f"{spec}: folder contains no .json files")
        return files
    if path.exists():  # a file, or a pipe (<(zcat r.json.gz)) or a device, read like one
        return [path]
    if glob.has_magic(spec):
        files = sorted((Path(p) for p in glob.glob(spec) if Path(p).is_file()), key=_natural_key)
        if not files:
            raise InputError(f"{spec}: no file matches this pattern")
        return files
    raise InputError(f"{spec}: no such file or folder")


def load_side(spec: str) -> dict[BenchKey, Samples]:
    """All results of one side: a JMH JSON file, a glob, or a folder of JSON files (rounds)."""
    return read_results(expand_spec(spec))


def read_results(paths: Sequence[str | Path]) -> dict[BenchKey, Samples]:
    """Read JMH JSON files into one mapping; later files append forks to earlier keys.

    A fork seen twice (a round file copied, or linked into the folder) is refused: counted
    twice it would halve the spread between forks and turn ``inconclusive`` into a verdict.
    """
    merged: dict[BenchKey, Samples] = {}
    ledger = ForkLedger()
    for path in paths:
        for samples in read_file(path):
            _merge(merged, samples, str(path))
            ledger.add(samples, str(path))
    return merged


MIN_DISTINCT_VALUES = 3
"""A fork of at least this many iterations that are not all equal is a fingerprint: two
independent JVMs do not produce the same sequence of timings to the last digit. Shorter or
constant forks (single-shot, bytes/op) may repeat honestly and are not compared."""


class ForkLedger:
    """The primary-metric forks one side has read so far, to refuse a fork given twice."""

    def __init__(self) -> None:
        self._seen: dict[tuple[BenchKey, bytes], tuple[str, Samples]] = {}

    def add(self, samples: Samples, source: str) -> None:
        if samples.key.metric != PRIMARY:
            return
        for fork in samples.forks:
            if fork.size < MIN_DISTINCT_VALUES or bool(np.all(fork == fork[0])):
                continue
            fingerprint = (samples.key, np.ascontiguousarray(fork, dtype=float).tobytes())
            first = self._seen.get(fingerprint)
            if first is not None and (first[0] != source or first[1] is samples):
                where = "twice in it" if first[0] == source else f"also in {first[0]}"
                raise InputError(
                    f"{source}: {samples.key.label()} has a fork whose iterations are "
                    f"{where}: the same fork given twice (a copied or linked round file?); "
                    "each fork must be counted once"
                )
            # an entry listed twice in one file is refused by the comparison, naming it
            self._seen.setdefault(fingerprint, (source, samples))


def _merge(merged: dict[BenchKey, Samples], new: Samples, source: str) -> None:
    have = merged.get(new.key)
    if have is None:
        merged[new.key] = new
        return
    if have.unit != new.unit:
        raise InputError(
            f"{source}: {new.key.label()} is in {new.unit} but earlier files have {have.unit}"
        )
    have.extend(new)
    have.notes.extend(new.notes)


MAX_BYTES = 2**30
"""Largest JMH result file read: a 1,000-entry suite with histograms is a few hundred MB; a
larger file is not JMH output, and reading it would exhaust memory before saying so."""


def load_json(path: str | Path) -> Any:
    """Parse a file as JSON, turning every way it can fail into one line naming the file."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        size = 0  # a pipe has no size; a missing file is named below
    if size > MAX_BYTES:
        raise InputError(
            f"{path}: {size / 2**30:.1f} GiB is too large for a JMH result file "
            f"(at most {MAX_BYTES // 2**30} GiB)"
        )
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise unreadable(path, exc, "a JMH JSON file") from None
    if not text.strip():
        raise InputError(f"{path}: empty file, not JMH JSON output")
    check_depth(text, str(path))  # JMH output is 6 levels deep; 200,000 would recurse out
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()):
            raise InputError(
                f"{path}: truncated JSON (ends at line {exc.lineno}, column {exc.colno}); "
                "was the JMH run interrupted?"
            ) from None
        raise InputError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None


def read_file(path: str | Path) -> list[Samples]:
    """One JMH result file → one ``Samples`` per (entry, metric), in file order."""
    doc = load_json(path)
    if not isinstance(doc, list) or not all(_is_entry(e) for e in doc):
        raise InputError(
            f"{path}: not JMH JSON output (expected a list of results with "
            "'benchmark', 'mode' and 'primaryMetric', as written by -rf json)"
        )
    if not doc:
        raise InputError(f"{path}: empty JMH result list (no benchmark results in the file)")
    out: list[Samples] = []
    for index, entry in enumerate(doc):
        try:
            out.extend(_read_entry(entry, str(path)))
        except NotAMeasurement as exc:
            raise InputError(f"{path}: {exc}") from None
        except (ValueError, TypeError) as exc:
            name = entry.get("benchmark", f"#{index}")
            raise InputError(f"{path}: result {name}: malformed JMH data ({exc})") from None
    return out


def _is_entry(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("benchmark"), str)
        and isinstance(entry.get("mode"), str)
        and isinstance(entry.get("primaryMetric"), dict)
    )


def entry_key(entry: dict[str, Any]) -> BenchKey:
    """The key of a JMH entry's primary metric: benchmark, mode and sorted params."""
    params = entry.get("params") or {}
    if not isinstance(params, dict):
        raise ValueError("'params' is not an object")
    pairs = tuple(sorted((str(k), str(v)) for k, v in params.items()))
    return BenchKey(entry["benchmark"], entry["mode"], pairs, PRIMARY)


def _read_entry(entry: dict[str, Any], source: str) -> list[Samples]:
    key = entry_key(entry)
    out = [_read_metric(key, entry["primaryMetric"], source)]
    secondaries = entry.get("secondaryMetrics") or {}
    if not isinstance(secondaries, dict):
        raise ValueError("'secondaryMetrics' is not an object")
    for name, metric in secondaries.items():
        # a profiler's odd secondary result must not make the benchmark's own score unreadable
        try:
            if not isinstance(metric, dict):
                raise ValueError("not an object")
            out.append(_read_metric(key.with_metric(normalise_metric(name)), metric, source))
        except NotAMeasurement:
            raise
        except (ValueError, TypeError) as exc:
            out[0].notes.append(
                f"{source}: {key.label()}: secondary metric {name!r} skipped ({exc})"
            )
    out.extend(gc_cost_samples(key, entry, source))
    return out


def _read_metric(key: BenchKey, metric: dict[str, Any], source: str) -> Samples:
    unit, factor = canonical(str(metric.get("scoreUnit", "")))
    notes: list[str] = []
    raw: list[list[float] | np.ndarray]
    if "rawDataHistogram" in metric and metric["rawDataHistogram"] is not None:
        raw = [[_histogram_mean(it) for it in fork] for fork in metric["rawDataHistogram"]]
    elif "rawData" in metric and metric["rawData"] is not None:
        raw = [_floats(fork) for fork in metric["rawData"]]
    else:
        raw = [[to_float(metric.get("score", "NaN"))]]
        notes.append(f"{source}: {key.label()} has no rawData; JMH's score used as one value")
    forks: list[np.ndarray] = []
    dropped = 0
    for fork in raw:
        values = np.asarray(fork, dtype=float) * factor
        finite = values[np.isfinite(values)]
        dropped += int(values.size - finite.size)
        if finite.size:
            forks.append(finite)
    if dropped:
        notes.append(f"{source}: {key.label()}: {dropped} non-finite value(s) dropped")
    if unit == BYTES_UNIT and any(bool((f < 0).any()) for f in forks):
        low = min(float(f.min()) for f in forks)
        raise NotAMeasurement(
            f"{key.label()}: {low:g} B/op (bytes allocated per operation) is negative: "
            "not a measurement"
        )
    score = to_float(metric.get("score", "NaN")) * factor
    error = to_float(metric.get("scoreError", "NaN")) * factor
    return Samples(
        key=key,
        unit=unit,
        direction=direction_of(unit),
        forks=forks,
        jmh=[JmhScore(score, error, source)],
        sources=[source],
        notes=notes,
    )


def _floats(values: Any) -> list[float] | np.ndarray:
    """A fork's iteration values; numpy parses numbers and JMH's NaN/INF strings in one go.

    ``true`` is refused: numpy would read it as 1.0, a plausible time."""
    if not isinstance(values, list):
        raise ValueError(f"iterations are not a list: {values!r}")
    if any(isinstance(v, bool) for v in values):
        raise ValueError(f"not a number: {next(v for v in values if isinstance(v, bool))!r}")
    try:
        return np.asarray(values, dtype=float)
    except (ValueError, TypeError):
        return [to_float(v) for v in values]


def _histogram_mean(iteration: Any) -> float:
    """Mean of one SampleTime iteration given as ``[[value, count], ...]``."""
    pairs = np.asarray([[to_float(v), to_float(c)] for v, c in iteration], dtype=float)
    if pairs.size == 0:
        return math.nan
    values, counts = pairs[:, 0], pairs[:, 1]
    keep = np.isfinite(values) & (counts > 0)
    total = counts[keep].sum()
    if total <= 0:
        return math.nan
    return float((values[keep] * counts[keep]).sum() / total)

"""``perfproof.compare/1``: the comparisons of two sides, typed, with ``to_json``/``from_json``.

``compare --format json`` prints it, ``ab`` stores it as the run's ``results.json``, and
``report`` reads it back into the same :class:`~perfproof.model.Comparison` objects ``compare``
produced, so a report never guesses at keys. Reading checks every field it uses and names the
file and the field (``comparisons[3].base.estimate: expected a number``) when one is missing or
of the wrong type. Documents written before the family procedure existed (a ``holm`` switch, a
``p_holm`` per comparison) still read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NoReturn

from perfproof.errors import InputError
from perfproof.model import (
    SIDES,
    BenchKey,
    Comparison,
    Direction,
    Estimate,
    Side,
    Unmatched,
    Verdict,
)
from perfproof.model.bounds import RatioBounds
from perfproof.model.diagnostics import ComparisonMethod, Diagnostics, JmhScores
from perfproof.model.documents import check_document, json_safe, schema_id

NAME = "compare"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)


@dataclass
class CompareDocument:
    """Options, comparisons, keys not compared and input notes of one comparison run."""

    confidence: float
    threshold: float
    family: str
    metrics: list[str]
    comparisons: list[Comparison]
    unmatched: list[Unmatched] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields other writers add beside the comparison (``run_dir``), kept on a round trip."""
    row_extra: dict[BenchKey, dict[str, Any]] = field(default_factory=dict)
    """Fields other writers add to a comparison (``merge``: the ``machine`` that measured it)."""

    def machine(self, key: BenchKey) -> str:
        """The machine that measured ``key``, when the document says (merged shards)."""
        value = self.row_extra.get(key, {}).get("machine")
        return value if isinstance(value, str) else ""

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "schema": SCHEMA,
            "confidence": self.confidence,
            "threshold": self.threshold,
            "family": self.family,
            "holm": self.family == "holm",
            "metrics": list(self.metrics),
            "comparisons": [
                {**comparison_to_json(c), **self.row_extra.get(c.key, {})} for c in self.comparisons
            ],
            "unmatched": [
                {**_key_json(u.key), "side": u.side or "", "reason": u.reason}
                for u in self.unmatched
            ],
            "notes": list(self.notes),
            **self.extra,
        }
        safe: dict[str, Any] = json_safe(doc)
        return safe

    @classmethod
    def from_json(cls, doc: Any, source: str) -> CompareDocument:
        """Read and check a parsed document; every problem names ``source`` and the field."""
        doc = check_document(doc, source, NAME, MAJOR)
        r = _Reader(source)
        family = doc.get("family")
        if family is None:
            family = "holm" if doc.get("holm", True) else "none"
        comparisons = [
            comparison_from_json(c, r, f"comparisons[{i}]")
            for i, c in enumerate(r.array(doc, "comparisons", "comparisons"))
        ]
        row_extra = {
            c.key: extra
            for c, raw in zip(comparisons, doc["comparisons"], strict=True)
            if (extra := {k: v for k, v in raw.items() if k not in COMPARISON_FIELDS})
        }
        known = {
            "schema",
            "confidence",
            "threshold",
            "family",
            "holm",
            "metrics",
            "comparisons",
            "unmatched",
            "notes",
            "warnings",
        }
        return cls(
            confidence=r.number(doc, "confidence", "confidence"),
            threshold=r.number(doc, "threshold", "threshold"),
            family=r.text({"family": family}, "family", "family"),
            metrics=[
                r.text({"m": m}, "m", f"metrics[{i}]")
                for i, m in enumerate(r.array(doc, "metrics", "metrics", default=[]))
            ],
            comparisons=comparisons,
            unmatched=[
                _unmatched_from_json(u, r, f"unmatched[{i}]")
                for i, u in enumerate(r.array(doc, "unmatched", "unmatched", default=[]))
            ],
            notes=[str(n) for n in r.array(doc, "notes", "notes", default=[])]
            + [str(w) for w in r.array(doc, "warnings", "warnings", default=[])],
            extra={k: v for k, v in doc.items() if k not in known},
            row_extra=row_extra,
        )


COMPARISON_FIELDS = frozenset(
    {
        "benchmark", "mode", "params", "metric", "unit", "direction", "method", "base", "head",
        "ratio", "ratio_ci", "interval_confidence", "delta_pct", "delta_ci_pct", "verdict",
        "p_value", "p_adjusted", "family", "p_holm", "mde_pct", "forks_needed", "jmh",
        "warnings", "diagnostics",
    }
)  # fmt: skip
"""What :func:`comparison_to_json` writes; anything else is another writer's and is kept."""


def _key_json(key: BenchKey) -> dict[str, Any]:
    return {
        "benchmark": key.benchmark,
        "mode": key.mode,
        "params": key.params_dict,
        "metric": key.metric,
    }


def comparison_to_json(c: Comparison) -> dict[str, Any]:
    """One comparison as a JSON-ready dict (the elements of ``comparisons``)."""
    doc = {
        **_key_json(c.key),
        "unit": c.unit,
        "direction": str(c.direction),
        "method": str(c.method) if c.method is not None else "",
        "base": _estimate_json(c.base),
        "head": _estimate_json(c.head),
        "ratio": c.ratio,
        "ratio_ci": list(c.ratio_ci),
        "interval_confidence": c.interval_confidence,
        "delta_pct": c.delta_pct,
        "delta_ci_pct": list(c.delta_ci_pct),
        "verdict": str(c.verdict),
        "p_value": c.p_value,
        "p_adjusted": c.p_adjusted,
        "family": c.family,
        "p_holm": c.p_holm,
        "mde_pct": c.mde_pct,
        "forks_needed": c.forks_needed,
        "jmh": c.jmh.to_json() if c.jmh is not None else None,
        "warnings": list(c.warnings),
        "diagnostics": c.diagnostics.to_json(),
    }
    plain: dict[str, Any] = _plain(doc)
    safe: dict[str, Any] = json_safe(plain)
    return safe


def _estimate_json(e: Estimate) -> dict[str, Any]:
    return {"estimate": e.value, "ci": list(e.ci), "forks": e.forks, "iterations": e.iterations}


def _plain(value: Any) -> Any:
    """numpy scalars → Python numbers, tuples → lists, keys → strings, at any depth."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        return value.item()
    return value


def comparison_from_json(c: Any, r: _Reader, where: str) -> Comparison:
    c = r.obj(c, where)
    key = _key_from_json(c, r, where)
    ratio = r.number(c, "ratio", f"{where}.ratio", nullable=True)
    ratio_ci = RatioBounds.read(*r.pair(c, "ratio_ci", f"{where}.ratio_ci"))
    delta_ci = r.pair(c, "delta_ci_pct", f"{where}.delta_ci_pct", default=None)
    if delta_ci is None:
        delta_ci = ratio_ci.percent()
    delta = r.number(c, "delta_pct", f"{where}.delta_pct", nullable=True, default=None)
    p_holm = r.number(c, "p_holm", f"{where}.p_holm", nullable=True, default=None)
    p_value = r.number(c, "p_value", f"{where}.p_value", nullable=True, default=None)
    adjusted = r.number(c, "p_adjusted", f"{where}.p_adjusted", nullable=True, default=None)
    forks_needed = c.get("forks_needed")
    if forks_needed is not None and (not isinstance(forks_needed, int) or forks_needed < 0):
        r.fail(f"{where}.forks_needed", "a whole number", forks_needed)
    return Comparison(
        key=key,
        unit=r.text(c, "unit", f"{where}.unit", default=""),
        direction=r.choice(c, "direction", f"{where}.direction", Direction, Direction.LOWER),
        base=_estimate_from_json(c.get("base"), r, f"{where}.base"),
        head=_estimate_from_json(c.get("head"), r, f"{where}.head"),
        ratio=ratio,
        ratio_ci=ratio_ci,
        delta_pct=delta if not math.isnan(delta) else (ratio - 1) * 100,
        delta_ci_pct=delta_ci,
        verdict=r.choice(c, "verdict", f"{where}.verdict", Verdict, None),
        p_value=p_value,
        p_holm=None if math.isnan(p_holm) else p_holm,
        p_adjusted=adjusted
        if not math.isnan(adjusted)
        else (p_holm if not math.isnan(p_holm) else p_value),
        family=r.text(c, "family", f"{where}.family", default=""),
        interval_confidence=_optional(
            r.number(
                c,
                "interval_confidence",
                f"{where}.interval_confidence",
                nullable=True,
                default=None,
            )
        ),
        mde_pct=_optional(r.number(c, "mde_pct", f"{where}.mde_pct", nullable=True, default=None)),
        forks_needed=forks_needed,
        method=r.choice(c, "method", f"{where}.method", ComparisonMethod, None)
        if r.text(c, "method", f"{where}.method", default="")
        else None,
        warnings=[str(w) for w in r.array(c, "warnings", f"{where}.warnings", default=[])],
        diagnostics=Diagnostics.from_json(r.obj(c.get("diagnostics", {}), f"{where}.diagnostics")),
        jmh=_jmh_from_json(r.obj(c.get("jmh") or {}, f"{where}.jmh")),
    )


def _jmh_from_json(doc: dict[str, Any]) -> JmhScores | None:
    return JmhScores.from_json(doc) if doc else None


def _optional(x: float) -> float | None:
    return None if math.isnan(x) else x


def _key_from_json(c: dict[str, Any], r: _Reader, where: str) -> BenchKey:
    params = c.get("params") or {}
    if isinstance(params, list):  # [[name, value], …] from older writers
        try:
            params = {str(k): str(v) for k, v in params}
        except (TypeError, ValueError):
            r.fail(f"{where}.params", "an object of @Param values", params)
    if not isinstance(params, dict):
        r.fail(f"{where}.params", "an object of @Param values", params)
    return BenchKey(
        r.text(c, "benchmark", f"{where}.benchmark"),
        r.text(c, "mode", f"{where}.mode"),
        tuple(sorted((str(k), str(v)) for k, v in dict(params).items())),
        r.text(c, "metric", f"{where}.metric", default="primary") or "primary",
    )


def _estimate_from_json(e: Any, r: _Reader, where: str) -> Estimate:
    e = r.obj(e, where)
    value = e.get("estimate", e.get("value"))
    value = r.number({"v": value}, "v", f"{where}.estimate", nullable=True)
    ci = r.pair(e, "ci", f"{where}.ci", default=(math.nan, math.nan))
    forks = e.get("forks", 0)
    iterations = e.get("iterations", 0)
    for name, n in (("forks", forks), ("iterations", iterations)):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            r.fail(f"{where}.{name}", "a whole number", n)
    return Estimate(value, ci, forks, iterations)


def _unmatched_from_json(u: Any, r: _Reader, where: str) -> Unmatched:
    if isinstance(u, str):  # older writers listed labels only
        return Unmatched(BenchKey(u, ""), None, "")
    u = r.obj(u, where)
    key = _key_from_json(u, r, where)
    side = r.text(u, "side", f"{where}.side", default="")
    if side and side not in SIDES:
        r.fail(f"{where}.side", "base or head", side)
    return Unmatched(
        key, Side(side) if side else None, r.text(u, "reason", f"{where}.reason", default="")
    )


_MISSING = object()


class _Reader:
    """Field access that names the file and the field on every failure."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, expected: str, got: Any) -> NoReturn:
        shown = repr(got)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise InputError(f"{self.source}: {where}: expected {expected}, got {shown}")

    def _get(self, d: dict[str, Any], key: str, where: str, default: Any) -> Any:
        value = d.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise InputError(f"{self.source}: {where}: missing")
            return default
        return value

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if isinstance(value, dict):
            return value
        self.fail(where, "an object", value)

    def number(
        self,
        d: dict[str, Any],
        key: str,
        where: str,
        *,
        nullable: bool = False,
        default: Any = _MISSING,
    ) -> float:
        value = self._get(d, key, where, default)
        if value is None and nullable:
            return math.nan
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(where, "a number", value)
        return float(value)

    def text(self, d: dict[str, Any], key: str, where: str, default: Any = _MISSING) -> str:
        value = self._get(d, key, where, default)
        if isinstance(value, str):
            return value
        self.fail(where, "a string", value)

    def array(self, d: dict[str, Any], key: str, where: str, default: Any = _MISSING) -> list[Any]:
        value = self._get(d, key, where, default)
        if value is None and default is not _MISSING:
            return list(default)
        if isinstance(value, list):
            return value
        self.fail(where, "a list", value)

    def pair(
        self, d: dict[str, Any], key: str, where: str, default: Any = _MISSING
    ) -> tuple[float, float]:
        value = self._get(d, key, where, default)
        if value is default and default is not _MISSING:
            given: tuple[float, float] = default  # the caller's own default, as given
            return given
        if not isinstance(value, list) or len(value) != 2:
            self.fail(where, "a list of two numbers", value)
        lo = self.number({"v": value[0]}, "v", f"{where}[0]", nullable=True)
        hi = self.number({"v": value[1]}, "v", f"{where}[1]", nullable=True)
        return (lo, hi)

    def choice(self, d: dict[str, Any], key: str, where: str, kind: Any, default: Any) -> Any:
        value = self._get(d, key, where, _MISSING if default is None else str(default))
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(str(v) for v in kind)
            self.fail(where, f"one of {allowed}", value)

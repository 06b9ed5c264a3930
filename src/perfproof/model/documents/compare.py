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

from perfproof.errors import InputError
from perfproof.model import (
    BenchKey,
    Comparison,
    Estimate,
    Side,
    Unmatched,
)
from perfproof.model.bounds import RatioBounds
from perfproof.model.diagnostics import ComparisonMethod, Diagnostics, JmhScores
from perfproof.model.documents import check_document, json_safe, schema_id
from perfproof.model.documents.codec import ValidationError
from perfproof.model.documents.compare_wire import (
    CompareDoc,
    ComparisonDoc,
    EstimateDoc,
    KeyDoc,
    UnmatchedDoc,
    problem,
)

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
    extra: dict[str, object] = field(default_factory=dict)
    """Fields other writers add beside the comparison (``run_dir``), kept on a round trip."""
    row_extra: dict[BenchKey, dict[str, object]] = field(default_factory=dict)
    """Fields other writers add to a comparison (``merge``: the ``machine`` that measured it)."""

    def machine(self, key: BenchKey) -> str:
        """The machine that measured ``key``, when the document says (merged shards)."""
        value = self.row_extra.get(key, {}).get("machine")
        return value if isinstance(value, str) else ""

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {
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
        safe: dict[str, object] = dict(json_safe(doc))
        return safe

    @classmethod
    def from_json(cls, doc: object, source: str) -> CompareDocument:
        """Read and check a parsed document; every problem names ``source`` and the field."""
        doc = check_document(doc, source, NAME, MAJOR)
        try:
            wire = CompareDoc.model_validate(doc)
        except ValidationError as exc:
            raise InputError(problem(exc, source)) from None
        family = wire.family
        if family is None:
            family = "holm" if wire.holm in (True, None) else "none"
        comparisons = [_comparison(c) for c in wire.comparisons]
        return cls(
            confidence=wire.confidence,
            threshold=wire.threshold,
            family=family,
            metrics=list(wire.metrics),
            comparisons=comparisons,
            unmatched=[_unmatched(u) for u in wire.unmatched],
            notes=[str(n) for n in wire.notes] + [str(w) for w in wire.warnings],
            extra=dict(wire.model_extra or {}),
            row_extra={
                c.key: dict(raw.model_extra)
                for c, raw in zip(comparisons, wire.comparisons, strict=True)
                if raw.model_extra
            },
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


def _key_json(key: BenchKey) -> dict[str, object]:
    return {
        "benchmark": key.benchmark,
        "mode": key.mode,
        "params": key.params_dict,
        "metric": key.metric,
    }


def comparison_to_json(c: Comparison) -> dict[str, object]:
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
    safe: dict[str, object] = dict(json_safe({k: _plain(v) for k, v in doc.items()}))
    return safe


def _estimate_json(e: Estimate) -> dict[str, object]:
    return {"estimate": e.value, "ci": list(e.ci), "forks": e.forks, "iterations": e.iterations}


def _plain(value: object) -> object:
    """numpy scalars → Python numbers, tuples → lists, keys → strings, at any depth."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    item = getattr(value, "item", None)
    if item is not None and not isinstance(value, str | bytes):
        return item()
    return value


def _nan(x: float | None) -> float:
    return math.nan if x is None else x


def _interval(pair: tuple[float | None, float | None]) -> tuple[float, float]:
    return (_nan(pair[0]), _nan(pair[1]))


def _key(row: KeyDoc) -> BenchKey:
    return BenchKey(
        row.benchmark, row.mode, tuple(sorted(row.params.items())), row.metric or "primary"
    )


def _comparison(c: ComparisonDoc) -> Comparison:
    """One comparison from its checked row, older writers' fields put where they are now."""
    ratio = _nan(c.ratio)
    ratio_ci = RatioBounds.read(*_interval(c.ratio_ci))
    p_value = _nan(c.p_value)
    adjusted = (
        c.p_adjusted
        if c.p_adjusted is not None
        else (c.p_holm if c.p_holm is not None else p_value)
    )
    return Comparison(
        key=_key(c),
        unit=c.unit,
        direction=c.direction,
        base=_estimate(c.base),
        head=_estimate(c.head),
        ratio=ratio,
        ratio_ci=ratio_ci,
        delta_pct=c.delta_pct if c.delta_pct is not None else (ratio - 1) * 100,
        delta_ci_pct=_interval(c.delta_ci_pct)
        if c.delta_ci_pct is not None
        else ratio_ci.percent(),
        verdict=c.verdict,
        p_value=p_value,
        p_holm=c.p_holm,
        p_adjusted=adjusted,
        family=c.family,
        interval_confidence=c.interval_confidence,
        mde_pct=c.mde_pct,
        forks_needed=c.forks_needed,
        method=ComparisonMethod(c.method) if c.method else None,
        warnings=[str(w) for w in c.warnings],
        diagnostics=Diagnostics.from_json(c.diagnostics),
        jmh=JmhScores.from_json(c.jmh) if c.jmh else None,
    )


def _estimate(e: EstimateDoc) -> Estimate:
    value = e.estimate if e.estimate is not None else e.value
    ci = _interval(e.ci) if e.ci is not None else (math.nan, math.nan)
    return Estimate(_nan(value), ci, e.forks, e.iterations)


def _unmatched(u: UnmatchedDoc) -> Unmatched:
    return Unmatched(_key(u), Side(u.side) if u.side else None, u.reason)

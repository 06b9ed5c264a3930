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
from perfproof.model.documents.codec import ValidationError, by_name
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
            "unmatched": [_unmatched_json(u) for u in self.unmatched],
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


def comparison_row(c: Comparison) -> ComparisonDoc:
    """One comparison as ``results.json`` holds it: the typed row its reader checks, filled by
    name from the comparison and its key; the fields named otherwise given beside."""
    fields = {
        **by_name(ComparisonDoc, c.key, c),
        "params": c.key.params_dict,
        "method": str(c.method) if c.method is not None else "",
        "base": _estimate_json(c.base),
        "head": _estimate_json(c.head),
        "jmh": c.jmh.to_json() if c.jmh is not None else None,
        "diagnostics": c.diagnostics.to_json(),
    }
    return ComparisonDoc.model_validate(_plain(fields))


def comparison_to_json(c: Comparison) -> dict[str, object]:
    """One comparison as a JSON-ready dict (the elements of ``comparisons``)."""
    return _written(comparison_row(c))


def _unmatched_json(u: Unmatched) -> dict[str, object]:
    fields = {**by_name(UnmatchedDoc, u.key, u), "params": u.key.params_dict, "side": u.side or ""}
    return _written(UnmatchedDoc.model_validate(fields))


_KEY_FIRST = ("benchmark", "mode", "params", "metric")
"""How a row has always been written: its key's fields first, in this order (the row type
declares ``params`` first so that a row of an older writer's spelling names it first when
wrong)."""


def _written(row: KeyDoc) -> dict[str, object]:
    """A typed row as written: every field it holds (a null too), non-finite numbers null."""
    doc = row.model_dump(mode="json")
    safe: dict[str, object] = dict(json_safe({k: doc.pop(k) for k in _KEY_FIRST} | doc))
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

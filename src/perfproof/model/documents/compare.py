"""``perfproof.compare/1``: the comparisons of two sides, typed, with ``to_json``/``from_json``.

``compare --format json`` prints it, ``ab`` stores it as the run's ``results.json``, and
``report`` reads it back into the same :class:`~perfproof.model.Comparison` objects ``compare``
produced, so a report never guesses at keys. Reading checks every field it uses and names the
file and the field (``comparisons[3].base.estimate: expected a number``) when one is missing or
of the wrong type. Documents written before the family procedure existed (a ``holm`` switch, a
``p_holm`` per comparison) still read: the row types of
:mod:`~perfproof.model.documents.compare_wire` put older writers' fields where they are now, and
the codec reads and writes the document; here the checked rows become domain values.
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
        """The document as written: its typed form, dumped by the codec (non-finite numbers
        null; ``holm`` kept for readers older than the family procedure)."""
        wire = CompareDoc.model_validate(
            {
                **by_name(CompareDoc, self),
                "schema": SCHEMA,
                "holm": self.family == "holm",
                "comparisons": [
                    comparison_row(c, self.row_extra.get(c.key)) for c in self.comparisons
                ],
                "unmatched": [unmatched_row(u) for u in self.unmatched],
                **self.extra,
            }
        )
        return dict(json_safe(wire.model_dump(mode="json", by_alias=True, exclude={"warnings"})))

    @classmethod
    def from_json(cls, doc: object, source: str) -> CompareDocument:
        """Read and check a parsed document; every problem names ``source`` and the field."""
        doc = check_document(doc, source, NAME, MAJOR)
        try:
            wire = CompareDoc.model_validate(doc)
        except ValidationError as exc:
            raise InputError(problem(exc, source)) from None
        comparisons = [_comparison(c) for c in wire.comparisons]
        return cls(
            confidence=wire.confidence,
            threshold=wire.threshold,
            family=wire.family or "",
            metrics=wire.metrics,
            comparisons=comparisons,
            unmatched=[_unmatched(u) for u in wire.unmatched],
            notes=[str(n) for n in wire.notes],
            extra=dict(wire.model_extra or {}),
            row_extra={
                c.key: dict(row.model_extra)
                for c, row in zip(comparisons, wire.comparisons, strict=True)
                if row.model_extra
            },
        )


def comparison_row(c: Comparison, extra: dict[str, object] | None = None) -> ComparisonDoc:
    """One comparison as ``results.json`` holds it: the typed row its reader checks, filled by
    name from the comparison and its key; the fields named otherwise given beside, and what
    another writer added to it (``extra``)."""
    fields = {
        **by_name(ComparisonDoc, c.key, c),
        "params": c.key.params_dict,
        "method": str(c.method) if c.method is not None else "",
        "base": _estimate_json(c.base),
        "head": _estimate_json(c.head),
        "jmh": c.jmh.to_json() if c.jmh is not None else None,
        "diagnostics": c.diagnostics.to_json(),
        **(extra or {}),
    }
    return ComparisonDoc.model_validate(_plain(fields))


def comparison_to_json(c: Comparison) -> dict[str, object]:
    """One comparison as a JSON-ready dict (the elements of ``comparisons``)."""
    return dict(json_safe(comparison_row(c).model_dump(mode="json")))


def unmatched_row(u: Unmatched) -> UnmatchedDoc:
    """A key not compared, as the document lists it."""
    fields = {**by_name(UnmatchedDoc, u.key, u), "params": u.key.params_dict, "side": u.side or ""}
    return UnmatchedDoc.model_validate(fields)


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


def _comparison(c: ComparisonDoc) -> Comparison:
    """One comparison from its checked row, field for field: the row type has already put
    older writers' fields where they are now; here unknown numbers become NaN and the nested
    values their types."""
    return Comparison(
        key=c.key,
        unit=c.unit,
        direction=c.direction,
        base=_estimate(c.base),
        head=_estimate(c.head),
        ratio=_nan(c.ratio),
        ratio_ci=RatioBounds.read(*c.ratio_ci),
        delta_pct=_nan(c.delta_pct),
        delta_ci_pct=_interval(c.delta_ci_pct or (None, None)),
        verdict=c.verdict,
        p_value=_nan(c.p_value),
        p_holm=c.p_holm,
        p_adjusted=_nan(c.p_adjusted),
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
    ci = _interval(e.ci) if e.ci is not None else (math.nan, math.nan)
    return Estimate(_nan(e.estimate), ci, e.forks, e.iterations)


def _unmatched(u: UnmatchedDoc) -> Unmatched:
    return Unmatched(u.key, Side(u.side) if u.side else None, u.reason)

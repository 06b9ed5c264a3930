"""``perfproof.compare/1``: the comparisons of two sides, a codec document.

``compare --format json`` prints it, ``ab`` stores it as the run's ``results.json``, and
``report`` reads it back into the same :class:`~perfproof.model.Comparison` objects ``compare``
produced, so a report never guesses at keys. :meth:`CompareDocument.read` (the codec's one
reader) checks the schema and every field in one pass, each row's diagnostics and JMH scores
too, and names the file and the field (``comparisons[3].base.estimate: expected a number``) when
one is missing or of the wrong type; ``dump()`` writes it (non-finite numbers null; ``holm``
kept for readers older than the family procedure). Documents written before the family
procedure existed (a ``holm`` switch, a ``p_holm`` per comparison) still read: a row is checked
as :class:`~perfproof.model.documents.compare_wire.ComparisonDoc`, which puts older writers'
fields where they are now, and then read by name into the domain type, whose annotations turn
a null into NaN.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    BeforeValidator,
    Field,
    JsonValue,
    PlainSerializer,
    PlainValidator,
    field_serializer,
    model_validator,
)

from perfproof.errors import InputError
from perfproof.model import BenchKey, Comparison, Estimate, Side, Unmatched
from perfproof.model.diagnostics import ByValue
from perfproof.model.documents import schema_id
from perfproof.model.documents.codec import (
    Document,
    ValidationError,
    absent,
    by_name,
    decode_value,
    encode,
)
from perfproof.model.documents.compare_wire import ComparisonDoc, UnmatchedDoc, labels, problem
from perfproof.model.documents.settings import WithSettings
from perfproof.model.enums import Family

NAME = "compare"
MAJOR = 1
SCHEMA = schema_id(NAME, MAJOR)


def _comparison(value: object) -> Comparison:
    """A row as the domain value: checked as the row type (older writers' spellings read),
    then read by name (the row's own fields and what another writer added, in one pass:
    its diagnostics and JMH scores read by their types)."""
    if isinstance(value, Comparison):
        return value
    row = ComparisonDoc.model_validate(value)
    fields = {**dict(row), "key": row.key, "base": dict(row.base), "head": dict(row.head)}
    return decode_value(Comparison, {**fields, "extra": dict(row.model_extra or {})})


def _unmatched(value: object) -> Unmatched:
    if isinstance(value, Unmatched):
        return value
    u = UnmatchedDoc.model_validate(value)
    return Unmatched(u.key, Side(u.side) if u.side else None, u.reason)


def _text(value: object) -> str:
    return value if isinstance(value, str) else str(value)


def comparison_row(c: Comparison) -> ComparisonDoc:
    """One comparison as ``results.json`` holds it: the typed row its reader checks, filled by
    name from the comparison and its key; the fields named otherwise given beside, and what
    another writer added to it (``extra``)."""
    fields = {
        **by_name(ComparisonDoc, c.key, c),
        "params": c.key.params_dict,
        "method": str(c.method) if c.method is not None else "",
        "base": _estimate_json(c.base),
        "head": _estimate_json(c.head),
        "jmh": encode(c.jmh) if c.jmh is not None else None,
        "diagnostics": encode(c.diagnostics),
        **c.extra,
    }
    return ComparisonDoc.model_validate(_plain(fields))


def unmatched_row(u: Unmatched) -> UnmatchedDoc:
    """A key not compared, as the document lists it."""
    fields = {**by_name(UnmatchedDoc, u.key, u), "params": u.key.params_dict, "side": u.side or ""}
    return UnmatchedDoc.model_validate(fields)


Row = Annotated[
    Comparison,
    PlainValidator(_comparison),
    PlainSerializer(comparison_row, return_type=ComparisonDoc),
]
"""A comparison, read from and written as its row."""

UnmatchedRow = Annotated[
    Unmatched, PlainValidator(_unmatched), PlainSerializer(unmatched_row, return_type=UnmatchedDoc)
]


class GeoMeanDoc(Document):
    """benchstat's geomean row of one metric and unit, as ``compare --format json`` and
    ``report --format json`` carry it: both sides' geometric means in the canonical unit,
    their ratio and Δ%."""

    metric: str
    unit: str
    keys: int
    """Keys with a value above zero on both sides: those the means are taken over."""
    left_out: int
    """Keys of the metric and unit with a zero, negative or missing side."""
    base: float
    """The baseline's geometric mean, in the canonical unit (ns/op, ops/s, B/op)."""
    head: float
    """The feature's, in the same unit."""
    ratio: float
    """``head / base``, the geometric mean of the keys' ratios."""
    delta_pct: float


class CompareDocument(WithSettings):
    """Options, comparisons, keys not compared and input notes of one comparison run; fields
    other writers add beside the comparison (``run_dir``) are kept on a round trip."""

    versioned_as: ClassVar[tuple[str, int] | None] = (NAME, MAJOR)
    nulls_written: ClassVar[bool] = True
    finite_only: ClassVar[bool] = True

    schema_: str = Field(SCHEMA, alias="schema")
    confidence: float
    threshold: float
    family: Annotated[Family, ByValue] | Literal[""] = ""
    """The run's family procedure; ``""`` only until an older writer's ``holm`` switch says."""
    holm: bool | None = None
    """Written for readers older than the family procedure: whether it is Holm's."""
    metrics: list[str] = Field(default_factory=list)
    comparisons: list[Row]
    unmatched: Annotated[list[UnmatchedRow], BeforeValidator(labels)] = Field(default_factory=list)
    notes: list[Annotated[str, PlainValidator(_text)]] = Field(default_factory=list)
    warnings: list[JsonValue] = Field(default_factory=list, exclude=True)
    """What older writers called ``notes``: read into them, never written."""
    geomean: list[GeoMeanDoc] | None = Field(None, exclude_if=absent)
    """The geomean rows ``compare --format json`` prints over its comparisons; a run's
    ``results.json`` holds none and writes none (``report`` writes them over its tables)."""

    @model_validator(mode="after")
    def _as_written_now(self) -> CompareDocument:
        """The family procedure of an older writer's ``holm`` switch (Holm unless switched
        off), and its ``warnings`` among the notes."""
        if "family" not in self.model_fields_set:
            self.family = Family.HOLM if self.holm in (True, None) else Family.NONE
        if self.warnings:
            self.notes = [*self.notes, *(_text(w) for w in self.warnings)]
            self.warnings = []
        return self

    @field_serializer("holm")
    def _holm(self, _: bool | None) -> bool:
        return self.family is Family.HOLM

    @classmethod
    def refusal(cls, exc: ValidationError, source: str) -> Exception:
        """``results.json: comparisons[3].base.forks: expected a whole number, got '3'``."""
        return InputError(problem(exc, source))

    def machines(self) -> dict[BenchKey, str]:
        """The machine that measured each key, when the document says (merged shards)."""
        found = {c.key: c.extra.get("machine") for c in self.comparisons}
        return {k: v for k, v in found.items() if isinstance(v, str)}


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

"""``perfproof.compare/1``'s rows as they are written: the shape the codec checks each row of
a ``results.json`` against before :mod:`perfproof.model.documents.compare` reads it into a
comparison (and the rows a history record and a prove bundle keep).

Every field a reader uses has its type here, so a hand edit is named by its path
(``comparisons[3].base.forks: expected a whole number, got '3'``). Older writers' spellings
still read: an estimate's ``value`` (now ``estimate``), @Param values as ``[name, value]``
pairs, unmatched keys listed by label alone, ``holm`` instead of ``family``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import (
    AliasChoices,
    BeforeValidator,
    Field,
    JsonValue,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from perfproof.errors import InputError
from perfproof.model import PRIMARY, BenchKey
from perfproof.model.bounds import RatioBounds
from perfproof.model.documents.codec import Document, Kept, ValidationError, shape_problem
from perfproof.model.enums import DecidedFamily, Direction, Verdict


def _pair(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    if not isinstance(value, list) or len(value) != 2:
        raise PydanticCustomError("pair", "a list of two numbers")
    return handler(value)


Pair = Annotated[tuple[float | None, float | None], WrapValidator(_pair)]
"""An interval ``[low, high]``; null ends are unknown (NaN once read)."""


def _params(value: object) -> object:
    """``[[name, value], …]`` from older writers: the same @Param values as an object."""
    if value is None:
        return {}
    if isinstance(value, list):
        if not all(isinstance(p, list | tuple) and len(p) == 2 for p in value):
            raise PydanticCustomError("params", "an object of @Param values")
        value = {str(k): v for k, v in value}
    if not isinstance(value, dict):
        raise PydanticCustomError("params", "an object of @Param values")
    return {str(k): str(v) for k, v in value.items()}


Params = Annotated[dict[str, str], BeforeValidator(_params)]


def _none_is_empty(value: object) -> object:
    return [] if value is None else value


def _side(value: object) -> object:
    if value not in ("", "base", "head"):
        raise PydanticCustomError("side", "base or head")
    return value


Listed = BeforeValidator(_none_is_empty)
"""A list a writer may have left null: read as empty."""


class EstimateDoc(Kept):
    """One side's estimate: the mean of fork means, its interval, forks and iterations."""

    estimate: float | None = Field(None, validation_alias=AliasChoices("estimate", "value"))
    """Older writers called it ``value``."""
    ci: Pair | None = Field(None, strict=False)
    forks: int = Field(0, ge=0)
    iterations: int = Field(0, ge=0)


class KeyDoc(Kept):
    """Which benchmark entry and metric a row is about: its key's fields, written first."""

    written_first = ("benchmark", "mode", "params", "metric")
    params: Params = Field(default_factory=dict)
    """Declared first: the field older writers spelled otherwise is named first when wrong."""
    benchmark: str
    mode: str
    metric: str | None = None

    @property
    def key(self) -> BenchKey:
        """The key the row is about (no metric: the primary score)."""
        metric = self.metric or PRIMARY
        return BenchKey(self.benchmark, self.mode, tuple(sorted(self.params.items())), metric)


class ComparisonDoc(KeyDoc):
    """One element of ``comparisons`` (other writers' fields, such as ``machine``, kept)."""

    unit: str = ""
    direction: Direction = Field(Direction.LOWER, strict=False)
    method: str = ""
    base: EstimateDoc
    head: EstimateDoc
    ratio: float | None
    ratio_ci: Pair = Field(strict=False)
    interval_confidence: float | None = None
    delta_pct: float | None = None
    delta_ci_pct: Pair | None = Field(None, strict=False)
    verdict: Verdict = Field(strict=False)
    p_value: float | None = None
    p_adjusted: float | None = None
    family: DecidedFamily = ""
    p_holm: float | None = None
    mde_pct: float | None = None
    forks_needed: int | None = Field(None, ge=0)
    jmh: dict[str, JsonValue] | None = None
    """JMH's own scores, read leniently as ``JmhScores`` (a field of another shape kept)."""
    warnings: Annotated[list[JsonValue], Listed] = Field(default_factory=list)
    diagnostics: dict[str, JsonValue] = Field(default_factory=dict)
    """Read leniently as ``Diagnostics``: a field of another shape is kept as read."""

    @model_validator(mode="after")
    def _as_written_now(self) -> ComparisonDoc:
        """What older writers left out, from what they wrote: the adjusted p-value (Holm's, or
        none adjusted), the change in percent and its interval (from the ratio's)."""
        if self.p_adjusted is None:
            self.p_adjusted = self.p_holm if self.p_holm is not None else self.p_value
        if self.delta_pct is None and self.ratio is not None:
            self.delta_pct = (self.ratio - 1) * 100
        if self.delta_ci_pct is None:
            self.delta_ci_pct = RatioBounds.read(*self.ratio_ci).percent()
        return self


class UnmatchedDoc(KeyDoc):
    """A key present on one side only (or unusable)."""

    side: Annotated[str, BeforeValidator(_side)] = ""
    reason: str = ""


def labels(value: object) -> object:
    """Older writers listed unmatched keys by label alone."""
    if isinstance(value, list):
        return [{"benchmark": v, "mode": ""} if isinstance(v, str) else v
                for v in value]  # fmt: skip
    return value


_WORDS = {"a JSON list": "a list", "a JSON object": "an object"}


def problem(exc: ValidationError, source: str) -> str:
    """``results.json: comparisons[3].base.forks: expected a whole number, got '3'``."""
    path, what, value = shape_problem(exc, words=lambda w: _WORDS.get(w, w))
    if what == "missing":
        return f"{source}: {path}: missing"
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"{source}: {path}: expected {what}, got {shown}"


class _ComparisonRows(Document):
    """The ``comparisons`` of a compare document on their own (what a history record keeps)."""

    comparisons: list[ComparisonDoc]


def comparison_rows(rows: object, source: str) -> list[ComparisonDoc]:
    """The ``comparisons`` of a compare document, typed; a wrong field is bad input naming
    ``source`` and the field's path (``comparisons[3].verdict``)."""
    try:
        return _ComparisonRows.model_validate({"comparisons": rows or []}).comparisons
    except ValidationError as exc:
        raise InputError(problem(exc, source)) from None

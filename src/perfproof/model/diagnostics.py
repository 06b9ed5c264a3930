"""What a comparison says about its own data, typed: the method, the notes, power, sequential.

``compare/`` fills these while it judges a key and the renderers read them by field, so a
misspelt key is a type error rather than a silently empty tag. ``results.json`` carries them
under ``diagnostics`` with the same names as before they were typed; reading is lenient (a
field of an unexpected shape from another writer is kept as it was, under ``extra``) because a
renderer can do without any one of them. The codec (pydantic) reads and writes each field from
its type, inside the comparison's row; what is perfproof's own is declared on the types: that
leniency (:func:`_lenient`, a wrap validator) and which fields are left out (a wrap serializer).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    JsonValue,
    SerializerFunctionWrapHandler,
    Strict,
    StrictBool,
    StrictFloat,
    StrictInt,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapSerializer,
    model_serializer,
    model_validator,
    with_config,
)

from perfproof.model.enums import Direction, Side, Verdict

AS_WRITTEN = ConfigDict(allow_inf_nan=False)
"""A number no file can hold (NaN, infinity) is of another shape; each number and flag is
read strictly by its type (``StrictInt``: ``"3"`` is no count, ``true`` no number), an enum by
its value and a block from an object, as JSON spells them."""

EXACT_FIELDS = ConfigDict(extra="forbid", allow_inf_nan=False)
"""A block read with exactly its own fields: one with a field more is another writer's and is
kept as read."""

ByValue = Strict(False)
"""An enum read from its value (``"base"``), as JSON spells it (and strict Python does not)."""

SideField = Annotated[Side, ByValue]


def _as_tuple(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


class ComparisonMethod(StrEnum):
    """How a comparison was computed, as it records it: fork means (Welch on logs, or their
    ranks), pooled iterations when a side has one fork, or exact equality for
    near-deterministic bytes/op; the fork-level and pooled ones also as judged at the looks of
    a sequential run. What each name means, and what it says of itself, is its method's
    (:mod:`perfproof.stats.methods`)."""

    FORK_LEVEL = "fork-level"
    ITERATION_LEVEL = "iteration-level"
    EXACT = "exact"
    FORK_LEVEL_SEQUENTIAL = "fork-level, sequential"
    ITERATION_LEVEL_SEQUENTIAL = "iteration-level, sequential"
    FORK_RANKS = "fork-ranks"
    FORK_RANKS_SEQUENTIAL = "fork-ranks, sequential"
    ZERO_RATE = "zero-rate"


class Kind(StrEnum):
    """What a note is about: a renderer picks a tag by it, a CI script filters on it."""

    EXACT = "exact"
    ZERO_RATE = "zero-rate"
    ONE_FORK = "one-fork"
    BYTES_VARY = "bytes-vary"
    FEW_FORKS = "few-forks"
    TRENDING = "trending"
    BIMODAL = "bimodal"
    UNSETTLED = "unsettled"
    FAMILY = "family"
    INCONCLUSIVE = "inconclusive"
    UNEXPLAINED = "unexplained"  # a verdict on a key a recording shows the change never runs in
    NO_PATH = "no-static-path"  # a verdict on a key no static call path leads to, unconfirmed
    NEAR_FLOOR = "near-floor"  # a side within a few times the empty benchmark: measures nothing
    FLAT_PARAM = "flat-param"  # time per op flat across a size-like @Param: look at the work


@with_config(AS_WRITTEN)
@dataclass(frozen=True)
class Note:
    """A sentence a user reads and acts on, with its kind."""

    kind: Annotated[Kind, ByValue]
    text: str


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class Power:
    """The design's power: the smallest change it detects and the forks that would resolve θ
    (also with endless iterations per fork, when only the fork component is left)."""

    mde_pct: StrictFloat | None
    forks_needed: StrictInt | None
    forks_needed_unlimited_iterations: StrictInt | None
    between_var_log: StrictFloat | None
    within_var_log: StrictFloat | None


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class UnsettledFork:
    """A fork whose first ``iterations`` were still warming up."""

    side: SideField
    fork: StrictInt
    iterations: StrictInt
    unsettled_mean: StrictFloat | None
    settled_mean: StrictFloat | None


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class Bimodal:
    """Two levels among a side's fork means or among its iterations."""

    level: Literal["forks", "iterations"]
    low: StrictFloat | None
    high: StrictFloat | None
    low_count: StrictInt
    high_count: StrictInt


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class ForkGroups:
    """Both sides' fork means in two groups (code shapes), found blind to the sides.

    ``low``/``high``: the groups' geometric means in the metric's unit; per side, how many
    forks fell in each; ``separation``: the distance of the group means in sds inside the
    groups (None: no spread inside). What a look made of it: Boschloo's exact p on side × group
    (``p_occupancy``), Welch's p inside each group (None where a side had fewer than two forks
    there) and ``held``: the pooled verdict rested on which group the forks fell in alone, so
    the key was not decided and ran more forks (or ended inconclusive at the last look).
    ``reached``: the change reaches the benchmark (None: not known).
    """

    low: StrictFloat
    high: StrictFloat
    base_low: StrictInt
    base_high: StrictInt
    head_low: StrictInt
    head_high: StrictInt
    separation: StrictFloat | None
    p_occupancy: StrictFloat
    p_within_low: StrictFloat | None
    p_within_high: StrictFloat | None
    held: StrictBool
    reached: StrictBool | None = None

    def fast(self, direction: Direction) -> tuple[int, int]:
        """(base, head) forks in the fast group: the low one when lower is better."""
        if direction is Direction.LOWER:
            return self.base_low, self.head_low
        return self.base_high, self.head_high


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class WithoutUnsettled:
    """The verdict recomputed without the unsettled first iterations, in the same family."""

    verdict: Annotated[Verdict, ByValue]
    ratio: StrictFloat | None
    ratio_ci: Annotated[tuple[StrictFloat | None, StrictFloat | None], BeforeValidator(_as_tuple)]
    delta_pct: StrictFloat | None
    p_adjusted: StrictFloat | None
    interval_confidence: StrictFloat | None


@with_config(AS_WRITTEN)
@dataclass(frozen=True)
class SequentialLook:
    """Where a sequential run stands for this key (``decided``: a verdict or a futility stop,
    never a key merely out of looks). An exact comparison is decided at its first look
    (``rule`` "exact") and carries nothing else. Fields in the order they are written."""

    look: StrictInt
    max_looks: StrictInt | None = field(default=None, kw_only=True)
    decided: StrictBool
    p_nominal: StrictFloat | None = None
    p_sequential: StrictFloat | None = None
    p_adjusted: StrictFloat | None = None
    overall_alpha: StrictFloat | None = None
    per_look_level: StrictFloat | None = None
    predictive_power: StrictFloat | None = None
    """The chance of a verdict by the last look the futility stop judged (predictive)."""
    conditional_power: StrictFloat | None = None
    """What a run written before the predictive rule stopped on: the chance of a verdict by the
    last look were the forks' estimate so far the truth. Kept as read, so an old run's account
    stays whole; a new run never writes it (that rule stopped real effects on thin evidence)."""
    futile: StrictBool | None = None
    futility_rule: Literal["equivalence", "predictive"] | None = None
    """Which futility rule stopped the key: its interval inside the equivalence margin, or an
    improbable verdict by the last look with an interval that bounds the change."""
    rule: Literal["exact"] | None = field(default=None, kw_only=True)


def _look_fields(look: SequentialLook, handler: SerializerFunctionWrapHandler) -> object:
    """An exact look is written as its look, decision and rule; any other without a rule."""
    doc = handler(look)
    if look.rule is not None:
        return {"look": look.look, "decided": look.decided, "rule": look.rule}
    return {k: v for k, v in doc.items() if k != "rule"}


Look = Annotated[SequentialLook, WrapSerializer(_look_fields)]


class Lenient:
    """A block read leniently (its subclasses are dataclasses with an ``extra`` field): each
    known field by its type; one of another shape (and any unknown one) kept as read under
    ``extra``. The whole is read at once, again without the fields it named."""

    @model_validator(mode="wrap")
    @classmethod
    def _read(cls, value: object, handler: ValidatorFunctionWrapHandler) -> JmhScores | Diagnostics:
        if cls is not JmhScores and cls is not Diagnostics:
            raise TypeError(cls)
        return _lenient(cls, value, handler)


def _lenient(
    cls: type[JmhScores] | type[Diagnostics],
    value: object,
    handler: ValidatorFunctionWrapHandler,
) -> JmhScores | Diagnostics:
    if not isinstance(value, dict):
        read = handler(value)  # an instance made in code, or no object at all (refused)
        if not isinstance(read, cls):
            raise TypeError(read)
        return read
    names = {f.name for f in fields(cls)} - {"extra"}
    typed = {k: v for k, v in value.items() if k in names}
    kept = {k: v for k, v in value.items() if k not in names}
    if cls is Diagnostics and "df" in typed and "strategy" not in typed:
        kept["df"] = typed.pop("df")  # df is written beside a strategy only
    while True:
        try:
            read = handler(typed)
            break
        except ValidationError as exc:
            bad = {e["loc"][0] for e in exc.errors() if e["loc"]} & typed.keys()
            if not bad:
                raise
            kept |= {k: typed.pop(k) for k in list(typed) if k in bad}
    if not isinstance(read, cls):
        raise TypeError(read)
    found: JmhScores | Diagnostics = read
    if isinstance(found, Diagnostics) and found.strategy is None and "df" in typed:
        kept["df"] = typed["df"]
    found.extra.update(kept)
    return found


@with_config(AS_WRITTEN)
@dataclass
class JmhScores(Lenient):
    """JMH's own score ± 99.9% error per side, shown beside perfproof's so a reader can relate
    them, and whether JMH's two intervals overlap. ``recomputed``: JMH never saw the rounds
    together, so its numbers were recomputed the way JMH does (None: an older writer)."""

    base_score: StrictFloat | None = None
    base_error: StrictFloat | None = None
    head_score: StrictFloat | None = None
    head_error: StrictFloat | None = None
    overlap: StrictBool | None = None
    recomputed: StrictBool | None = None
    extra: dict[str, JsonValue] = field(default_factory=dict)
    """Fields of another shape or another writer, kept as read."""

    @model_serializer(mode="wrap")
    def _written(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """Every score and the overlap (unknown: null), ``recomputed`` when known, and what
        another writer wrote (a field of another shape in its place)."""
        doc: dict[str, object] = handler(self)
        del doc["extra"]
        if doc["recomputed"] is None:
            del doc["recomputed"]
        doc.update(self.extra)
        return doc


@with_config(AS_WRITTEN)
@dataclass
class Diagnostics(Lenient):
    """The numbers behind one comparison's warnings; None is "not computed" (never written)."""

    strategy: Annotated[ComparisonMethod, ByValue] | None = None
    df: StrictFloat | None = None
    cv_fork_means: dict[SideField, StrictFloat | None] | None = None
    between_fork_share: dict[SideField, StrictFloat | None] | None = None
    power: Power | None = None
    unsettled: list[UnsettledFork] | None = None
    bimodal: dict[SideField, Bimodal] | None = None
    trending: list[SideField] | None = None
    forks: dict[SideField, StrictInt] | None = None
    iterations: dict[SideField, StrictInt] | None = None
    without_unsettled: WithoutUnsettled | None = None
    notes: list[Note] | None = None
    sequential: Look | None = None
    fork_groups: ForkGroups | None = None
    extra: dict[str, JsonValue] = field(default_factory=dict)
    """Fields of other writers (or of a shape this reader does not know), kept as read."""

    @model_serializer(mode="wrap")
    def _written(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """The fields computed (``df`` beside a strategy only), then another writer's."""
        doc: dict[str, object] = handler(self)
        del doc["extra"]
        kept = {"df"} if self.strategy is not None else set()
        out = {k: v for k, v in doc.items() if v is not None or k in kept}
        return out | {k: v for k, v in self.extra.items() if k not in out}

"""What a comparison says about its own data, typed: the method, the notes, power, sequential.

``compare/`` fills these while it judges a key and the renderers read them by field, so a
misspelt key is a type error rather than a silently empty tag. ``results.json`` carries them
under ``diagnostics`` with the same names as before they were typed; reading is lenient (a
field of an unexpected shape from another writer is kept as it was, under ``extra``) because a
renderer can do without any one of them. The codec (pydantic) reads and writes each field from
its type; what is perfproof's own is only that leniency and which fields are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Annotated, Literal, TypeVar, get_type_hints

from pydantic import (
    ConfigDict,
    JsonValue,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    WrapSerializer,
    with_config,
)
from pydantic_core import to_json

from perfproof.model.enums import Direction, Side, Verdict

EXACT_FIELDS = ConfigDict(extra="forbid")
"""A block read with exactly its own fields: one with a field more is another writer's and is
kept as read."""


class ComparisonMethod(StrEnum):
    """How a comparison was computed: fork means (Welch on logs), pooled iterations when a
    side has one fork, or exact equality for near-deterministic bytes/op; the first two may
    be judged at the looks of a sequential run."""

    FORK_LEVEL = "fork-level"
    ITERATION_LEVEL = "iteration-level"
    EXACT = "exact"
    FORK_LEVEL_SEQUENTIAL = "fork-level, sequential"
    ITERATION_LEVEL_SEQUENTIAL = "iteration-level, sequential"

    def at_looks(self) -> ComparisonMethod:
        """The same method judged at the looks of a sequential design."""
        return {
            ComparisonMethod.FORK_LEVEL: ComparisonMethod.FORK_LEVEL_SEQUENTIAL,
            ComparisonMethod.ITERATION_LEVEL: ComparisonMethod.ITERATION_LEVEL_SEQUENTIAL,
        }.get(self, self)


class Kind(StrEnum):
    """What a note is about: a renderer picks a tag by it, a CI script filters on it."""

    EXACT = "exact"
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


@dataclass(frozen=True)
class Note:
    """A sentence a user reads and acts on, with its kind."""

    kind: Kind
    text: str


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class Power:
    """The design's power: the smallest change it detects and the forks that would resolve θ
    (also with endless iterations per fork, when only the fork component is left)."""

    mde_pct: float | None
    forks_needed: int | None
    forks_needed_unlimited_iterations: int | None
    between_var_log: float | None
    within_var_log: float | None


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class UnsettledFork:
    """A fork whose first ``iterations`` were still warming up."""

    side: Side
    fork: int
    iterations: int
    unsettled_mean: float | None
    settled_mean: float | None


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class Bimodal:
    """Two levels among a side's fork means or among its iterations."""

    level: Literal["forks", "iterations"]
    low: float | None
    high: float | None
    low_count: int
    high_count: int


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

    low: float
    high: float
    base_low: int
    base_high: int
    head_low: int
    head_high: int
    separation: float | None
    p_occupancy: float
    p_within_low: float | None
    p_within_high: float | None
    held: bool
    reached: bool | None = None

    def fast(self, direction: Direction) -> tuple[int, int]:
        """(base, head) forks in the fast group: the low one when lower is better."""
        if direction is Direction.LOWER:
            return self.base_low, self.head_low
        return self.base_high, self.head_high


@with_config(EXACT_FIELDS)
@dataclass(frozen=True)
class WithoutUnsettled:
    """The verdict recomputed without the unsettled first iterations, in the same family."""

    verdict: Verdict
    ratio: float | None
    ratio_ci: tuple[float | None, float | None]
    delta_pct: float | None
    p_adjusted: float | None
    interval_confidence: float | None


@dataclass(frozen=True)
class SequentialLook:
    """Where a sequential run stands for this key (``decided``: a verdict or a futility stop,
    never a key merely out of looks). An exact comparison is decided at its first look
    (``rule`` "exact") and carries nothing else. Fields in the order they are written."""

    look: int
    max_looks: int | None = field(default=None, kw_only=True)
    decided: bool
    p_nominal: float | None = None
    p_sequential: float | None = None
    p_adjusted: float | None = None
    overall_alpha: float | None = None
    per_look_level: float | None = None
    conditional_power: float | None = None
    futile: bool | None = None
    rule: Literal["exact"] | None = field(default=None, kw_only=True)


def _look_fields(look: SequentialLook, handler: SerializerFunctionWrapHandler) -> object:
    """An exact look is written as its look, decision and rule; any other without a rule."""
    doc = handler(look)
    if look.rule is not None:
        return {"look": look.look, "decided": look.decided, "rule": look.rule}
    return {k: v for k, v in doc.items() if k != "rule"}


Look = Annotated[SequentialLook, WrapSerializer(_look_fields)]


@dataclass
class JmhScores:
    """JMH's own score ± 99.9% error per side, shown beside perfproof's so a reader can relate
    them, and whether JMH's two intervals overlap. ``recomputed``: JMH never saw the rounds
    together, so its numbers were recomputed the way JMH does (None: an older writer)."""

    base_score: float | None
    base_error: float | None
    head_score: float | None
    head_error: float | None
    overlap: bool | None
    recomputed: bool | None = None
    extra: dict[str, JsonValue] = field(default_factory=dict)
    """Fields of another shape or another writer, kept as read."""

    def to_json(self) -> dict[str, JsonValue]:
        """Every score and the overlap (unknown: null), ``recomputed`` when known, and what
        another writer wrote (a field of another shape in its place)."""
        out = _written(self, keep_none={"recomputed"} ^ set(_names(JmhScores)))
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, JsonValue]) -> JmhScores:
        unknown = dict.fromkeys(("base_score", "base_error", "head_score", "head_error", "overlap"))
        return _read(cls, doc, unknown)


@dataclass
class Diagnostics:
    """The numbers behind one comparison's warnings; None is "not computed" (never written)."""

    strategy: ComparisonMethod | None = None
    df: float | None = None
    cv_fork_means: dict[Side, float | None] | None = None
    between_fork_share: dict[Side, float | None] | None = None
    power: Power | None = None
    unsettled: list[UnsettledFork] | None = None
    bimodal: dict[Side, Bimodal] | None = None
    trending: list[Side] | None = None
    forks: dict[Side, int] | None = None
    iterations: dict[Side, int] | None = None
    without_unsettled: WithoutUnsettled | None = None
    notes: list[Note] | None = None
    sequential: Look | None = None
    fork_groups: ForkGroups | None = None
    extra: dict[str, JsonValue] = field(default_factory=dict)
    """Fields of other writers (or of a shape this reader does not know), kept as read."""

    def to_json(self) -> dict[str, JsonValue]:
        """The fields computed (``df`` beside a strategy only), then another writer's."""
        out = _written(self, keep_none={"df"} if self.strategy is not None else set())
        return {**out, **{k: v for k, v in self.extra.items() if k not in out}}

    @classmethod
    def from_json(cls, doc: Mapping[str, JsonValue]) -> Diagnostics:
        """Each known field typed; one of another shape stays in ``extra`` unchanged."""
        if "strategy" not in doc and "df" in doc:  # df is written beside a strategy only
            return _read(cls, {k: v for k, v in doc.items() if k != "df"}, extra={"df": doc["df"]})
        d = _read(cls, doc)
        if d.strategy is None and "df" in doc:
            d.extra["df"] = doc["df"]
        return d


# ---------------------------------------------------------------------- the codec, leniently


_WHOLE: dict[type, TypeAdapter[object]] = {}
_FIELD: dict[tuple[type, str], TypeAdapter[object]] = {}


def _names(kind: type) -> tuple[str, ...]:
    """The fields of ``kind`` the codec reads and writes: all but ``extra``."""
    return tuple(f.name for f in fields(kind) if f.name != "extra")


def _field_codec(kind: type, name: str) -> TypeAdapter[object]:
    """The codec of one field (made when a document first needs it: only to tell which field
    of a document that did not read whole is of another shape)."""
    if (kind, name) not in _FIELD:
        _FIELD[kind, name] = TypeAdapter(get_type_hints(kind, include_extras=True)[name])
    return _FIELD[kind, name]


def _written(value: JmhScores | Diagnostics, keep_none: set[str]) -> dict[str, JsonValue]:
    """Each field as JSON, left out when None unless named in ``keep_none``."""
    doc = _codec(type(value)).dump_python(value, mode="json", exclude={"extra"})
    return {k: v for k, v in doc.items() if v is not None or k in keep_none}


def _codec(kind: type) -> TypeAdapter[object]:
    """The codec of a whole JmhScores or Diagnostics (made once: making one takes ms)."""
    if kind not in _WHOLE:
        _WHOLE[kind] = TypeAdapter(kind)
    return _WHOLE[kind]


R = TypeVar("R", JmhScores, Diagnostics)


def _as_json(value: object) -> bytes:
    """``value`` as the JSON text the codec reads, made by the codec's own writer (six times
    faster than ``json.dumps`` here). A NaN or infinity is written as a string, so a field
    holding one is of another shape, kept as read, as a file's could never hold one."""
    return to_json(value, inf_nan_mode="strings")


def _read(
    kind: type[R],
    doc: Mapping[str, JsonValue],
    unknown: Mapping[str, None] | None = None,
    extra: dict[str, JsonValue] | None = None,
) -> R:
    """``kind`` from the fields of ``doc`` the codec reads as its own (strictly, as JSON spells
    them; ``unknown`` for those absent), the rest kept as read in ``extra``: unknown fields
    and any of another shape. The whole is read at once; field by field only when it fails."""
    names = _names(kind)
    typed: dict[str, JsonValue] = dict(unknown or {})
    kept: dict[str, JsonValue] = {}
    for key, value in doc.items():
        if key in names:
            typed[key] = value
        else:
            kept[key] = value
    whole = _codec(kind)
    try:
        read = whole.validate_json(_as_json(typed), strict=True)
    except ValidationError:
        for key, value in list(typed.items()):
            try:
                _field_codec(kind, key).validate_json(_as_json(value), strict=True)
            except ValidationError:
                kept[key] = value
                del typed[key]
        read = whole.validate_json(_as_json({**(unknown or {}), **typed}), strict=True)
    if not isinstance(read, kind):
        raise TypeError(read)
    read.extra.update(kept)
    read.extra.update(extra or {})
    return read

"""What a comparison says about its own data, typed: the method, the notes, power, sequential.

``compare/`` fills these while it judges a key and the renderers read them by field, so a
misspelt key is a type error rather than a silently empty tag. ``results.json`` carries them
under ``diagnostics`` with the same names as before they were typed; reading is lenient (a
field of an unexpected shape from another writer is kept as it was, under ``extra``) because a
renderer can do without any one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, TypeVar

from perfproof.model.enums import Direction, Side, Verdict

T = TypeVar("T")


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

    def to_json(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "text": self.text}


@dataclass(frozen=True)
class Power:
    """The design's power: the smallest change it detects and the forks that would resolve θ
    (also with endless iterations per fork, when only the fork component is left)."""

    mde_pct: float | None
    forks_needed: int | None
    forks_needed_unlimited_iterations: int | None
    between_var_log: float | None
    within_var_log: float | None


@dataclass(frozen=True)
class UnsettledFork:
    """A fork whose first ``iterations`` were still warming up."""

    side: Side
    fork: int
    iterations: int
    unsettled_mean: float | None
    settled_mean: float | None


@dataclass(frozen=True)
class Bimodal:
    """Two levels among a side's fork means or among its iterations."""

    level: Literal["forks", "iterations"]
    low: float | None
    high: float | None
    low_count: int
    high_count: int


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
    (``rule`` "exact") and carries nothing else."""

    look: int
    decided: bool
    rule: Literal["exact"] | None = None
    max_looks: int | None = None
    p_nominal: float | None = None
    p_sequential: float | None = None
    p_adjusted: float | None = None
    overall_alpha: float | None = None
    per_look_level: float | None = None
    conditional_power: float | None = None
    futile: bool | None = None

    def to_json(self) -> dict[str, Any]:
        if self.rule is not None:
            return {"look": self.look, "decided": self.decided, "rule": self.rule}
        return {
            "look": self.look,
            "max_looks": self.max_looks,
            "decided": self.decided,
            "p_nominal": self.p_nominal,
            "p_sequential": self.p_sequential,
            "p_adjusted": self.p_adjusted,
            "overall_alpha": self.overall_alpha,
            "per_look_level": self.per_look_level,
            "conditional_power": self.conditional_power,
            "futile": self.futile,
        }


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
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields of another shape or another writer, kept as read."""

    def to_json(self) -> dict[str, Any]:
        names = ("base_score", "base_error", "head_score", "head_error", "overlap")
        out: dict[str, Any] = {name: getattr(self, name) for name in names}
        if self.recomputed is not None:
            out["recomputed"] = self.recomputed
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> JmhScores:
        scores = cls(None, None, None, None, None)
        for key, value in doc.items():
            try:
                if key in ("base_score", "base_error", "head_score", "head_error"):
                    setattr(scores, key, _number(value))
                elif key in ("overlap", "recomputed"):
                    setattr(scores, key, _flag(value))
                else:
                    scores.extra[key] = value
            except TypeError:
                scores.extra[key] = value
        return scores


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
    sequential: SequentialLook | None = None
    fork_groups: ForkGroups | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields of other writers (or of a shape this reader does not know), kept as read."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.strategy is not None:
            out["strategy"] = str(self.strategy)
            out["df"] = self.df
        for name in ("cv_fork_means", "between_fork_share"):
            value = getattr(self, name)
            if value is not None:
                out[name] = {str(side): v for side, v in value.items()}
        if self.power is not None:
            out["power"] = dict(vars(self.power))
        if self.unsettled is not None:
            out["unsettled"] = [{**vars(u), "side": str(u.side)} for u in self.unsettled]
        if self.bimodal is not None:
            out["bimodal"] = {str(side): dict(vars(b)) for side, b in self.bimodal.items()}
        if self.trending is not None:
            out["trending"] = [str(side) for side in self.trending]
        for name in ("forks", "iterations"):
            counts = getattr(self, name)
            if counts is not None:
                out[name] = {str(side): n for side, n in counts.items()}
        if self.without_unsettled is not None:
            w = self.without_unsettled
            out["without_unsettled"] = {
                **vars(w),
                "verdict": str(w.verdict),
                "ratio_ci": list(w.ratio_ci),
            }
        if self.notes is not None:
            out["notes"] = [n.to_json() for n in self.notes]
        if self.sequential is not None:
            out["sequential"] = self.sequential.to_json()
        if self.fork_groups is not None:
            out["fork_groups"] = dict(vars(self.fork_groups))
        return {**out, **{k: v for k, v in self.extra.items() if k not in out}}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Diagnostics:
        """Each known field typed; one of another shape stays in ``extra`` unchanged."""
        d = cls()
        readers: dict[str, Callable[[Any], Any]] = {
            "strategy": ComparisonMethod,
            "df": _number,
            "cv_fork_means": lambda v: _by_side(v, _number),
            "between_fork_share": lambda v: _by_side(v, _number),
            "power": _power,
            "unsettled": lambda v: [_unsettled(u) for u in _list(v)],
            "bimodal": lambda v: _by_side(v, _bimodal),
            "trending": lambda v: [Side(s) for s in _list(v)],
            "forks": lambda v: _by_side(v, _count),
            "iterations": lambda v: _by_side(v, _count),
            "without_unsettled": _without_unsettled,
            "notes": lambda v: [Note(Kind(_dict(n)["kind"]), str(n["text"])) for n in _list(v)],
            "sequential": _sequential,
            "fork_groups": _fork_groups,
        }
        for key, value in doc.items():
            reader = readers.get(key)
            if reader is None:
                d.extra[key] = value
                continue
            try:
                setattr(d, key, reader(value))
            except (KeyError, TypeError, ValueError):
                d.extra[key] = value
        if d.strategy is None and "df" in doc:
            d.extra["df"] = doc["df"]  # df is written beside a strategy only
        return d


# ------------------------------------------------------------------------- lenient reading


def _number(v: Any) -> float | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise TypeError(v)
    return float(v) if isinstance(v, float) else v


def _flag(v: Any) -> bool | None:
    if v is not None and not isinstance(v, bool):
        raise TypeError(v)
    return v


def _count(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(v)
    return v


def _optional_count(v: Any) -> int | None:
    return None if v is None else _count(v)


def _dict(v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise TypeError(v)
    return v


def _list(v: Any) -> list[Any]:
    if not isinstance(v, list):
        raise TypeError(v)
    return v


def _by_side(v: Any, read: Callable[[Any], T]) -> dict[Side, T]:
    return {Side(side): read(x) for side, x in _dict(v).items()}


def _power(v: Any) -> Power:
    p = _dict(v)
    if len(p) != 5:
        raise KeyError(sorted(p))
    return Power(
        mde_pct=_number(p["mde_pct"]),
        forks_needed=_optional_count(p["forks_needed"]),
        forks_needed_unlimited_iterations=_optional_count(p["forks_needed_unlimited_iterations"]),
        between_var_log=_number(p["between_var_log"]),
        within_var_log=_number(p["within_var_log"]),
    )


def _unsettled(v: Any) -> UnsettledFork:
    u = _dict(v)
    return UnsettledFork(
        Side(u["side"]),
        _count(u["fork"]),
        _count(u["iterations"]),
        _number(u["unsettled_mean"]),
        _number(u["settled_mean"]),
    )


def _bimodal(v: Any) -> Bimodal:
    b = _dict(v)
    level = b["level"]
    if level not in ("forks", "iterations") or len(b) != 5:
        raise ValueError(level)
    low, high = _number(b["low"]), _number(b["high"])
    return Bimodal(level, low, high, _count(b["low_count"]), _count(b["high_count"]))


def _fork_groups(v: Any) -> ForkGroups:
    g = _dict(v)
    if len(g) not in (11, 12):  # 11: written before reach was known to the rule
        raise KeyError(sorted(g))
    low, high, p_occupancy = _number(g["low"]), _number(g["high"]), _number(g["p_occupancy"])
    held = _flag(g["held"])
    if low is None or high is None or p_occupancy is None or held is None:
        raise TypeError(g)
    return ForkGroups(
        low=low,
        high=high,
        base_low=_count(g["base_low"]),
        base_high=_count(g["base_high"]),
        head_low=_count(g["head_low"]),
        head_high=_count(g["head_high"]),
        separation=_number(g["separation"]),
        p_occupancy=p_occupancy,
        p_within_low=_number(g["p_within_low"]),
        p_within_high=_number(g["p_within_high"]),
        held=held,
        reached=_flag(g.get("reached")),
    )


def _without_unsettled(v: Any) -> WithoutUnsettled:
    w = _dict(v)
    lo, hi = _list(w["ratio_ci"])
    return WithoutUnsettled(
        Verdict(w["verdict"]),
        _number(w["ratio"]),
        (_number(lo), _number(hi)),
        _number(w["delta_pct"]),
        _number(w["p_adjusted"]),
        _number(w["interval_confidence"]),
    )


def _sequential(v: Any) -> SequentialLook:
    s = _dict(v)
    look, decided = _count(s["look"]), s["decided"]
    if not isinstance(decided, bool):
        raise TypeError(decided)
    if "rule" in s:
        if s["rule"] != "exact" or len(s) != 3:
            raise ValueError(s["rule"])
        return SequentialLook(look, decided, rule="exact")
    futile = s["futile"]
    if futile is not None and not isinstance(futile, bool):
        raise TypeError(futile)
    if len(s) != 10:
        raise KeyError(sorted(s))
    return SequentialLook(
        look,
        decided,
        max_looks=_optional_count(s["max_looks"]),
        p_nominal=_number(s["p_nominal"]),
        p_sequential=_number(s["p_sequential"]),
        p_adjusted=_number(s["p_adjusted"]),
        overall_alpha=_number(s["overall_alpha"]),
        per_look_level=_number(s["per_look_level"]),
        conditional_power=_number(s["conditional_power"]),
        futile=futile,
    )

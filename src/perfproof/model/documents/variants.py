"""The rule that makes two variants measured in one run the two sides of a comparison
(``ab --ref C --pair …``, ``compare --pair-suffix``, ``--sides-by-param``), as the door makes
it, the run machinery and the comparison use it, and the manifest records it: one type.

Why a run measures variants, and how their samples are split into base and head, is
:mod:`perfproof.model.variants`; this module is the rule and where it places a key.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated

from pydantic import BeforeValidator, ConfigDict, Field, computed_field, model_validator

from perfproof.model import BenchKey
from perfproof.model.documents.codec import Document, without

Params = tuple[tuple[str, str], ...]


def _as_tuples(value: object) -> object:
    """JSON lists (the pairs, each pair, the @Param rule) read as the tuples the rule holds;
    an absent list of pairs (null) as none."""
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(_as_tuples(v) if isinstance(v, list) else v for v in value)
    return value


def _listed(value: object) -> object:
    return None if value is None else _as_tuples(value)


class Variants(Document):
    """How one result set splits into base and head (at most one rule kind at a time).

    Written as the manifest's ``variants`` block, as it always was: the rule's entries that
    are set, then ``text``, the rule in the words of its flag for the report, which is made
    from the rule (:meth:`describe`) rather than held beside it; a block read back is worded
    again the same way."""

    model_config = ConfigDict(frozen=True)

    pairs: Annotated[tuple[tuple[str, str], ...], BeforeValidator(_as_tuples)] = Field(
        default=(), exclude_if=lambda pairs: not pairs
    )
    """``(base, head)`` benchmark names, full or trailing (``Class.method``, ``method``)."""
    suffix: str | None = None
    """Every benchmark ``XSUFFIX`` is the head of benchmark ``X``."""
    param: Annotated[tuple[str, str, str] | None, BeforeValidator(_listed)] = None
    """``(name, base value, head value)`` of one @Param."""

    @model_validator(mode="before")
    @classmethod
    def _worded_again(cls, doc: object) -> object:
        """The words a block was written with are made again from its rule, not kept."""
        return without(doc, "text")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """The rule in the words of its flag, as the report shows it (:meth:`describe`)."""
        return self.describe()

    def _chosen(self, doc: dict[str, object]) -> dict[str, object]:
        """The rule's entries and its words first, in the order always written."""
        first = {k: doc[k] for k in ("pairs", "suffix", "param", "text") if k in doc}
        return first | {k: v for k, v in doc.items() if k not in first}

    def side_names(self) -> tuple[str, str]:
        """What each side is, in a few words (``sum`` / ``sumOpt``, ``optimized=false``)."""
        if self.param:
            name, base, head = self.param
            return f"{name}={base}", f"{name}={head}"
        if self.suffix:
            return "X", f"X{self.suffix}"
        return ", ".join(b for b, _ in self.pairs), ", ".join(h for _, h in self.pairs)

    def side_of(self, key: BenchKey) -> str | None:
        """``base``, ``head`` or None (no rule names the key), as :meth:`placed` places it."""
        placed = self.placed(key)
        return placed[0] if placed else None

    def place(self, benchmark: str, params: Params) -> tuple[str, str, Params] | None:
        """Where a benchmark at some @Param values belongs: ``(side, benchmark, params)`` under
        the names both sides share (the base's), or None when no rule names it."""
        key = BenchKey(benchmark, "", params, "")
        placed = self.placed(key)
        return (placed[0], placed[1].benchmark, placed[1].params) if placed else None

    def given(self) -> bool:
        return bool(self.pairs or self.suffix or self.param)

    def describe(self) -> str:
        """The rule in the words of its flag, for the report and the JSON."""
        if self.param:
            name, base, head = self.param
            return f"sides by @Param {name}: base {name}={base}, head {name}={head}"
        if self.suffix:
            return f"sides by suffix: base X, head X{self.suffix}"
        return "sides by pair: " + "; ".join(f"base {b}, head {h}" for b, h in self.pairs)

    def placed(self, key: BenchKey) -> tuple[str, BenchKey] | None:
        """The side of a measured key and the key under the names both sides share (the
        base's), or None when no rule names it."""
        if self.param is not None:
            name, base_value, head_value = self.param
            value = key.params_dict.get(name)
            if value not in (base_value, head_value):
                return None
            rest = tuple(p for p in key.params if p[0] != name)
            into = "base" if value == base_value else "head"
            return into, BenchKey(key.benchmark, key.mode, rest, key.metric)
        if self.suffix is not None:
            if key.benchmark.endswith(self.suffix) and len(key.benchmark) > len(self.suffix):
                stripped = key.benchmark[: -len(self.suffix)]
                return "head", dataclasses.replace(key, benchmark=stripped)
            return "base", key
        for base_name, head_name in self.pairs:
            if _names(key.benchmark, head_name):
                stem = key.benchmark[: len(key.benchmark) - len(head_name)]
                return "head", dataclasses.replace(key, benchmark=stem + base_name)
            if _names(key.benchmark, base_name):
                return "base", key
        return None


def _names(full: str, given: str) -> bool:
    """Whether ``given`` is the benchmark's full name or its trailing ``.``-separated part."""
    return full == given or full.endswith("." + given)

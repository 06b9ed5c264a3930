"""Two variants measured in one run, made into the two sides of a comparison.

Real benchmark classes often carry both implementations side by side — ``testRawValue`` and
``testRawValueOpt``, or an ``@Param optimized`` of ``false`` and ``true`` — and the comparison a
pull request quotes is between them, not between two commits. Renaming one variant's keys to
the other's turns them into an ordinary base and head, so they get the same fork-level
statistics, family procedure and report as any A/B: the forks of one JVM run are still
independent replicates of each variant (each fork runs one benchmark).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from perfproof.errors import InputError
from perfproof.model import BenchKey, SideSamples
from perfproof.model.documents.run import VariantsBlock

Params = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Variants:
    """How one result set splits into base and head (at most one rule kind at a time)."""

    pairs: tuple[tuple[str, str], ...] = ()
    """``(base, head)`` benchmark names, full or trailing (``Class.method``, ``method``)."""
    suffix: str | None = None
    """Every benchmark ``XSUFFIX`` is the head of benchmark ``X``."""
    param: tuple[str, str, str] | None = None
    """``(name, base value, head value)`` of one @Param."""

    def to_block(self) -> VariantsBlock:
        """The manifest's record of the rule (``ab --ref C``), read back by :meth:`from_block`."""
        return VariantsBlock(
            pairs=[list(p) for p in self.pairs] or None,
            suffix=self.suffix,
            param=list(self.param) if self.param else None,
            text=self.describe(),
        )

    @classmethod
    def from_block(cls, block: VariantsBlock) -> Variants:
        param = tuple(block.param or ())
        return cls(
            pairs=tuple((p[0], p[1]) for p in block.pairs or () if len(p) == 2),
            suffix=block.suffix,
            param=(param[0], param[1], param[2]) if len(param) == 3 else None,
        )

    def side_names(self) -> tuple[str, str]:
        """What each side is, in a few words (``sum`` / ``sumOpt``, ``optimized=false``)."""
        if self.param:
            name, base, head = self.param
            return f"{name}={base}", f"{name}={head}"
        if self.suffix:
            return "X", f"X{self.suffix}"
        return ", ".join(b for b, _ in self.pairs), ", ".join(h for _, h in self.pairs)

    def side_of(self, key: BenchKey) -> str | None:
        """``base``, ``head`` or None (no rule names the key), as :func:`split` places it."""
        placed = _place(key, self)
        return placed[0] if placed else None

    def place(self, benchmark: str, params: Params) -> tuple[str, str, Params] | None:
        """Where a benchmark at some @Param values belongs: ``(side, benchmark, params)`` under
        the names both sides share (the base's), or None when no rule names it."""
        key = BenchKey(benchmark, "", params, "")
        placed = _place(key, self)
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


def parse_pair(text: str) -> tuple[str, str]:
    """``X=Y``: benchmark X is the base, Y the head."""
    base, sep, head = text.partition("=")
    base, head = base.strip(), head.strip()
    if not sep or not base or not head or "=" in head:
        raise InputError(f"--pair {text!r}: expected BASE=HEAD, e.g. 'decode=decodeOpt'")
    if base == head:
        raise InputError(f"--pair {text!r}: base and head name the same benchmark")
    return base, head


def parse_sides_by_param(text: str) -> tuple[str, str, str]:
    """``NAME=BASE,HEAD``: the @Param's two values that are the two sides."""
    name, sep, values = text.partition("=")
    parts = [v.strip() for v in values.split(",")]
    if not sep or not name.strip() or len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        raise InputError(
            f"--sides-by-param {text!r}: expected NAME=BASE,HEAD with two different values, "
            "e.g. 'optimized=false,true'"
        )
    return name.strip(), parts[0], parts[1]


def split(side: SideSamples, variants: Variants) -> tuple[SideSamples, SideSamples]:
    """Base and head of one result set; entries no rule names are left out of both."""
    base: SideSamples = {}
    head: SideSamples = {}
    for key, samples in side.items():
        placed = _place(key, variants)
        if placed is None:
            continue
        into, renamed = placed
        target = base if into == "base" else head
        if renamed in target:
            raise InputError(
                f"{key.label()}: two entries become {renamed.label()} under "
                f"{variants.describe()}; name the pair in full"
            )
        target[renamed] = dataclasses.replace(samples, key=renamed)
    if variants.suffix is not None:
        # every benchmark is a candidate base under a suffix rule: only those with a variant are
        paired = {k.entry() for k in head}
        base = {k: s for k, s in base.items() if k.entry() in paired}
    if not base or not head:
        missing = "base" if not base else "head"
        raise InputError(f"no entry is the {missing} of {variants.describe()}")
    return base, head


def _place(key: BenchKey, v: Variants) -> tuple[str, BenchKey] | None:
    if v.param is not None:
        name, base_value, head_value = v.param
        value = key.params_dict.get(name)
        if value not in (base_value, head_value):
            return None
        rest = tuple(p for p in key.params if p[0] != name)
        into = "base" if value == base_value else "head"
        return into, BenchKey(key.benchmark, key.mode, rest, key.metric)
    if v.suffix is not None:
        if key.benchmark.endswith(v.suffix) and len(key.benchmark) > len(v.suffix):
            stripped = key.benchmark[: -len(v.suffix)]
            return "head", dataclasses.replace(key, benchmark=stripped)
        return "base", key
    for base_name, head_name in v.pairs:
        if _names(key.benchmark, head_name):
            stem = key.benchmark[: len(key.benchmark) - len(head_name)]
            return "head", dataclasses.replace(key, benchmark=stem + base_name)
        if _names(key.benchmark, base_name):
            return "base", key
    return None


def _names(full: str, given: str) -> bool:
    """Whether ``given`` is the benchmark's full name or its trailing ``.``-separated part."""
    return full == given or full.endswith("." + given)

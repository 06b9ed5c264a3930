"""Per-method profile weights, for ranking scan findings by where the time and bytes go.

The stacks come from perfproof's profile loader (JFR recordings through its Java helper, or
collapsed stacks ``frame;frame;frame weight``), as CPU samples and allocated bytes. A
method's weight is inclusive: every stack it appears on counts once, because a pattern in a
method costs wherever below it the allocation or the sample lands (``String.format``
allocates inside ``java.util.Formatter``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

_SUFFIX = re.compile(r"_\[[a-z0-9]\]$")
_LAMBDA = re.compile(r"lambda\$([\w]+)\$\d+")
_SIGNATURE = re.compile(r"\(.*\)$")
_LINE = re.compile(r":\d+$")


@dataclass
class MethodWeights:
    """Inclusive weight of each method per dimension (``cpu``, ``alloc``) and the totals."""

    by_method: dict[str, dict[str, float]] = field(default_factory=lambda: defaultdict(dict))
    totals: dict[str, float] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def shares(self, method: str) -> dict[str, float]:
        found = self.by_method.get(method, {})
        return {dim: found.get(dim, 0.0) / total for dim, total in self.totals.items() if total > 0}

    def share(self, method: str) -> float:
        """Mean over dimensions of the method's inclusive fraction of the total."""
        shares = self.shares(method)
        return sum(shares.values()) / len(shares) if shares else 0.0

    def add_stacks(self, dim: str, stacks: Iterable[tuple[list[str], float]]) -> None:
        per_method: dict[str, float] = defaultdict(float)
        total = 0.0
        for frames, weight in stacks:
            total += weight
            for method in {normalise_frame(f) for f in frames}:
                if method:
                    per_method[method] += weight
        for method, weight in per_method.items():
            self.by_method[method][dim] = self.by_method[method].get(dim, 0.0) + weight
        self.totals[dim] = self.totals.get(dim, 0.0) + total


def normalise_frame(frame: str) -> str:
    """``org/x/Outer$Inner.lambda$run$0(I)V_[j]`` -> ``org.x.Outer.Inner.run``."""
    name = _SUFFIX.sub("", frame.strip())
    name = _LINE.sub("", _SIGNATURE.sub("", name))
    name = _LAMBDA.sub(r"\1", name)
    name = name.replace("::", ".").replace("/", ".").replace("$", ".")
    parts = [p for p in name.split(".") if p and not p.isdigit()]
    return ".".join(parts)


def from_profiles(profiles: Sequence) -> MethodWeights:
    """Weights of :class:`perfproof.profile.stacks.Profile` objects (CPU and allocation)."""
    weights = MethodWeights()
    for p in profiles:
        if p.cpu:
            weights.add_stacks("cpu", ((list(s), float(w)) for s, w in p.cpu.items()))
        if p.alloc:
            weights.add_stacks("alloc", ((list(s), float(w)) for (s, _c), w in p.alloc.items()))
        weights.sources.append(p.source)
    return weights

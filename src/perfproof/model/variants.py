"""Two variants measured in one run, made into the two sides of a comparison.

Real benchmark classes often carry both implementations side by side — ``testRawValue`` and
``testRawValueOpt``, or an ``@Param optimized`` of ``false`` and ``true`` — and the comparison a
pull request quotes is between them, not between two commits. Renaming one variant's keys to
the other's turns them into an ordinary base and head, so they get the same fork-level
statistics, family procedure and report as any A/B: the forks of one JVM run are still
independent replicates of each variant (each fork runs one benchmark). The rule itself, as the
door makes it and the manifest records it, is :mod:`perfproof.model.documents.variants`.
"""

from __future__ import annotations

import dataclasses

from perfproof.errors import InputError
from perfproof.model import SideSamples
from perfproof.model.documents.variants import Variants


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
        placed = variants.placed(key)
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

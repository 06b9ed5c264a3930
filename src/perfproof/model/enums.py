"""The choices every perfproof module shares: which way is better, what the verdict is, which
side a number belongs to. A leaf of ``model`` so that the typed documents can name them too."""

from __future__ import annotations

from enum import StrEnum


class Direction(StrEnum):
    """Which way is better for a metric."""

    LOWER = "lower"
    HIGHER = "higher"


class Verdict(StrEnum):
    """The outcome of one comparison at the chosen confidence and practical threshold."""

    IMPROVED = "improved"
    REGRESSED = "regressed"
    SAME = "same"
    NEGLIGIBLE = "negligible"
    INCONCLUSIVE = "inconclusive"


class Side(StrEnum):
    """One of the two versions a comparison measures: the baseline and the change."""

    BASE = "base"
    HEAD = "head"


SIDES: tuple[str, str] = (Side.BASE, Side.HEAD)
"""Both sides in the order every report, plan and manifest lists them; typed as the strings
they are, since manifests, plans and documents key their dicts by the plain name."""

SIDE_WORDS: dict[str, str] = {Side.BASE: "baseline", Side.HEAD: "feature"}
"""How a report names each side to a reader."""

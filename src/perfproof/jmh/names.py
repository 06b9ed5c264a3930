"""Secondary metric names as one spelling, whatever the JMH version wrote.

JMH prefixed profiler metrics with ``@`` in early versions, with ``·`` (U+00B7) from 1.8 to
1.36, and with nothing from 1.37 on. A baseline recorded with one JMH and a head recorded
with another must still line up, so every name is reduced to the bare form
(``gc.alloc.rate.norm``) before it becomes part of a key.
"""

from __future__ import annotations

from perfproof.model import PRIMARY

_PREFIXES = ("\u00b7", "@", "\u2219", "\u22c5")


def normalise_metric(name: str) -> str:
    """``·gc.alloc.rate.norm``, ``@gc.alloc.rate.norm`` → ``gc.alloc.rate.norm``."""
    text = name.strip()
    while text[:1] in _PREFIXES and text:
        text = text[1:].lstrip()
    if text.lower() == PRIMARY:
        return PRIMARY
    return text

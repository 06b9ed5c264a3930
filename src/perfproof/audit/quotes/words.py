"""The vocabulary of a PR body: numbers, units, side words, direction words, names of the run.

Every regular expression here is anchored so that it can only start at the beginning of a
token (never inside a run of digits), which keeps scanning linear in the text: a line of a
million digits is read once, not a million times.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from perfproof.jmh.units import canonical

NUM = r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"
_NUM_END = r"(?![.,]\d)"
"""A number ends where its digits end: ``1.234,5`` is not ``1.234`` followed by more."""
_NUM_START = r"(?<![\w^.⁰¹²³⁴⁵⁶⁷⁸⁹⁻])(?<!\d,)"
"""A quoted score starts a token: not the ``5`` of ``1.234,5``, nor the ``6`` of ``10⁶``."""
_PCT_START = r"(?<![\d.])(?<!\d,)"
"""A percentage may follow a letter (``Δ-5%``) but never starts inside a number."""
SI_PREFIX = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
UNIT = (
    r"(?:ns|us|µs|μs|ms|s)/op"
    r"|(?:[kMGTPE] ?)?ops/(?:ns|us|µs|μs|ms|s|sec|min)"
    r"|B/op|bytes/op|b/op"
)
SCORE = re.compile(
    rf"{_NUM_START}(?P<v>{NUM}){_NUM_END}"
    rf"(?:[ \t]*(?:±|\+/-|\+-)[ \t]*(?P<e>{NUM}){_NUM_END})?[ \t]*(?P<u>{UNIT})(?![\w/])"
)
BARE_SCORE = re.compile(rf"^\s*(?P<v>{NUM})(?:\s*(?:±|\+/-|\+-)\s*(?P<e>{NUM}))?\s*$")
PERCENT = re.compile(
    rf"(?P<pre>(?:±|\+/-)[ \t]*[<>≤≥]?[ \t]*)?{_PCT_START}(?P<v>{NUM}){_NUM_END}[ \t]*%"
)
"""A percentage; ``pre`` marks a spread (``± 4.1%``, ``± >999%``), which is not an effect."""
ARROW = re.compile(r"→|->|=>|\bto\b|\bvs\.?\b|\bversus\b")
PARAM = re.compile(
    r"\b(?P<k>[A-Za-z_]\w*)[ \t]*=[ \t]*(?P<v>[^\s,;)\]|`*]+?)(?=[.:]?(?:[\s,;)\]|`*]|$))"
)
"""``n=128``; a full stop or colon right after the value ends the sentence, not the value."""
OVERLAP_CLAIM = re.compile(
    r"(do(?:es)?\s+not|don't|doesn't|never|no|without)\s+overlap|non-?\s?overlapping"
    r"|not\s+overlapping|disjoint",
    re.I,
)

BASE = "base"
HEAD = "head"
SIDE_WORDS = {
    BASE: ("baseline", "base", "before", "old", "main", "master", "trunk", "original"),
    HEAD: (
        "feature",
        "head",
        "after",
        "new",
        "patched",
        "patch",
        "this pr",
        "optimized",
        "optimised",
        "proposed",
    ),
}
_SIDE_OF_WORD = {w: side for side, words in SIDE_WORDS.items() for w in words}
_SIDE_WORD = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(w) for w in sorted(_SIDE_OF_WORD, key=len, reverse=True))
    + r")(?![\w-])",
    re.I,
)
DIRECTION_WORDS = {
    "faster": ("faster", "speedup", "speed-up", "improvement", "cheaper"),
    "slower": ("slower", "regression", "costlier"),
    "down": (
        "less",
        "fewer",
        "lower",
        "reduction",
        "reduced",
        "decrease",
        "smaller",
        "drop",
        "saving",
        "savings",
    ),
    "up": ("more", "higher", "increase", "increased", "larger", "growth"),
}
"""Words after an unsigned percentage that give it a direction (``12% faster``)."""
_DIRECTION = re.compile(
    r"\s*(?:\)\s*)?(?:"
    + "|".join(
        rf"(?P<{kind}>{'|'.join(re.escape(w) for w in words)})\b"
        for kind, words in DIRECTION_WORDS.items()
    )
    + ")"
)


def to_number(text: str) -> tuple[float, int]:
    """``"−1,234.50"`` → ``(-1234.5, 2)``: the value and the decimals written."""
    clean = text.replace("−", "-").replace(",", "").replace("+", "")
    mantissa = re.split(r"[eE]", clean)[0]
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    exp = re.search(r"[eE]([-+]?\d+)", clean)
    if exp:
        decimals -= int(exp.group(1))
    return float(clean), decimals


def unit_of(text: str) -> tuple[str, float]:
    """A written unit → (canonical unit, factor from written to canonical)."""
    lowered = text.replace("μ", "µ")
    if lowered.lower() in ("b/op", "bytes/op"):
        return "B/op", 1.0
    prefix = 1.0
    if lowered[:1] and lowered[:1] in "kMGTPE" and lowered[1:].lstrip().startswith("ops/"):
        prefix = SI_PREFIX[lowered[0]]
        lowered = lowered[1:].lstrip()
    unit, factor = canonical(lowered.replace("µs", "us"))
    return unit, factor * prefix


def direction_after(text: str) -> str | None:
    """``faster``/``slower``/``down``/``up`` when ``text`` starts with a direction word."""
    m = _DIRECTION.match(text.lower())
    if m is None:
        return None
    return next(kind for kind, value in m.groupdict().items() if value is not None)


def _side_hits(text: str) -> Iterator[tuple[int, str]]:
    for m in _SIDE_WORD.finditer(text):
        yield m.start(), _SIDE_OF_WORD[m.group(0).lower()]


def side_of(text: str) -> str | None:
    """The side a short text names (``Baseline``, ``after``), if exactly one."""
    found = {side for _, side in _side_hits(text)}
    return found.pop() if len(found) == 1 else None


def last_side_word(text: str) -> str | None:
    """The side named by the last side word in ``text``."""
    last = None
    for _, side in _side_hits(text):
        last = side
    return last


_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


class Names:
    """The benchmark names and @Param names (and values) a run knows, to spot them in text.

    A @Param value may hold spaces, commas or ``|``; a value the run knows is recognised whole
    after ``name=`` (also in the form Markdown renders it, escapes removed), and anything else
    up to the next space or punctuation.
    """

    def __init__(
        self,
        benchmarks: list[str],
        param_names: list[str],
        param_values: dict[str, set[str]] | None = None,
    ) -> None:
        self.param_names = set(param_names)
        aliases: dict[str, set[str]] = {}
        for bench in benchmarks:
            parts = bench.split(".")
            for k in range(1, len(parts) + 1):
                aliases.setdefault(".".join(parts[-k:]), set()).add(bench)
        self.aliases = aliases
        pattern = "|".join(
            re.escape(a) for a in sorted(aliases, key=len, reverse=True) if "." in a or len(a) > 2
        )
        self.regex = re.compile(rf"(?<![\w.])(?:{pattern})(?![\w])") if pattern else None
        self.values: dict[str, list[tuple[str, str]]] = {}
        for name, values in (param_values or {}).items():
            forms = {(v, v) for v in values}
            forms |= {(_MD_ESCAPE.sub(r"\1", v), v) for v in values}  # as Markdown renders it
            forms |= {(" ".join(v.split()), v) for v in values}  # kept on one line of prose
            # longest first: "a|b" before "a"
            self.values[name] = sorted(forms, key=lambda f: (-len(f[0]), f[0]))

    def mentions(self, text: str) -> Iterator[tuple[int, str]]:
        """(position, full benchmark name) for unambiguous mentions in ``text``.

        A bare method name that is a plain lowercase word (``single``, ``read``, ``pool``)
        names a benchmark only as a call (``single()``) or as the whole text (a table cell):
        in a sentence it is far more often the English word, and a number tied to the wrong
        benchmark would be reported as a mismatch.
        """
        if self.regex is None:
            return
        for m in self.regex.finditer(text):
            alias = m.group(0)
            found = self.aliases.get(alias, set())
            if len(found) != 1:
                continue
            word = alias.isalpha() and alias.islower()
            if word and not text.startswith("(", m.end()) and text.strip() != alias:
                continue
            yield m.start(), next(iter(found))

    def params(self, text: str) -> Iterator[tuple[int, str, str]]:
        """(position, name, value) of each ``name=value`` naming one of the run's @Params."""
        for m in PARAM.finditer(text):
            name = m.group("k")
            if name not in self.param_names:
                continue
            start = m.start("v")
            known = next(
                (
                    value
                    for form, value in self.values.get(name, [])
                    if text.startswith(form, start)
                ),
                None,
            )
            yield m.start(), name, known if known is not None else m.group("v")

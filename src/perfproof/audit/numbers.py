"""Every number of a line of Markdown, where it stands, and whether it is evidence at all.

A *number* here is any run of digits a reader could take for one: ``-107.22`` in
``-107.22%``, ``4,736``, ``0.12``, each digit group of a commit id, the ``⁻⁵`` of ``10⁻⁵``. A
line's *skeleton* is the line with each number replaced by a placeholder: two lines with the
same skeleton say the same thing about possibly different numbers, which is how a written
report's line is paired with the line perfproof renders for the run.

Some numbers are not evidence: a version, a date, a commit id, a path or a command in a code
block, the ``64`` of ``x86_64``, the ``128`` of ``n=128``. When such a number cannot be tied to
the run it is excused, and :class:`Excuses` says why.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from perfproof.audit.quotes.words import PARAM

NUMBER = re.compile(r"[-+−]?\d+(?:[.,]\d+)*|⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_HOLE = "\x00"
_CHUNK_STOP = " \t|"
_CHUNK_TRIM = "*_`()[]{},;:<>\"'"
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_LABEL = re.compile(r"^\s*(?:[-*]\s+|\d+\.\s+)?\*\*(?P<label>[^*]{1,60}?):?\*\*")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*?)\s*#*\s*$")
_VERSION = re.compile(
    r"(?<![\d.])v?\d+\.\d+\.\d+|\bv\d+(?:\.\d+)?\b"
    r"|\b(?i:jmh|jdk|java|jvm|version|perfproof|maven|gradle)\W{0,4}\d+(?:\.\d+)*"
)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b")
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b")
_URL = re.compile(r"\bhttps?://\S+|\]\([^)]*\)|(?<![\w&])#\d+\b")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_NOT_EVIDENCE = (
    (_CODE_SPAN, "code span"),
    (_URL, "link"),
    (_VERSION, "version"),
    (_DATE, "date"),
    (_HEX_ID, "commit id"),
)


@dataclass(frozen=True)
class Token:
    """One number of a line: its text and where it stands (0-based character offsets)."""

    text: str
    start: int
    end: int


def tokens(line: str) -> list[Token]:
    return [Token(m.group(0), m.start(), m.end()) for m in NUMBER.finditer(line)]


LINE_CACHE = 1 << 16
"""Lines whose count and skeleton are kept: a check compares the same written lines with
every rendering it tries, and most lines of a rendering with many pages, so each line's
numbers are found once."""


@functools.lru_cache(maxsize=LINE_CACHE)
def count(line: str) -> int:
    return len(NUMBER.findall(line))


@functools.lru_cache(maxsize=LINE_CACHE)
def skeleton(line: str) -> str:
    """The line with every number replaced by one placeholder character."""
    return NUMBER.sub(_HOLE, line)


def chunk(line: str, token: Token, width: int = 24) -> str:
    """The written word a number stands in, as a reader would quote it: ``-107.22%`` for the
    number ``-107.22``, ``9a8b7c6d5e4f`` for its ``9``; a long word is cut around it."""
    start, end = token.start, token.end
    while start > 0 and line[start - 1] not in _CHUNK_STOP and token.start - start < width:
        start -= 1
    while end < len(line) and line[end] not in _CHUNK_STOP and end - token.end < width:
        end += 1
    text = line[start:end]
    trimmed = text.strip(_CHUNK_TRIM)
    return trimmed if token.text in trimmed else text


class Layout:
    """Per line of a page: the heading above it and, for a body row of a pipe table, the
    table's header cells. Built in one pass, so naming where many numbers stand costs time in
    proportion to the page, not to the page times the numbers."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.headings: list[str] = []
        self.headers: list[list[str] | None] = []
        heading = ""
        header: list[str] | None = None
        for k, line in enumerate(lines):
            self.headings.append(heading)
            m = _HEADING.match(line)
            if m is not None:
                heading = m.group("text").replace("`", "")
            if not line.lstrip().startswith("|"):
                header = None
            elif k > 0 and _TABLE_RULE.match(line) and lines[k - 1].lstrip().startswith("|"):
                header = _cells(lines[k - 1])
                self.headers.append(None)
                continue
            self.headers.append(header)

    def where(self, index: int, token: Token) -> str:
        """Where a number stands, in the words of the page: the label of its line
        (``Summary``, ``JMH options``), or its table column and row under the heading above
        it, or that heading."""
        line, heading = self.lines[index], self.headings[index]
        if _HEADING.match(line):
            return "heading"
        label = _LABEL.match(line)
        if label is not None:
            return label.group("label").strip()
        header = self.headers[index]
        if header is not None:
            lead = line[: token.start]
            cell = len(re.findall(r"(?<!\\)\|", lead)) - (1 if line.lstrip().startswith("|") else 0)
            column = header[cell].strip().replace("`", "") if 0 <= cell < len(header) else ""
            first = _cells(line)[0].strip().replace("`", "")
            row = f", row {first}" if first else ""
            if column:
                return f"{heading}: column {column}{row}" if heading else f"column {column}{row}"
        return heading or "text"


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return re.split(r"(?<!\\)\|", body)


class Excuses:
    """Where in one line a number is no evidence (None: it is evidence and needs a tie): in a
    code block or span, a link, a version, a date, a commit id, a name (``x86_64``), or the
    value of one of the run's @Params (``n=128``, which names a benchmark entry). Each pattern
    is matched once per line, so a line of thousands of numbers is read in linear time."""

    def __init__(self, line: str, in_code: bool, params: Collection[str] = ()) -> None:
        self.line = line
        self.in_code = in_code
        self.cover: dict[int, tuple[int, str]] = {}
        """Start of a covered stretch → (its end, why), the widest stretch at each start."""
        if in_code:
            return
        for m in PARAM.finditer(line):
            if m.group("k") in params:
                self._add(m.start("v"), m.end("v"), "@Param value")
        for pattern, why in _NOT_EVIDENCE:
            for m in pattern.finditer(line):
                self._add(m.start(), m.end(), why)
        self.starts = sorted(self.cover)
        self.reach: list[tuple[int, str]] = []
        best = (-1, "")
        for start in self.starts:  # the furthest end of any stretch starting at or before
            best = max(best, self.cover[start])
            self.reach.append(best)

    def _add(self, start: int, end: int, why: str) -> None:
        if end > self.cover.get(start, (-1, ""))[0]:
            self.cover[start] = (end, why)

    def why(self, token: Token) -> str | None:
        if self.in_code:
            return "code block"
        k = bisect_right(self.starts, token.start) - 1
        if k >= 0 and self.reach[k][0] >= token.end:
            return self.reach[k][1]
        before = self.line[token.start - 1] if token.start else ""
        if before.isalpha() or before == "_":
            return "part of a name"
        return None

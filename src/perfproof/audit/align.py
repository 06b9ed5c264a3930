"""Pair a written report's lines with the lines perfproof renders for the run; compare numbers.

Lines are paired in two passes. Equal lines first: the common head and tail of the two pages
are set aside, and a line diff of what is left pairs the rest, so a report with one edited
number costs time in proportion to its length. Then, inside each region the diff could not
pair, lines with the same skeleton (the same words around other numbers) are paired in
order, and their numbers compared one by one: each that differs is a mismatch naming the
written number and the one perfproof renders for the run. A written line whose words were
edited is paired with the most similar of the next unpaired rendered lines of its region, and
its numbers are diffed against that line's. A number with no counterpart is *loose*: the
caller ties it to the run another way, or reports it. Lines without numbers are left alone.
In an edited line a commit id put in place of the rendered one is a mismatch too, and so is,
in a table row or the summary, a verdict word put in place of the rendered one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import islice

from perfproof.audit.numbers import Layout, Token, chunk, count, skeleton, tokens
from perfproof.audit.own import Rendering
from perfproof.audit.truth import Mismatch

HEADER_LINES = 10
"""Lines above a report's title that may still be a header someone put there."""
MOSTLY = 0.5
MOSTLY_LINES = 5
"""A page whose lines with numbers are at least this share (and this many) of a rendering's
own lines, verbatim, is that rendering, whatever its title says."""
SIMILAR = 0.6
"""How alike (difflib's ratio of the skeletons) an edited line and a rendered one must be."""
WINDOW = 8
"""How many of the next unpaired rendered lines an edited line is compared with."""
VERDICT = re.compile(
    r"\b(?:improved|regressed|same|negligible|inconclusive|faster|slower|vanished|appeared"
    r"|grew|shrank|no clear change|less|more|yes|no|PASS|FAIL)\b"
)
"""The words of a table row or summary line that state an outcome."""
COMMIT_ID = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b")
"""An abbreviated or full commit id (hex digits, at least one letter and one digit)."""
SHAPE_CHARS = 400
"""How much of a skeleton the similarity of two lines is judged on."""


@dataclass
class Alignment:
    """A written page against one rendering: what matched, what did not, what is loose."""

    rendering: Rendering
    verified: int = 0
    paired: dict[int, int] = field(default_factory=dict)
    """Written line → rendered line, for lines with the same skeleton (numbers compared)."""
    edited: set[int] = field(default_factory=set)
    mismatches: list[Mismatch] = field(default_factory=list)
    loose: dict[int, list[Token]] = field(default_factory=dict)
    layout: Layout | None = None

    def where(self, lines: Sequence[str], index: int, token: Token) -> str:
        """Where a number of the written page stands (its layout read once, when needed)."""
        if self.layout is None:
            self.layout = Layout(lines)
        return self.layout.where(index, token)


def _opener(line: str) -> str:
    """A line's skeleton with commit ids masked too: a title stays the title when one of
    its commit ids was edited (the edit is then reported, not the page read as hand-written)."""
    return skeleton(COMMIT_ID.sub("\x01", line))


def opens_like(written: Sequence[str], rendering: Rendering) -> bool:
    """Whether the written page opens as this rendering: the rendering's title stands among
    its first lines (a bot may put a header above it), or it opens with the rendering's
    summary line (``ab --format md`` starts there)."""
    top = [_opener(line) for line in islice((x for x in written if x.strip()), HEADER_LINES)]
    if not top:
        return False
    rendered = [line for line in rendering.lines if line.strip()]
    summary = next((line for line in rendered if line.startswith("**Summary:**")), None)
    if rendered and _opener(rendered[0]) in top:
        return True
    return summary is not None and _opener(summary) == top[0]


def choose(written: Sequence[str], options: Sequence[Rendering]) -> Rendering | None:
    """The rendering the written page was made as, if any: of those it opens like, or whose
    lines make most of its lines with numbers (a page whose title was edited by hand), the
    one sharing the most lines with it (whole lines first, then skeletons)."""
    best: tuple[int, int, Rendering] | None = None
    numbered = [line for line in written if count(line)]
    shapes = [skeleton(line) for line in written]
    for rendering in options:
        whole = sum(1 for line in numbered if line in rendering.line_set)
        mostly = whole >= MOSTLY * len(numbered) and whole >= MOSTLY_LINES
        if not (mostly or opens_like(written, rendering)):
            continue
        score = (whole, sum(1 for shape in shapes if shape in rendering.skeletons))
        if best is None or score > best[:2]:
            best = (*score, rendering)
    return best[2] if best is not None else None


def align(written: Sequence[str], rendering: Rendering) -> Alignment:
    """Pair ``written`` with ``rendering`` line by line and compare their numbers."""
    out = Alignment(rendering)
    lines, rendered = list(written), list(rendering.lines)
    n, m = len(lines), len(rendered)
    head = 0
    while head < min(n, m) and lines[head] == rendered[head]:
        head += 1
    tail = 0
    while tail < min(n, m) - head and lines[n - 1 - tail] == rendered[m - 1 - tail]:
        tail += 1
    for k in [*range(head), *range(n - tail, n)]:
        _equal(out, lines, k, k + (m - n if k >= head else 0))
    middle = SequenceMatcher(None, lines[head : n - tail], rendered[head : m - tail])
    for tag, i1, i2, j1, j2 in middle.get_opcodes():
        if tag == "equal":
            for d in range(i2 - i1):
                _equal(out, lines, head + i1 + d, head + j1 + d)
        else:
            _region(out, lines, rendered, (head + i1, head + i2), (head + j1, head + j2))
    return out


def _equal(out: Alignment, lines: list[str], i: int, j: int) -> None:
    out.paired[i] = j
    out.verified += count(lines[i])


def _region(
    out: Alignment,
    lines: list[str],
    rendered: list[str],
    mine: tuple[int, int],
    theirs: tuple[int, int],
) -> None:
    """Lines the line diff left unpaired: same skeletons first, then edited lines."""
    a0, b0 = mine[0], theirs[0]
    shapes = SequenceMatcher(
        None,
        [skeleton(x) for x in lines[mine[0] : mine[1]]],
        [skeleton(x) for x in rendered[theirs[0] : theirs[1]]],
    )
    for tag, i1, i2, j1, j2 in shapes.get_opcodes():
        if tag == "equal":
            for d in range(i2 - i1):
                i, j = a0 + i1 + d, b0 + j1 + d
                out.paired[i] = j
                _compare(out, lines, i, rendered[j])
            continue
        free = list(range(b0 + j1, b0 + j2))
        for i in range(a0 + i1, a0 + i2):
            found = tokens(lines[i])
            if not found:
                continue  # no number to compare: words alone are the caller's to read
            like = _similar(lines[i], rendered, free)
            if like is None:
                out.loose[i] = found
                continue
            free = [k for k in free if k > like]
            out.edited.add(i)
            _diff(out, lines, i, rendered[like])
            _words(out, lines, i, rendered[like])


def _similar(line: str, rendered: list[str], free: list[int]) -> int | None:
    """The most similar of the next few free rendered lines, if similar enough. Only a few
    are tried, each on a bounded prefix, with difflib's cheap upper bounds first: a page with
    thousands of added lines is still read in time proportional to its length."""
    if not free:
        return None
    shape = skeleton(line)[:SHAPE_CHARS]
    pair = SequenceMatcher(None, b=shape, autojunk=False)  # the line's own index, built once
    best: tuple[float, int] | None = None
    for j in free[:WINDOW]:
        other = skeleton(rendered[j])[:SHAPE_CHARS]
        if 2 * min(len(other), len(shape)) < SIMILAR * (len(other) + len(shape)):
            continue  # difflib's real_quick_ratio, without building anything
        pair.set_seq1(other)
        if pair.quick_ratio() < SIMILAR:
            continue
        ratio = pair.ratio()
        if ratio >= SIMILAR and (best is None or ratio > best[0]):
            best = (ratio, j)
    return best[1] if best is not None else None


def _compare(out: Alignment, lines: list[str], i: int, theirs: str) -> None:
    """Same skeleton: the numbers stand in the same places, compared in order."""
    for mine, their in zip(tokens(lines[i]), tokens(theirs), strict=True):
        _one(out, lines, i, mine, theirs, their)


def _diff(out: Alignment, lines: list[str], i: int, theirs: str) -> None:
    """An edited line: its numbers diffed against the rendered line's, in order."""
    mine, their = tokens(lines[i]), tokens(theirs)
    ops = SequenceMatcher(None, [t.text for t in mine], [t.text for t in their], False)
    for tag, i1, i2, j1, j2 in ops.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for d in range(i2 - i1):
                _one(out, lines, i, mine[i1 + d], theirs, their[j1 + d])
        elif i2 > i1:
            out.loose.setdefault(i, []).extend(mine[i1:i2])


def _words(out: Alignment, lines: list[str], i: int, theirs: str) -> None:
    """An edited line: a commit id put in place of the rendered one names another commit;
    in a table row or the summary, a verdict word put in place of the rendered one
    (``regressed`` made ``improved``, ``yes`` made ``no``) says what the run does not."""
    _replaced(out, lines, i, theirs, COMMIT_ID, "commit")
    line = lines[i].lstrip()
    if line.startswith("|") or line.startswith("**Summary:**"):
        _replaced(out, lines, i, theirs, VERDICT, "word")


def _replaced(
    out: Alignment, lines: list[str], i: int, theirs: str, pattern: re.Pattern[str], kind: str
) -> None:
    mine = list(pattern.finditer(lines[i]))
    their = [m.group(0) for m in pattern.finditer(theirs)]
    ops = SequenceMatcher(None, [m.group(0) for m in mine], their, False)
    for tag, i1, i2, j1, j2 in ops.get_opcodes():
        if tag != "replace":
            continue  # a word added or left out is prose; one put in another's place is not
        for m, expected in zip(mine[i1:i2], their[j1:j2], strict=False):
            written = m.group(0)
            place = out.where(lines, i, Token(written, m.start(), m.end()))
            out.mismatches.append(
                Mismatch(
                    i + 1,
                    kind,
                    written,
                    expected,
                    f"{place}: quoted {written!r}, perfproof's {out.rendering.name} of this "
                    f"run has {expected!r}",
                )
            )


def _one(out: Alignment, lines: list[str], i: int, mine: Token, theirs: str, their: Token) -> None:
    if mine.text == their.text:
        out.verified += 1
        return
    written, expected = chunk(lines[i], mine), chunk(theirs, their)
    name = out.rendering.name
    out.mismatches.append(
        Mismatch(
            i + 1,
            "number",
            written,
            expected,
            f"{out.where(lines, i, mine)}: quoted {written}, perfproof's {name} of this run "
            f"has {expected}",
        )
    )

"""A PR body as Markdown blocks, read with a CommonMark + GFM-tables parser (markdown-it-py).

The parser finds what a hand-rolled line scanner misses: tables without a leading ``|``,
fences of any length or kind (```` ``` ````, ``~~~``, indented code), escaped pipes inside a
cell, HTML blocks. This module walks its block tokens in order and hands each block to the
reader for its kind (prose, table, console), keeping the running context a reader relies on:
the benchmark and @Param values named by the last heading, and the side a caption named
(``**Baseline, round 01**``). The parser is linear in the text, and so is every reader.
"""

from __future__ import annotations

import functools
import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

from perfproof.audit.quotes.console import code_block
from perfproof.audit.quotes.model import Claim, Parsed, Quote
from perfproof.audit.quotes.prose import is_caption, prose_line
from perfproof.audit.quotes.tables import columns, table_row
from perfproof.audit.quotes.words import OVERLAP_CLAIM, Names, side_of

_BREAK = re.compile(r"<br\s*/?>", re.I)


@functools.cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def plain(inline: Token, br: str = " ") -> str:
    """The text of an inline token as a reader sees it: markup gone, escapes and entities
    resolved, code spans kept as their text, soft and hard breaks as newlines."""
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type == "html_inline":
            parts.append(br if _BREAK.fullmatch(child.content.strip()) else "")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts)


class _Reader:
    """The running context of one document while its blocks are read in order."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.quotes: list[Quote] = []
        self.claims: list[Claim] = []
        self.bench: str | None = None
        self.params: dict[str, str] = {}
        self.side: str | None = None
        self.group = 0

    def heading(self, text: str) -> None:
        mentions = list(self.names.mentions(text))
        self.bench = mentions[0][1] if mentions else None
        self.params = {k: v for _, k, v in self.names.params(text)}
        self.side = side_of(text)

    def prose(self, text: str, raw: str, line: int) -> None:
        stripped = raw.strip()
        if is_caption(stripped) or (stripped and not re.search(r"\d", stripped)):
            # "**Baseline, round 01**", "After:" or a short line naming one side
            hint = side_of(stripped) if len(stripped) < 100 else None
            if hint:
                self.side = hint
        self.group += 1
        self.quotes += prose_line(text, line, self.names, self.bench, self.params, self.group)
        if OVERLAP_CLAIM.search(text):
            mentions = list(self.names.mentions(text))
            params = {**self.params, **{k: v for _, k, v in self.names.params(text)}}
            bench = mentions[0][1] if mentions else self.bench
            self.claims.append(Claim(line, stripped, bench, params))

    def table(self, header: list[str], rows: list[tuple[int, list[str]]]) -> None:
        cols = columns(header, self.names)
        for line, cells in rows:
            self.group += 1
            found = table_row(cells, cols, line, self.names, self.side, self.group)
            for q in found:
                q.benchmark = q.benchmark or self.bench
                q.params = {**self.params, **q.params}
            self.quotes += found
            text = " | ".join(cells)
            if OVERLAP_CLAIM.search(text):
                bench = found[0].benchmark if found else self.bench
                params = found[0].params if found else self.params
                self.claims.append(Claim(line, text.strip(), bench, params))

    def code(self, lines: list[str], first_line: int) -> None:
        found, self.group = code_block(lines, first_line, self.names, self.side, self.group)
        self.quotes += found


def _table(tokens: list[Token], i: int) -> tuple[list[str], list[tuple[int, list[str]]], int]:
    """Header cells, (line, cells) per body row, and the index after ``table_close``."""
    header: list[str] = []
    rows: list[tuple[int, list[str]]] = []
    in_head = False
    row: list[str] = []
    line = 0
    while tokens[i].type != "table_close":
        t = tokens[i]
        if t.type == "thead_open":
            in_head = True
        elif t.type == "thead_close":
            in_head = False
        elif t.type == "tr_open":
            row, line = [], (t.map[0] + 1 if t.map else 0)
        elif t.type == "inline":
            row.append(plain(t, br="\n"))
        elif t.type == "tr_close":
            if in_head:
                header = row
            else:
                rows.append((line, row))
        i += 1
    return header, rows, i + 1


def parse(text: str, names: Names) -> Parsed:
    """All quotes and overlap claims of a Markdown document, line numbers 1-based."""
    tokens = _parser().parse(text)
    reader = _Reader(names)
    code: set[int] = set()
    i = 0
    while i < len(tokens):
        t = tokens[i]
        first = t.map[0] + 1 if t.map else 0
        if t.type == "heading_open":
            reader.heading(plain(tokens[i + 1]))
            i += 3
            continue
        if t.type == "paragraph_open":
            inline = tokens[i + 1]
            raw_lines = inline.content.split("\n")
            for k, line_text in enumerate(plain(inline).split("\n")):
                raw = raw_lines[k] if k < len(raw_lines) else line_text
                reader.prose(line_text, raw, first + k)
            i += 3
            continue
        if t.type == "table_open":
            header, rows, i = _table(tokens, i)
            reader.table(header, rows)
            continue
        if t.type in ("fence", "code_block"):
            reader.code(t.content.split("\n"), first + (1 if t.type == "fence" else 0))
            if t.map:
                code.update(range(t.map[0], t.map[1]))
        elif t.type == "html_block":
            for k, raw in enumerate(t.content.split("\n")):
                reader.prose(raw, raw, first + k)
        i += 1
    return Parsed(reader.quotes, reader.claims, code)

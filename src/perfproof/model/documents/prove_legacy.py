"""The profile tables of prove bundles written before their rows were kept typed.

Such a ``prove.json`` holds the profile diff's tables only as the Markdown ``profile diff``
rendered (``diff_md``); its ``diff`` document keeps the first rows across both kinds, fewer than
the tables show. Its report, and ``check`` of that report, still need those tables as they were,
so this reader takes them out of that Markdown. A bundle written now keeps the rows each table
shows (``tables``) and the report renders them from the typed diff; this module goes when
bundles without them are no longer read.
"""

from __future__ import annotations

import re

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def split_sections(markdown: str) -> dict[str, str]:
    """Top-level sections of a Markdown report by lower-cased heading (sub-headings stay in
    their section); the text before the first heading is under ``""``."""
    lines = markdown.splitlines()
    levels = [len(m.group(1)) for line in lines if (m := _HEADING.match(line))]
    top = sorted(set(levels))[1] if len(set(levels)) > 1 else (levels[0] if levels else 1)
    out: dict[str, list[str]] = {"": []}
    current = ""
    fence = False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        m = None if fence else _HEADING.match(line)
        if m and len(m.group(1)) <= top:
            current = m.group(2).lower()
            out[current] = []
            continue
        out.setdefault(current, []).append(line)
    return {k: "\n".join(v).strip() + "\n" for k, v in out.items()}


def legacy_table(diff_md: str, kind: str) -> list[str]:
    """The CPU (``cpu``) or the allocation (``alloc``) part of ``profile diff``'s Markdown."""
    sections = split_sections(diff_md)
    key = "alloc" if kind == "alloc" else "cpu"
    text = next((v for k, v in sections.items() if k.startswith(key) or key in k), None)
    return text.strip().splitlines() if text else []

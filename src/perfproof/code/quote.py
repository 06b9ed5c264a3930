"""The line of source a finding quotes, bounded so output stays linear in the findings.

Generated or minified Java can put thousands of calls on one 150 KB line; quoting the whole
line for every site made ``callers`` print gigabytes. A quote keeps the part of the line
around the site's column and marks what it cut.
"""

from __future__ import annotations

MAX_QUOTE = 160
"""Longest quote, in characters: a long real statement fits, a generated line does not."""

ELLIPSIS = "…"


def quote(line: str, column: int = 0, limit: int = MAX_QUOTE) -> str:
    """``line`` stripped; past ``limit`` characters, a window of them around ``column``."""
    lead = len(line) - len(line.lstrip())
    text = line.strip()
    if len(text) <= limit:
        return text
    at = max(0, min(len(text), column - lead))
    start = max(0, min(at - limit // 3, len(text) - limit))
    end = start + limit
    return (ELLIPSIS if start > 0 else "") + text[start:end] + (ELLIPSIS if end < len(text) else "")

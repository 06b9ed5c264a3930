"""The one Markdown table writer of every perfproof output: cells escaped so a value holding
``|`` or a line break cannot split a row or end the table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def md_cell(text: object) -> str:
    """One GitHub table cell: ``|`` escaped, line breaks as ``<br>``, so a parameter value
    holding either cannot split a row or end the table."""
    s = str(text).replace("\\", "\\\\").replace("|", "\\|")
    return s.replace("\r\n", "<br>").replace("\n", "<br>").replace("\r", "<br>")


def md_text(text: object) -> str:
    """Text outside a table (a list item, a footnote) kept on one line."""
    return " ".join(str(text).splitlines())


def markdown_table(
    headers: Sequence[str], rows: Iterable[Sequence[object]], align: Sequence[str] | None = None
) -> list[str]:
    """A GitHub-flavoured Markdown table as lines; ``align`` holds ``l``, ``r`` or ``c`` per
    column (default: left). Every cell, headers included, goes through :func:`md_cell`."""
    marks = {"l": ":---", "r": "---:", "c": ":---:", "": "---"}
    align = list(align) if align is not None else ["" for _ in headers]
    if len(align) != len(headers):
        raise ValueError("one alignment per column")
    lines = [
        "| " + " | ".join(md_cell(h) for h in headers) + " |",
        "|" + "|".join(marks[a] for a in align) + "|",
    ]
    for row in rows:
        cells = list(row)
        if len(cells) != len(headers):
            raise ValueError(f"row has {len(cells)} cells, the table {len(headers)} columns")
        lines.append("| " + " | ".join(md_cell(c) for c in cells) + " |")
    return lines

"""Per-key tables a reviewer can tell apart: the @Param values as columns of their own, and
a column that says the same thing on every row taken out of the table into one line above
it (eight rows of one benchmark reached by one call path read as eight copies otherwise)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

Row = tuple[str, ...]


def param_names(params: Sequence[Mapping[str, str]]) -> list[str]:
    """Every @Param name of the rows, in first-seen order."""
    names: list[str] = []
    for p in params:
        names += [n for n in p if n not in names]
    return names


def param_cells(params: Mapping[str, str], names: Sequence[str]) -> Row:
    return tuple(f"`{params[n]}`" if n in params else "–" for n in names)


def collapse(
    header: Row, rows: Sequence[Row], keep: Collection[int] = (0,)
) -> tuple[Row, list[Row], list[str]]:
    """``header`` and ``rows`` without the columns (other than those at ``keep``) that hold
    one value on every one of two or more rows, and a ``Name: value`` note for each."""
    if len(rows) < 2:
        return header, list(rows), []
    same = [i for i in range(len(header)) if i not in keep and len({r[i] for r in rows}) == 1]
    notes = [f"{header[i]}: {rows[0][i]}" for i in same]
    kept = [i for i in range(len(header)) if i not in same]
    return tuple(header[i] for i in kept), [tuple(r[i] for i in kept) for r in rows], notes


def every_row(notes: Sequence[str]) -> list[str]:
    """The collapsed columns as one line over the table."""
    if not notes:
        return []
    return ["Every row: " + "; ".join(notes) + ".", ""]

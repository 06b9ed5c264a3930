"""Census and diff as versioned JSON documents, terminal tables or Markdown."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TypeVar

from perfproof.model.documents.codec import as_written, by_name
from perfproof.model.documents.profile_diff import DIFF_SCHEMA, DiffRowDoc, ProfileDiffDoc
from perfproof.profile.census import Census, CensusDoc, Totals
from perfproof.profile.diff import DiffRow, ProfileDiff
from perfproof.units import percent

CENSUS_SCHEMA = "perfproof.profile/1"


def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


R = TypeVar("R")


def _top(rows: list[R], top: int) -> list[R]:
    """The first ``top`` rows of the code under test, and always the "outside" rows."""
    if top <= 0:
        return rows
    inside = [r for r in rows if not getattr(r, "outside", False)]
    return inside[:top] + [r for r in rows if getattr(r, "outside", False)]


def census_json(c: Census, top: int = 0) -> dict[str, object]:
    """The census as ``profile census --format json`` prints it (``top``: the first rows of
    each table, and the "outside" rows)."""
    doc = CensusDoc(
        schema=CENSUS_SCHEMA,
        recordings=c.sources,
        focus=list(c.focus),
        totals=Totals(c.cpu_samples, c.alloc_bytes, c.alloc_source),
        alloc=_top(c.alloc, top),
        cpu=_top(c.cpu, top),
        focus_frames=[
            r
            for kind in ("cpu", "alloc")
            for r in _top([f for f in c.focus_rows if f.kind == kind], top)
        ],
        warnings=list(c.warnings),
    )
    return as_written(doc)


def diff_doc(d: ProfileDiff, top: int = 0) -> ProfileDiffDoc:
    """The diff as its typed document: every row (``top``: the first of the code under test,
    and the row outside it)."""
    return ProfileDiffDoc.model_validate(
        {
            "schema": DIFF_SCHEMA,
            "before": list(d.before_sources),
            "after": list(d.after_sources),
            "focus": list(d.focus),
            "unit": _units(d),
            "confidence": d.confidence,
            "rows": [_row_doc(r) for r in _top(d.rows, top)],
            "warnings": list(d.warnings),
        }
    )


def _row_doc(r: DiffRow) -> DiffRowDoc:
    return DiffRowDoc.model_validate(
        {
            **by_name(DiffRowDoc, r),
            "class": r.cls,
            "ci": _pair(r.ci),
            "change_pct": _num(r.change_pct),
            "p_value": _num(r.p_value),
            "shares": _pair(r.shares),
            "before": list(r.before),
            "after": list(r.after),
        }
    )


def _pair(pair: tuple[float, float] | None) -> list[float | None] | None:
    return None if pair is None else [_num(pair[0]), _num(pair[1])]


def diff_json(d: ProfileDiff, top: int = 0) -> dict[str, object]:
    """:func:`diff_doc` as ``profile diff --format json`` prints it."""
    return diff_doc(d, top).model_dump(mode="json", by_alias=True)


def _units(d: ProfileDiff) -> dict[str, str]:
    if d.normalized:
        return {"cpu": "% of samples", "alloc": "% of bytes"}
    if d.per_second:
        return {"cpu": "samples/s", "alloc": "bytes/s"}
    if d.per_operation:
        return {"cpu": "samples/op", "alloc": "bytes/op"}
    return {"cpu": "samples", "alloc": "bytes"}


# ---- human formats -------------------------------------------------------------------------


def human_bytes(n: float) -> str:
    sign = "-" if n < 0 else ""
    n = abs(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{sign}{n:.0f} {unit}" if unit == "B" else f"{sign}{n:.1f} {unit}"
        n /= 1024
    return f"{sign}{n:.1f} TiB"  # pragma: no cover


def _pct(x: float) -> str:
    return percent(100 * x, 1, sign=False)


def _ceiling(x: float | None) -> str:
    if x is None:
        return "∞"
    return f"×{1 + x:.0f}" if x >= 9 else percent(100 * x, 1)


def _short(name: str | None, width: int = 60) -> str:
    if name is None:
        return "-"
    return name if len(name) <= width else "…" + name[-(width - 1) :]


def _table(headers: list[str], rows: list[list[str]], md: bool, right: set[int]) -> list[str]:
    if md:
        cells = [[c.replace("|", "\\|") for c in r] for r in rows]
        out = ["| " + " | ".join(headers) + " |"]
        out.append(
            "|" + "|".join("---:" if i in right else "---" for i in range(len(headers))) + "|"
        )
        out += ["| " + " | ".join(r) + " |" for r in cells]
        return out
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _share_cells(share: float, ceiling: float | None) -> list[str]:
    return [_pct(share), _ceiling(ceiling)]


def _section(
    out: list[str],
    md: bool,
    title: str,
    headers: list[str],
    cells: list[list[str]],
    right: set[int],
) -> None:
    """A ranked table (``#`` first, share and ceiling last) under its title."""
    out.append(f"{'### ' if md else ''}{title}")
    n = len(headers)
    rows = [[str(i), *c] for i, c in enumerate(cells, 1)]
    out += _table(["#", *headers, "share", "ceiling"], rows, md, {0, *right, n + 1, n + 2})
    out.append("")


def census_text(c: Census, top: int = 20, md: bool = False) -> str:
    width = 10_000 if md else 60
    out: list[str] = []
    head = "## " if md else ""
    recs = ", ".join(c.sources)
    out.append(f"{head}Profile census of {recs}")
    if c.focus:
        out.append(f"focus: {', '.join(c.focus)}")
    out.append("")
    if c.alloc:
        title = f"Allocation by site ({human_bytes(c.alloc_bytes)} from {c.alloc_source})"
        cells = [
            [
                _short(r.frame, width),
                _short(r.focus_frame, width),
                r.cls,
                human_bytes(r.bytes),
                *_share_cells(r.share, r.amdahl_ceiling),
            ]
            for r in _top(c.alloc, top)
        ]
        _section(out, md, title, ["frame", "focus frame", "class", "bytes"], cells, {4})
    if c.cpu:
        cells = [
            [
                _short(r.frame, width),
                _short(r.focus_frame, width),
                str(r.self),
                str(r.total),
                *_share_cells(r.share, r.amdahl_ceiling),
            ]
            for r in _top(c.cpu, top)
        ]
        title = f"CPU by method ({c.cpu_samples} samples)"
        _section(out, md, title, ["frame", "focus frame", "self", "total"], cells, {3, 4})
    for kind in ("alloc", "cpu"):
        frows = [r for r in c.focus_rows if r.kind == kind]
        if not frows:
            continue
        label = "Allocation" if kind == "alloc" else "CPU"
        title = f"{label} by focus frame (leaf-most frame in {', '.join(c.focus)})"
        fmt = human_bytes if kind == "alloc" else (lambda v: f"{v:.0f}")
        cells = [
            [
                _short(r.frame, width),
                fmt(r.self),
                fmt(r.total),
                *_share_cells(r.share, r.amdahl_ceiling),
            ]
            for r in _top(frows, top)
        ]
        _section(out, md, title, ["focus frame", "self", "total"], cells, {2, 3})
    out.append("ceiling: whole-program gain if that row's cost went to zero (Amdahl).")
    out += [f"warning: {w}" for w in c.warnings]
    return "\n".join(out).rstrip() + "\n"


def _share_pair(shares: tuple[float, float]) -> str:
    return f"{shares[0]:.1f}% → {shares[1]:.1f}%"


def shown_rows(d: ProfileDiff, top: int = 20) -> dict[str, list[DiffRow]]:
    """The rows each kind's table shows, by kind (CPU first): the first ``top`` of the code
    under test and the "outside" row, without a frame's "(all classes)" row where it only
    repeats its one class row."""
    classes: dict[tuple[str, str | None], int] = {}
    for r in d.rows:
        if r.kind == "alloc" and r.cls is not None:
            classes[(r.frame, r.focus_frame)] = classes.get((r.frame, r.focus_frame), 0) + 1
    out: dict[str, list[DiffRow]] = {}
    for kind in ("cpu", "alloc"):
        shown = [
            r
            for r in d.rows
            if r.kind == kind
            and not (
                kind == "alloc" and r.cls is None and classes.get((r.frame, r.focus_frame)) == 1
            )
        ]
        if kind in d.kinds and shown:
            out[kind] = _top(shown, top)
    return out


def diff_table(d: ProfileDiff, kind: str, rows: list[DiffRow], md: bool = False) -> list[str]:
    """One kind's table of ``rows`` (as :func:`shown_rows` chose them), without its title."""
    width = 10_000 if md else 55
    level = f"{100 * d.confidence:g}%"

    def val(v: float) -> str:
        if d.normalized:
            return f"{v:.2f}%"
        per = "/s" if d.per_second else "/op" if d.per_operation else ""
        return (human_bytes(v) if kind == "alloc" else f"{v:.1f}") + per

    cells_of = []
    for r in rows:
        ci = "-" if r.ci is None else f"[{val(r.ci[0])}, {val(r.ci[1])}]"
        pct = "" if r.change_pct is None else f" ({r.change_pct:+.0f}%)"
        cells = [_short(r.frame, width), _short(r.focus_frame, width)]
        if kind == "alloc":
            cells.append(r.cls or "(all classes)")
        cells += [val(r.before_mean), val(r.after_mean), val(r.change) + pct, ci]
        if d.with_shares:
            cells.append("-" if r.shares is None else _share_pair(r.shares))
        cells.append(r.status)
        cells_of.append(cells)
    headers = ["frame", "focus frame"] + (["class"] if kind == "alloc" else [])
    headers += ["before", "after", "change", f"{level} CI"]
    headers += ["share"] if d.with_shares else []
    headers += ["status"]
    first = len(headers) - (6 if d.with_shares else 5)
    return _table(headers, cells_of, md, {first, first + 1, first + 2})


DIFF_TITLES = {"cpu": "CPU samples", "alloc": "Allocated bytes"}


def diff_notes(d: ProfileDiff) -> list[str]:
    """What the values are and how the interval was made, then the diff's warnings."""
    unit = (
        "share of each recording's total"
        if d.normalized
        else "mean CPU samples / allocated bytes per second of recording, with each "
        "recording's share of its total beside them"
        if d.per_second
        else "mean allocated bytes per benchmark operation (each fork's share of its bytes × "
        "the bytes per operation JMH measured in that fork), with the shares beside them"
        if d.per_operation
        else "mean CPU samples / allocated bytes per recording"
    )
    across = "forks" if d.per_operation else "recordings"
    out = [f"values: {unit}; CI: Welch t interval of the change across {across}."]
    return out + [f"warning: {w}" for w in d.warnings]


def diff_text(d: ProfileDiff, top: int = 20, md: bool = False) -> str:
    out: list[str] = []
    head = "## " if md else ""
    out.append(
        f"{head}Profile diff: {len(d.before_sources)} recording(s) before, "
        f"{len(d.after_sources)} after"
    )
    if d.focus:
        out.append(f"focus: {', '.join(d.focus)}")
    out.append("")
    for kind, rows in shown_rows(d, top).items():
        out.append(f"{'### ' if md else ''}{DIFF_TITLES[kind]}")
        out += diff_table(d, kind, rows, md)
        out.append("")
    out += diff_notes(d)
    return "\n".join(out).rstrip() + "\n"


def read_diff(doc: ProfileDiffDoc) -> ProfileDiff:
    """A diff document (:func:`diff_doc`) back as the diff it was written from: what a report
    renders the diff's tables from. A bound written as null (not finite) reads back as NaN."""

    def num(x: float | None) -> float:
        return math.nan if x is None else float(x)

    def pair(x: tuple[float | None, float | None] | None) -> tuple[float, float] | None:
        return None if x is None else (num(x[0]), num(x[1]))

    rows = [
        DiffRow(
            kind=r.kind,
            frame=r.frame,
            focus_frame=r.focus_frame,
            cls=r.class_,
            before=tuple(float(v) for v in r.before),
            after=tuple(float(v) for v in r.after),
            before_mean=num(r.before_mean),
            after_mean=num(r.after_mean),
            change=num(r.change),
            ci=pair(r.ci),
            p_value=r.p_value,
            shares=pair(r.shares),
        )
        for r in doc.rows
    ]
    unit = doc.unit.get("cpu")
    return ProfileDiff(
        before_sources=list(doc.before),
        after_sources=list(doc.after),
        focus=tuple(doc.focus),
        kinds=tuple(k for k in ("cpu", "alloc") if any(r.kind == k for r in rows)),
        normalized=unit == "% of samples",
        confidence=doc.confidence,
        rows=rows,
        warnings=list(doc.warnings),
        per_second=unit == "samples/s",
        per_operation=unit == "samples/op",
    )


def shown_doc(d: ProfileDiff, top: int = 20) -> ProfileDiffDoc:
    """The diff document of only the rows its tables show (:func:`shown_rows`), in their
    order: :func:`read_diff` of it gives the same tables."""
    shown = shown_rows(d, top)
    rows = [r for kind_rows in shown.values() for r in kind_rows]
    return diff_doc(replace(d, rows=rows, kinds=tuple(shown)))

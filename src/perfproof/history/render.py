"""The history's series and change points as a terminal table or a JSON document.

The JSON documents (``perfproof.history/1`` for ``show``, ``perfproof.changes/1`` for
``changes``, typed in :mod:`perfproof.model.documents.history`) carry the same numbers the
table prints. The HTML page is ``page``'s job.

Every output names the machine of each series once any run carries a machine name, and says so
when the selection spans several machines: their series are shown side by side, never pooled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from pydantic import JsonValue
from rich.markup import escape

from perfproof.history.analysis import Change, key_scale, summarise
from perfproof.history.records import Record
from perfproof.history.store import Point, Series
from perfproof.model.documents.codec import Document, by_name
from perfproof.model.documents.history import (
    ChangeDoc,
    ChangesDocument,
    ChangeSearch,
    HistoryDocument,
    KeyDoc,
    PointDoc,
    RecordDocument,
    RecordedDoc,
    SeriesDoc,
)
from perfproof.units import Scale, delta_with_interval, scaled, short_sha

if TYPE_CHECKING:
    from rich.console import Console


UNNAMED = "(unnamed)"


def machines(series: Sequence[Series]) -> list[str | None]:
    """The machine names the series span (None: unnamed runs), in the series' order."""
    return list(dict.fromkeys(s.machine for s in series))


def named(series: Sequence[Series]) -> bool:
    """Whether any series carries a machine name (then every title says its machine)."""
    return any(s.machine is not None for s in series)


def series_title(s: Series, with_machine: bool) -> str:
    """``fx.Codes.sum(n=16) [avgt]``, with ``on ci-large`` when machines are shown."""
    if not with_machine:
        return s.key.label()
    return f"{s.key.label()} on {UNNAMED if s.machine is None else s.machine}"


def machines_note(series: Sequence[Series], chosen: str | None) -> str | None:
    """The line saying which machines the output holds; None for an all-unnamed history."""
    if chosen is not None:
        return f"machine: {chosen}"
    names = machines(series)
    if len(names) > 1:
        listed = ", ".join(UNNAMED if n is None else n for n in names)
        return (
            f"{len(names)} machines ({listed}): each series holds one machine's runs, never "
            "pooled; --machine NAME shows one"
        )
    return None


def _key_doc(s: Series) -> KeyDoc:
    return KeyDoc.model_validate(_key_fields(KeyDoc, s))


def _change_doc(c: Change) -> ChangeDoc:
    p = c.point
    return ChangeDoc.model_validate(
        {**_key_fields(ChangeDoc, c.series, c, p), "run": p.run_id or p.run_uid}
    )


def _recorded_doc(r: Recorded) -> RecordedDoc:
    rec = r.record
    return RecordedDoc.model_validate(
        {
            **by_name(RecordedDoc, r, rec),
            "base_commit": rec.base.sha,
            "time": rec.run_time,
            "keys": len({s.key for s in rec.samples if s.side == "head"}),
            "rows": len(rec.samples),
            "comparisons": len(rec.comparisons),
        }
    )


def _key_fields(kind: type[Document], s: Series, *more: object) -> dict[str, object]:
    """The fields of ``kind`` a series and ``more`` values hold by name, its key's first."""
    return {**by_name(kind, s.key, s, *more), "params": s.key.params_dict}


def _point(p: Point, confidence: float) -> PointDoc:
    summary = summarise(p, confidence)
    return PointDoc.model_validate(
        {
            **by_name(PointDoc, p),
            "run": p.run_id or p.run_uid,
            "uid": p.run_uid,
            "estimate": summary.mean,
            "ci": (summary.lo, summary.hi),
            "forks": summary.forks,
            "fork_means": [float(v) for v in p.fork_means()],
        }
    )


def history_document(
    series: Sequence[Series], confidence: float, machine: str | None = None
) -> dict[str, JsonValue]:
    """``machine`` is the ``--machine`` filter (None: every machine, each in its own series)."""
    keys = [
        SeriesDoc(**_key_doc(s).model_dump(), points=[_point(p, confidence) for p in s.points])
        for s in series
    ]
    doc = HistoryDocument(
        confidence=confidence, machine=machine, machines=machines(series), keys=keys
    )
    return doc.model_dump(mode="json", by_alias=True)


def changes_document(
    changes: Sequence[Change],
    keys: int,
    options: ChangeSearch,
    series: Sequence[Series] = (),
) -> dict[str, JsonValue]:
    """``keys`` counts series (one key on one machine); ``series`` gives ``machines``."""
    doc = ChangesDocument(
        options=options,
        keys=keys,
        machines=machines(series),
        changes=[_change_doc(c) for c in changes],
    )
    return doc.model_dump(mode="json", by_alias=True)


@dataclass(frozen=True)
class Recorded:
    """One argument of ``history record`` and what became of it."""

    source: str
    """The RUN_DIR or JMH file as given."""
    record: Record
    new: bool
    """False: a record with its uid was there already (nothing changed)."""
    machine: str | None
    """The machine name the run is stored under (a record met again keeps its first name)."""


def record_document(database: str, backend: str, done: Sequence[Recorded]) -> dict[str, JsonValue]:
    """``history record --format json``: the database (password hidden) and every record."""
    doc = RecordDocument(
        database=database,
        backend=backend,
        recorded=sum(1 for r in done if r.new),
        already_recorded=sum(1 for r in done if not r.new),
        records=[_recorded_doc(r) for r in done],
    )
    return doc.model_dump(mode="json", by_alias=True)


def _ci_text(lo: float | None, hi: float | None, scale: Scale) -> str:
    if lo is None or hi is None:
        return "n/a (1 fork)"
    return f"[{scaled(lo, scale)}, {scaled(hi, scale)}]"


def _console(width: int, file: TextIO | None) -> Console:
    """The terminal, or ``file`` (``--out``) as plain text at the same width."""
    from rich.console import Console

    if file is None:
        return Console(width=max(Console().width, width))
    return Console(file=file, width=width, no_color=True, force_terminal=False)


def print_history(
    series: Sequence[Series],
    confidence: float,
    file: TextIO | None = None,
    machine: str | None = None,
) -> None:
    from rich.table import Table

    console = _console(110, file)
    if not series:
        console.print("no recorded results match")
        return
    note = machines_note(series, machine)
    if note:
        console.print(escape(note))
    with_machine = named(series)
    for s in series:
        title = f"{series_title(s, with_machine)} ({s.unit}, {s.direction} is better)"
        table = Table(title=escape(title))
        for header in ("time", "commit", "branch", "estimate", f"{confidence:.0%} CI", "forks"):
            table.add_column(header, no_wrap=header != "branch")
        scale = key_scale(s)
        for p in s.points:
            summary = summarise(p, confidence)
            table.add_row(
                p.time,
                short_sha(p.commit),
                p.branch or "",
                scaled(summary.mean, scale),
                _ci_text(summary.lo, summary.hi, scale),
                str(summary.forks),
            )
        console.print(table)


def print_changes(
    changes: Sequence[Change],
    series: Sequence[Series],
    file: TextIO | None = None,
    machine: str | None = None,
) -> None:
    """``series`` are all the series searched (one key on one machine each)."""
    from rich.table import Table

    console = _console(140, file)
    note = machines_note(series, machine)
    if note:
        console.print(escape(note))
    keys = len(series)
    if not changes:
        console.print(f"no significant shift in {keys} key(s)")
        return
    table = Table(title=f"{len(changes)} shift(s) in {keys} key(s)")
    with_machine = named(series)
    headers = ("key", "machine") if with_machine else ("key",)
    for header in (*headers, "first commit after", "kind", "before → after", "Δ% [CI]", "p"):
        table.add_column(header, no_wrap=True)
    for c in changes:
        lo, hi = c.delta_ci_pct
        scale = key_scale(c.series)
        where = c.series.machine
        table.add_row(
            escape(c.series.key.label()),
            *((escape(UNNAMED if where is None else where),) if with_machine else ()),
            short_sha(c.point.commit or c.point.run_id),
            c.kind,
            f"{scaled(c.before, scale)} → {scaled(c.after, scale)}",
            delta_with_interval(c.delta_pct, (lo, hi)),
            f"{c.p_value:.3f}",
        )
    console.print(table)

"""The history's series and change points as a terminal table or a JSON document.

The JSON documents (``perfproof.history/1`` for ``show``, ``perfproof.changes/1`` for
``changes``) carry the same numbers the table prints. The HTML page is ``page``'s job.

Every output names the machine of each series once any run carries a machine name, and says so
when the selection spans several machines: their series are shown side by side, never pooled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TextIO

from pydantic import Field, JsonValue
from rich.markup import escape

from perfproof.history.analysis import Change, key_scale, summarise
from perfproof.history.records import Record
from perfproof.history.store import Point, Series
from perfproof.model.documents.codec import Document, by_name
from perfproof.units import Scale, delta_with_interval, scaled, short_sha

if TYPE_CHECKING:
    from rich.console import Console


HISTORY_SCHEMA = "perfproof.history/1"
CHANGES_SCHEMA = "perfproof.changes/1"
RECORD_SCHEMA = "perfproof.history-record/1"
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


class KeyDoc(Document):
    """Which series: the key, its unit and direction, and the machine it was measured on."""

    benchmark: str
    mode: str
    params: dict[str, str]
    metric: str
    unit: str
    direction: str
    machine: str | None

    @classmethod
    def of(cls, s: Series) -> KeyDoc:
        return cls.model_validate(_key_fields(cls, s))


def _key_fields(kind: type[Document], s: Series, *more: object) -> dict[str, object]:
    """The fields of ``kind`` a series and ``more`` values hold by name, its key's first."""
    return {**by_name(kind, s.key, s, *more), "params": s.key.params_dict}


class PointDoc(Document):
    """One run of a series: the run, its commit and time, the estimate and the fork means."""

    run: str
    uid: str
    commit: str | None
    branch: str | None
    time: str
    estimate: float
    ci: tuple[float | None, float | None]
    forks: int
    fork_means: list[float]


class SeriesDoc(KeyDoc):
    points: list[PointDoc]


class HistoryDocument(Document):
    """``perfproof.history/1``: every series with its points."""

    schema_: str = Field(HISTORY_SCHEMA, alias="schema")
    confidence: float
    machine: str | None
    machines: list[str | None]
    keys: list[SeriesDoc]


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
        SeriesDoc(**KeyDoc.of(s).model_dump(), points=[_point(p, confidence) for p in s.points])
        for s in series
    ]
    doc = HistoryDocument(
        confidence=confidence, machine=machine, machines=machines(series), keys=keys
    )
    return doc.model_dump(mode="json", by_alias=True)


class ChangeDoc(KeyDoc):
    """A change point of one series: where, what kind, the levels around it and its test."""

    index: int
    run: str
    commit: str | None
    time: str
    kind: Literal["regressed", "improved"]
    before: float
    after: float
    ratio: float
    ratio_ci: tuple[float, float]
    delta_pct: float
    delta_ci_pct: tuple[float, float]
    p_value: float

    @classmethod
    def of_change(cls, c: Change) -> ChangeDoc:
        p = c.point
        return cls.model_validate(
            {**_key_fields(cls, c.series, c, p), "run": p.run_id or p.run_uid}
        )


class ChangeSearch(Document):
    """The settings the change points were searched with."""

    confidence: float
    threshold: float
    seed: int
    p_max: float
    permutations: int
    branch: str | None
    machine: str | None


class ChangesDocument(Document):
    """``perfproof.changes/1``: the change points found, with the search's settings."""

    schema_: str = Field(CHANGES_SCHEMA, alias="schema")
    options: ChangeSearch
    keys: int
    machines: list[str | None]
    changes: list[ChangeDoc]


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
        changes=[ChangeDoc.of_change(c) for c in changes],
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


class RecordedDoc(Document):
    """One recorded argument: the record's identity, its machine, and what it holds."""

    source: str
    kind: str
    uid: str
    run_id: str | None
    commit: str | None
    base_commit: str | None
    branch: str | None
    time: str | None
    machine: str | None
    new: bool
    keys: int
    rows: int
    comparisons: int

    @classmethod
    def of(cls, r: Recorded) -> RecordedDoc:
        rec = r.record
        return cls.model_validate(
            {
                **by_name(cls, r, rec),
                "base_commit": rec.base.sha,
                "time": rec.run_time,
                "keys": len({s.key for s in rec.samples if s.side == "head"}),
                "rows": len(rec.samples),
                "comparisons": len(rec.comparisons),
            }
        )


class RecordDocument(Document):
    """``perfproof.history-record/1``: the database (password hidden) and every record."""

    schema_: str = Field(RECORD_SCHEMA, alias="schema")
    database: str
    backend: str
    recorded: int
    already_recorded: int
    records: list[RecordedDoc]


def record_document(database: str, backend: str, done: Sequence[Recorded]) -> dict[str, JsonValue]:
    """``history record --format json``: the database (password hidden) and every record."""
    doc = RecordDocument(
        database=database,
        backend=backend,
        recorded=sum(1 for r in done if r.new),
        already_recorded=sum(1 for r in done if not r.new),
        records=[RecordedDoc.of(r) for r in done],
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

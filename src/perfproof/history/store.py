"""Write records into the history and read a key's series back out.

Recording is one transaction per record, and the run row goes in first with
``ON CONFLICT DO NOTHING``: when two CI jobs record the same run at once, the second waits for
the first's transaction and then finds the row there, so a run is stored once, whole, or not
at all. Series come back ordered by run time, then uid, so every backend gives the same order.

A series is one key on one machine name: runs filed under different names (or under a name and
none) are never pooled into one series, whether or not the reader asked for a machine.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from perfproof.errors import InputError
from perfproof.history.db import HistoryDB
from perfproof.history.records import Record, iso_time, params_json, params_text
from perfproof.model import PRIMARY, BenchKey
from perfproof.model.documents import dumps, json_safe, loads_strict
from perfproof.model.documents.compare_wire import ComparisonDoc

_RUN_COLUMNS = (
    "uid",
    "kind",
    "run_id",
    "branch",
    "commit_sha",
    "base_sha",
    "base_ref",
    "head_ref",
    "run_time",
    "recorded_at",
    "source",
    "jmh_version",
    "jdk_version",
    "machine",
    "machine_name",
)


def record(db: HistoryDB, rec: Record) -> bool:
    """Store ``rec``; False when a record with its uid is already there (nothing changes)."""
    values = (
        rec.uid,
        rec.kind,
        rec.run_id,
        rec.branch,
        rec.head.sha,
        rec.base.sha,
        rec.base.ref,
        rec.head.ref,
        rec.run_time,
        iso_time(None),
        rec.source,
        rec.jmh_version,
        rec.jdk_version,
        json.dumps(json_safe(rec.machine.dump()), sort_keys=True, allow_nan=False),
        rec.machine_name,
    )
    marks = ", ".join("?" for _ in _RUN_COLUMNS)
    with db.transaction():
        inserted = db.execute(
            f"INSERT INTO runs ({', '.join(_RUN_COLUMNS)}) VALUES ({marks}) "
            "ON CONFLICT (uid) DO NOTHING",
            values,
        )
        if inserted == 0:
            return False
        db.executemany(
            "INSERT INTO samples (run_uid, side, commit_sha, benchmark, mode, params, metric, "
            "unit, direction, forks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    rec.uid,
                    s.side,
                    s.commit,
                    s.key.benchmark,
                    s.key.mode,
                    params_text(s.key),
                    s.key.metric,
                    s.unit,
                    s.direction,
                    json.dumps(json_safe(s.forks), allow_nan=False),
                )
                for s in rec.samples
            ],
        )
        db.executemany(
            "INSERT INTO comparisons (run_uid, benchmark, mode, params, metric, verdict, "
            "delta_pct, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [_comparison_row(rec.uid, c) for c in _unique_comparisons(rec.comparisons)],
        )
    return True


def _unique_comparisons(comparisons: list[ComparisonDoc]) -> list[ComparisonDoc]:
    seen: dict[tuple[str, ...], ComparisonDoc] = {}
    for c in comparisons:
        seen.setdefault((c.benchmark, c.mode, params_json(c.params), str(c.metric)), c)
    return list(seen.values())


def _comparison_row(uid: str, c: ComparisonDoc) -> tuple[object, ...]:
    return (
        uid,
        c.benchmark,
        c.mode,
        params_json(c.params),
        c.metric or PRIMARY,
        str(c.verdict),
        c.delta_pct,
        dumps(c.model_dump(mode="json")),
    )


@dataclass(frozen=True)
class Point:
    """One run's measurement of one key: its forks and where and when it was taken."""

    run_uid: str
    run_id: str | None
    commit: str | None
    branch: str | None
    time: str
    forks: tuple[np.ndarray, ...]

    def fork_means(self) -> np.ndarray:
        return np.array([float(np.mean(f)) for f in self.forks if len(f)], dtype=float)


@dataclass
class Series:
    """One key's runs on one machine name (None: the unnamed runs)."""

    key: BenchKey
    unit: str
    direction: str
    points: list[Point]
    machine: str | None = None


def series(
    db: HistoryDB,
    bench: str | None = None,
    metrics: tuple[str, ...] = (PRIMARY,),
    branch: str | None = None,
    machine: str | None = None,
) -> list[Series]:
    """Each key's points over time (measured side of every run) per machine name, filtered
    like the CLI asks; ordered by machine name (unnamed first), then key."""
    try:
        pattern = re.compile(bench) if bench else None
    except re.error as exc:
        raise InputError(f"--bench {bench}: not a regular expression ({exc})") from None
    sql = (
        "SELECT r.uid, r.run_id, s.commit_sha, r.branch, r.run_time, s.benchmark, s.mode, "
        "s.params, s.metric, s.unit, s.direction, s.forks, r.machine_name "
        "FROM samples s JOIN runs r ON r.uid = s.run_uid WHERE s.side = 'head'"
    )
    args: list[Any] = []
    if branch:
        sql += " AND r.branch = ?"
        args.append(branch)
    if machine is not None:
        sql += " AND r.machine_name = ?"
        args.append(machine)
    if metrics:
        sql += f" AND s.metric IN ({', '.join('?' for _ in metrics)})"
        args.extend(metrics)
    sql += " ORDER BY r.run_time, r.uid"
    found: dict[tuple[str, str, BenchKey], Series] = {}
    for (
        uid,
        run_id,
        commit,
        br,
        time,
        bench_name,
        mode,
        params,
        metric,
        unit,
        direc,
        forks,
        name,
    ) in db.query(sql, args):
        if pattern is not None and not pattern.search(bench_name):
            continue
        pairs = tuple(sorted((str(k), str(v)) for k, v in _cell(params, dict).items()))
        key = BenchKey(bench_name, mode, pairs, metric)
        arrays = tuple(np.asarray(f, dtype=float) for f in _cell(forks, list))
        group = ("" if name is None else "1", name or "", key)
        entry = found.setdefault(group, Series(key, unit, direc, [], name))
        entry.points.append(Point(uid, run_id, commit, br, time, arrays))
    return [found[k] for k in sorted(found)]


C = TypeVar("C", dict[str, Any], list[Any])


def _cell(text: str, kind: type[C]) -> C:
    """A JSON column of the store (a key's @Param values, its forks), as perfproof wrote it."""
    value = loads_strict(text, "history store")
    if not isinstance(value, kind):
        raise InputError(f"history store: a {kind.__name__} column holds {text[:40]!r}")
    return value


def filed_machine(db: HistoryDB, uid: str) -> str | None:
    """The machine name the run ``uid`` is stored under: a record met again keeps the name
    it was first filed with, whatever the second attempt asked for."""
    rows = db.query("SELECT machine_name FROM runs WHERE uid = ?", (uid,))
    return rows[0][0] if rows else None


def machine_names(db: HistoryDB) -> list[str | None]:
    """Every machine name runs were filed under (None for unnamed runs), unnamed first."""
    names = {row[0] for row in db.query("SELECT DISTINCT machine_name FROM runs")}
    return sorted(names, key=lambda n: ("" if n is None else "1", n or ""))

"""The history's JSON cells are strict JSON: a fork value that is not a number is stored as
null (readable by PostgreSQL's JSON functions and any strict reader) and reads back as NaN."""

from __future__ import annotations

import math

from perfproof.history.db import open_db, resolve_target
from perfproof.history.records import Record, SampleRow
from perfproof.history.store import record, series
from perfproof.model import PRIMARY, BenchKey
from perfproof.model.documents import loads_strict
from perfproof.model.documents.run import SideRef
from perfproof.model.documents.run_plan import Machine


def test_nan_fork_value_is_stored_as_null_and_read_back_as_nan(tmp_path) -> None:
    key = BenchKey("fx.Codes.sum", "avgt", (("n", "16"),), PRIMARY)
    rec = Record(
        uid="jmh/strict-cells",
        kind="jmh",
        run_time="2026-01-02T03:04:05Z",
        head=SideRef(sha="c0ffee1"),
        machine=Machine.model_validate({"cores": 2, "load": math.nan}),  # a field kept as read
        samples=[SampleRow("head", "c0ffee1", key, "ns/op", "lower", [[1.0, math.nan], [2.0]])],
    )
    with open_db(resolve_target(str(tmp_path / "h.sqlite"))) as db:
        assert record(db, rec)
        ((forks, machine),) = db.query("SELECT s.forks, r.machine FROM samples s, runs r")
        assert loads_strict(forks, "forks") == [[1.0, None], [2.0]]
        assert loads_strict(machine, "machine") == {"cores": 2, "load": None}
        ((point,),) = [s.points for s in series(db)]
    first, second = point.forks
    assert first[0] == 1.0 and math.isnan(first[1]) and list(second) == [2.0]

"""Machine names in the history: recorded by flag, variable or run folder, never invented, and
never pooled into one series; on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from tests.history.conftest import jmh_entry, noisy_forks, write_jmh

from perfproof.history.schema import MIGRATIONS

BACKENDS = ("sqlite", "postgresql")
RUNS = 12


@pytest.fixture(autouse=True)
def _no_machine_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PERFPROOF_MACHINE", raising=False)


def _names(db: str) -> list[tuple[str | None, str]]:
    from perfproof.history.db import open_db, resolve_target

    with open_db(resolve_target(db)) as handle:
        rows = handle.query("SELECT machine_name, commit_sha FROM runs ORDER BY run_time")
    return [(r[0], r[1]) for r in rows]


def _record_two_runners(run_cli, folder: Path, db: str) -> None:
    """12 nights on a fast runner, then 12 on a runner twice as slow: pooled, the key's level
    doubles at night 13; per runner it is flat."""
    rng = np.random.default_rng(7)
    for night in range(1, 2 * RUNS + 1):
        slow = night > RUNS
        level = 200.0 if slow else 100.0
        path = write_jmh(
            folder / f"night{night:02d}.json",
            [jmh_entry("demo.Codec.run", noisy_forks(rng, level))],
        )
        result = run_cli(
            "history", "record", path, "--commit", f"{night:07x}", "--branch", "main",
            "--time", f"2026-04-{night:02d}T02:00:00Z", "--db", db,
            "--machine", "ci-slow" if slow else "ci-fast",
        )  # fmt: skip
        assert result.code == 0, result.err
        assert f"on {'ci-slow' if slow else 'ci-fast'}" in result.out


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_runners_are_never_pooled_into_one_series(backend, db_for, run_cli, tmp_path):
    db = db_for(backend)
    _record_two_runners(run_cli, tmp_path, db)

    shown = run_cli("history", "show", "--format", "json", "--db", db)
    assert shown.code == 0, shown.err
    doc = json.loads(shown.out)
    assert doc["machine"] is None and doc["machines"] == ["ci-fast", "ci-slow"]
    by_machine = {k["machine"]: k for k in doc["keys"]}
    assert set(by_machine) == {"ci-fast", "ci-slow"}
    fast = [p["estimate"] for p in by_machine["ci-fast"]["points"]]
    slow = [p["estimate"] for p in by_machine["ci-slow"]["points"]]
    assert len(fast) == len(slow) == RUNS
    assert max(fast) < 150.0 < min(slow)

    # pooled, the runner change would be a 100% "regression" at night 13; apart, nothing moved
    changes = run_cli("history", "changes", "--format", "json", "--fail-on-change", "--db", db)
    assert changes.code == 0, changes.err
    found = json.loads(changes.out)
    assert found["changes"] == [] and found["keys"] == 2
    assert found["machines"] == ["ci-fast", "ci-slow"]

    table = run_cli("history", "changes", "--db", db)
    assert "2 machines (ci-fast, ci-slow)" in table.out and "never pooled" in table.out
    titles = run_cli("history", "show", "--db", db).out
    assert "demo.Codec.run [avgt] on ci-fast" in titles
    assert "demo.Codec.run [avgt] on ci-slow" in titles

    one = json.loads(run_cli("history", "show", "--machine", "ci-slow", "--format", "json",
                             "--db", db).out)  # fmt: skip
    assert one["machine"] == "ci-slow" and one["machines"] == ["ci-slow"]
    (key,) = one["keys"]
    assert [p["commit"] for p in key["points"]] == [
        f"{n:07x}" for n in range(RUNS + 1, 2 * RUNS + 1)
    ]
    only = run_cli("history", "changes", "--machine", "ci-fast", "--db", db)
    assert only.code == 0 and "machine: ci-fast" in only.out and "in 1 key" in only.out

    page = tmp_path / "page.html"
    assert run_cli("history", "show", "--format", "html", "--out", page, "--db", db).code == 0
    text = page.read_text()
    assert "2 machines (ci-fast, ci-slow)" in text and text.count('class="plot"') == 2
    assert "[avgt] on ci-fast</h2>" in text and "[avgt] on ci-slow</h2>" in text

    typo = run_cli("history", "show", "--machine", "ci-fats", "--db", db)
    assert typo.code == 0 and "no recorded results match" in typo.out
    assert "ci-fats: no run is filed under this name (names here: ci-fast, ci-slow)" in typo.err


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pooled_history_would_have_shifted(backend, db_for, run_cli, tmp_path):
    """The control of the test above: the same nights under one name do show the shift, so
    its quiet answer comes from keeping the runners apart."""
    db = db_for(backend)
    rng = np.random.default_rng(7)
    for night in range(1, 2 * RUNS + 1):
        level = 200.0 if night > RUNS else 100.0
        path = write_jmh(
            tmp_path / f"n{night}.json", [jmh_entry("demo.Codec.run", noisy_forks(rng, level))]
        )
        run_cli("history", "record", path, "--commit", f"{night:07x}", "--machine", "ci",
                "--time", f"2026-04-{night:02d}T02:00:00Z", "--db", db)  # fmt: skip
    gate = run_cli("history", "changes", "--fail-on-change", "--db", db)
    assert gate.code == 1 and "demo.Codec.run [avgt] on ci at 000000d" in gate.err


@pytest.mark.parametrize("backend", BACKENDS)
def test_flag_beats_variable_and_nothing_is_invented(
    backend, db_for, run_cli, tmp_path, monkeypatch
):
    db = db_for(backend)
    rng = np.random.default_rng(1)

    def record(n: int, *extra: str):
        path = write_jmh(tmp_path / f"r{n}.json", [jmh_entry("demo.A.run", noisy_forks(rng, 5.0))])
        return run_cli("history", "record", path, "--commit", f"c{n:06d}", "--db", db,
                       "--time", f"2026-05-0{n}T00:00:00Z", *extra)  # fmt: skip

    assert record(1).code == 0  # no flag, no variable: unnamed
    monkeypatch.setenv("PERFPROOF_MACHINE", "  gh-ubuntu-8core ")
    assert record(2).code == 0
    assert record(3, "--machine", "bare-metal-1").code == 0
    assert _names(db) == [
        (None, "c000001"),
        ("gh-ubuntu-8core", "c000002"),
        ("bare-metal-1", "c000003"),
    ]
    assert socket.gethostname() not in {name for name, _ in _names(db)}

    doc = json.loads(run_cli("history", "show", "--format", "json", "--db", db).out)
    assert doc["machines"] == [None, "bare-metal-1", "gh-ubuntu-8core"]  # unnamed is its own
    assert all(len(k["points"]) == 1 for k in doc["keys"])
    table = run_cli("history", "show", "--db", db).out
    assert "3 machines ((unnamed), bare-metal-1, gh-ubuntu-8core)" in table
    assert "demo.A.run [avgt] on (unnamed)" in table


def test_an_unnamed_history_prints_as_before(run_cli, tmp_path, fixtures_dir):
    db = tmp_path / "h.sqlite"
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    assert run_cli("history", "record", jmh, "--commit", "abc1234", "--db", db).code == 0
    shown = run_cli("history", "show", "--db", db)
    assert "machine" not in shown.out and " on " not in shown.out
    assert json.loads(run_cli("history", "show", "--format", "json", "--db", db).out)[
        "machines"
    ] == [None]


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        (("--machine", "  "), None, "--machine: empty machine name"),
        (("--machine", "a\tb"), None, "not a machine name"),
        (("--machine", "x" * 101), None, "not a machine name"),
        ((), "ci\nlarge", "PERFPROOF_MACHINE 'ci\\nlarge': not a machine name"),
    ],
)
def test_bad_machine_names_exit_2_before_anything_is_written(
    args, env, says, run_cli, tmp_path, fixtures_dir, monkeypatch
):
    if env is not None:
        monkeypatch.setenv("PERFPROOF_MACHINE", env)
    db = tmp_path / "h.sqlite"
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    result = run_cli("history", "record", jmh, "--commit", "abc1234", "--db", db, *args)
    assert result.code == 2 and says in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert not db.exists()
    shown = run_cli("history", "show", "--machine", "", "--db", db)
    assert shown.code == 2 and "--machine: empty machine name" in shown.err


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_folder_keeps_the_name_ab_gave_it(
    backend, db_for, run_cli, make_run_folder, monkeypatch
):
    named = make_run_folder("ab")
    manifest = json.loads((named / "manifest.json").read_text())
    manifest.setdefault("options", {})["machine"] = "ci-large"
    (named / "manifest.json").write_text(json.dumps(manifest))
    db = db_for(backend)
    monkeypatch.setenv("PERFPROOF_MACHINE", "the-recording-host")  # described the recorder
    result = run_cli("history", "record", named, "--db", db)
    assert result.code == 0 and "on ci-large" in result.out
    assert [n for n, _ in _names(db)] == ["ci-large"]

    other = db_for("sqlite") + ".relabelled"
    assert run_cli("history", "record", named, "--machine", "ci-xl", "--db", other).code == 0
    assert [n for n, _ in _names(other)] == ["ci-xl"]  # the flag wins

    bad = dict(manifest, options={**manifest["options"], "machine": 7})
    (named / "manifest.json").write_text(json.dumps(bad))
    refused = run_cli("history", "record", named, "--db", other)
    assert refused.code == 2 and "options.machine" in refused.err


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_version_1_database_is_migrated_and_its_runs_are_unnamed(
    backend, db_for, run_cli, tmp_path, fixtures_dir
):
    from perfproof.history.db import open_db, resolve_target

    db = db_for(backend)
    row = (
        "run/old", "jmh", None, "main", "abc1234", None, None, None, "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00Z", None, None, None, "{}",
    )  # fmt: skip
    sample = ("run/old", "head", "abc1234", "demo.Old.run", "avgt", "{}", "primary", "ns/op",
              "lower", "[[1.0, 1.1], [1.2, 1.0]]")  # fmt: skip
    insert_run = f"INSERT INTO runs VALUES ({', '.join('?' * len(row))})"
    insert_sample = f"INSERT INTO samples VALUES ({', '.join('?' * len(sample))})"
    meta = "INSERT INTO perfproof_meta (name, value) VALUES ('schema_version', '1')"
    if backend == "sqlite":
        with sqlite3.connect(db) as conn:
            for statement in MIGRATIONS[1]:
                conn.execute(statement)
            conn.execute(meta)
            conn.execute(insert_run, row)
            conn.execute(insert_sample, sample)
    else:
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            for statement in MIGRATIONS[1]:
                conn.execute(statement)
            conn.execute(meta)
            conn.execute(insert_run.replace("?", "%s"), row)
            conn.execute(insert_sample.replace("?", "%s"), sample)

    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    new = run_cli("history", "record", jmh, "--commit", "def5678", "--machine", "ci", "--db", db)
    assert new.code == 0, new.err
    with open_db(resolve_target(db)) as handle:
        version = handle.query("SELECT value FROM perfproof_meta WHERE name = 'schema_version'")
    assert version == [("2",)]
    assert ("ci", "def5678") in _names(db) and (None, "abc1234") in _names(db)
    doc = json.loads(run_cli("history", "show", "--bench", "Old", "--format", "json",
                             "--db", db).out)  # fmt: skip
    (key,) = doc["keys"]
    assert key["machine"] is None and len(key["points"]) == 1


def test_compare_record_files_the_machine_and_refuses_it_without_record(
    tmp_path, run_cli, fixtures_dir
):
    db = tmp_path / "h.sqlite"
    jmh = fixtures_dir / "jmh"
    args = ("compare", jmh / "jmh-1.21-avgt-gc.json", jmh / "jmh-1.37-allmodes-gc.json")
    stray = run_cli(*args, "--machine", "ci")
    assert stray.code == 2 and "--machine: only with --record" in stray.err
    done = run_cli(*args, "--record", "--commit", "feed5eed", "--machine", "ci", "--db", db)
    assert done.code == 0, done.err
    assert "on ci in" in done.err
    assert _names(str(db)) == [("ci", "feed5eed")]

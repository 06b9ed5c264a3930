"""``perfproof history record --format json``: what was stored, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(autouse=True)
def _no_machine_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PERFPROOF_MACHINE", raising=False)


def _count(db: str, sql: str) -> int:
    from perfproof.history.db import open_db, resolve_target

    with open_db(resolve_target(db)) as handle:
        return int(handle.query(sql)[0][0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_record_json_describes_each_record_as_stored(
    backend, db_for, run_cli, make_run_folder, fixtures_dir
):
    db = db_for(backend)
    run = make_run_folder("ab")
    jmh = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    args = ("history", "record", run, jmh, "--commit", "c0ffee1", "--branch", "main",
            "--machine", "ci-large", "--db", db, "--format", "json")  # fmt: skip
    first = run_cli(*args)
    assert first.code == 0, first.err
    doc = json.loads(first.out)
    assert doc["schema"] == "perfproof.history-record/1"
    assert doc["backend"] == backend and doc["recorded"] == 2 and doc["already_recorded"] == 0
    if backend == "sqlite":
        assert doc["database"] == db
    folder, plain = doc["records"]
    assert folder["source"] == str(run) and plain["source"] == str(jmh)
    assert (folder["kind"], plain["kind"]) == ("ab", "jmh")
    manifest = json.loads((run / "manifest.json").read_text())
    assert folder["commit"] == manifest["refs"]["head"]["sha"]
    assert folder["base_commit"] == manifest["refs"]["base"]["sha"]
    assert plain["commit"] == "c0ffee1" and plain["run_id"] is None
    assert folder["machine"] == plain["machine"] == "ci-large"
    assert folder["new"] and plain["new"] and folder["branch"] == plain["branch"] == "main"
    stored_rows = _count(db, "SELECT COUNT(*) FROM samples")
    assert folder["rows"] + plain["rows"] == stored_rows
    assert plain["keys"] == plain["rows"]  # one side: a row per key
    assert folder["keys"] < folder["rows"]  # both sides
    assert folder["comparisons"] == _count(db, "SELECT COUNT(*) FROM comparisons") > 0

    again = json.loads(run_cli(*args[:-4], "--machine", "other", "--db", db,
                               "--format", "json").out)  # fmt: skip
    assert again["recorded"] == 0 and again["already_recorded"] == 2
    assert [r["machine"] for r in again["records"]] == ["ci-large", "ci-large"]  # as stored
    assert [r["uid"] for r in again["records"]] == [folder["uid"], plain["uid"]]


def test_record_json_hides_the_password_and_text_stays_the_default(run_cli, tmp_path, fixtures_dir):
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    text = run_cli("history", "record", jmh, "--commit", "abc1234", "--db", tmp_path / "h.db")
    assert text.code == 0 and text.out.startswith("recorded: ") and "history: " in text.out
    pytest.importorskip("psycopg")
    url = f"postgresql://ci:s3cret@/perf?host={tmp_path / 'nowhere'}&connect_timeout=2"
    failed = run_cli("history", "record", jmh, "--commit", "abc1234", "--db", url,
                     "--format", "json")  # fmt: skip
    assert failed.code == 2 and failed.out == "" and "s3cret" not in failed.err
    assert len(failed.err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--commit", "abc1234", "--time", "yesterday"), "--time yesterday"),
        ((), "needs --commit SHA"),
        (("--commit", "abc1234", "--machine", ""), "--machine: empty machine name"),
    ],
)
def test_record_json_errors_exit_2_with_one_line(run_cli, tmp_path, fixtures_dir, extra, says):
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    db = tmp_path / "h.sqlite"
    result = run_cli("history", "record", jmh, *extra, "--db", db, "--format", "json")
    assert result.code == 2 and result.out == ""
    (line,) = result.err.strip().splitlines()
    assert says in line
    assert not db.exists()

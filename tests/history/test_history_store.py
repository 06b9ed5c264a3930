"""Recording into and reading from the history, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from tests.history.conftest import jmh_entry, noisy_forks, write_jmh

BACKENDS = ("sqlite", "postgresql")


@pytest.mark.parametrize("backend", BACKENDS)
def test_plain_jmh_file_is_recorded_once_and_shown_with_fork_intervals(
    backend, db_for, run_cli, fixtures_dir
):
    db = db_for(backend)
    jmh = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    args = ("history", "record", jmh, "--commit", "c0ffee1", "--branch", "main", "--db", db)
    first = run_cli(*args, "--time", "2026-01-02T03:04:05+01:00")
    again = run_cli(*args)
    assert first.code == 0 and "recorded:" in first.out
    assert again.code == 0 and "already recorded" in again.out

    shown = run_cli("history", "show", "--bench", r"Codes\.sum$", "--format", "json", "--db", db)
    assert shown.code == 0, shown.err
    doc = json.loads(shown.out)
    assert doc["schema"] == "perfproof.history/1"
    keys = {k["params"]["n"]: k for k in doc["keys"]}
    assert set(keys) == {"16", "128"}
    raw = next(
        e
        for e in json.loads(jmh.read_text())
        if e["benchmark"] == "fx.Codes.sum" and e["params"]["n"] == "16"
    )
    fork_means = [float(np.mean(f)) for f in raw["primaryMetric"]["rawData"]]
    (point,) = keys["16"]["points"]  # recorded twice, stored once
    assert point["commit"] == "c0ffee1" and point["branch"] == "main"
    assert point["time"] == "2026-01-02T02:04:05Z"
    assert point["fork_means"] == pytest.approx(fork_means)
    assert point["estimate"] == pytest.approx(np.mean(fork_means))
    lo, hi = point["ci"]
    assert lo < point["estimate"] < hi


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_folder_keeps_both_sides_comparisons_and_machine(
    backend, db_for, run_cli, make_run_folder
):
    from perfproof.history.db import open_db, resolve_target

    run = make_run_folder("ab")
    db = db_for(backend)
    assert run_cli("history", "record", run, "--db", db).code == 0
    assert "already recorded" in run_cli("history", "record", run, "--db", db).out
    with open_db(resolve_target(db)) as handle:
        (row,) = handle.query("SELECT branch, commit_sha, base_sha, jdk_version, machine FROM runs")
        sides = handle.query("SELECT DISTINCT side, commit_sha FROM samples ORDER BY side")
        verdicts = handle.query("SELECT COUNT(*) FROM comparisons")[0][0]
    results = json.loads((run / "results.json").read_text())
    assert row[0] == "faster-codes"  # the head ref names a branch
    assert row[1].startswith("9a8b7c6d") and row[2].startswith("1f2e3d4c")
    assert row[3] == "17.0.15"
    assert json.loads(row[4])["cpu_model"] == "AMD EPYC 7B13"
    assert [s[0] for s in sides] == ["base", "head"]
    assert verdicts == len(results["comparisons"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_four_processes_recording_concurrently_lose_nothing(backend, db_for, tmp_path):
    """4 processes × 25 runs, each also re-recording 5 of its neighbour's: 100 runs, none twice."""
    db = db_for(backend)
    rng = np.random.default_rng(7)
    files = []
    for i in range(100):
        path = write_jmh(
            tmp_path / f"r{i:03d}.json", [jmh_entry("p.Bench.run", noisy_forks(rng, 100.0))]
        )
        files.append((str(path), f"{i:040x}"))
    script = textwrap.dedent(
        """
        import json, sys
        from perfproof.cli import main
        db, jobs = sys.argv[1], json.loads(sys.argv[2])
        for path, commit in jobs:
            code = main(["history", "record", path, "--commit", commit, "--branch", "main",
                         "--db", db])
            if code:
                sys.exit(code)
        """
    )
    procs = []
    for p in range(4):
        jobs = files[p * 25 : (p + 1) * 25] + files[((p + 1) % 4) * 25 :][:5]
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", script, db, json.dumps(jobs)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err

    from perfproof.history.db import open_db, resolve_target

    with open_db(resolve_target(db)) as handle:
        runs = handle.query("SELECT commit_sha, COUNT(*) FROM runs GROUP BY commit_sha")
        samples = handle.query("SELECT COUNT(*) FROM samples")[0][0]
    assert len(runs) == 100 and all(n == 1 for _, n in runs)
    assert {c for c, _ in runs} == {c for _, c in files}
    assert samples == 100


def _one_error_line(result) -> str:
    lines = result.err.strip().splitlines()
    assert result.code == 2, result.err
    assert len(lines) == 1 and lines[0].startswith("perfproof: error:"), result.err
    return lines[0]


def test_truncated_foreign_and_newer_databases_exit_2_naming_them(tmp_path, run_cli, fixtures_dir):
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    good = tmp_path / "good.sqlite"
    assert run_cli("history", "record", jmh, "--commit", "abc1234", "--db", good).code == 0

    truncated = tmp_path / "truncated.sqlite"
    truncated.write_bytes(good.read_bytes()[:3000])
    text = tmp_path / "notes.sqlite"
    text.write_text("these are not the tables you are looking for\n" * 50)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    newer = tmp_path / "newer.sqlite"
    newer.write_bytes(good.read_bytes())
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE perfproof_meta SET value = '99' WHERE name = 'schema_version'")

    for path in (truncated, text, foreign, newer):
        before = path.read_bytes()
        line = _one_error_line(run_cli("history", "show", "--db", path))
        assert str(path) in line
        assert path.read_bytes() == before  # nothing written into someone else's file
    assert "newer" in _one_error_line(run_cli("history", "changes", "--db", newer))
    assert "no history database" in _one_error_line(
        run_cli("history", "show", "--db", tmp_path / "typo.sqlite")
    )
    assert not (tmp_path / "typo.sqlite").exists()


def test_unreachable_postgresql_exits_2_without_the_password(tmp_path, run_cli, fixtures_dir):
    pytest.importorskip("psycopg")
    url = f"postgresql://ci:s3cret@/perf?host={tmp_path / 'nowhere'}&connect_timeout=2"
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    line = _one_error_line(run_cli("history", "record", jmh, "--commit", "abc1234", "--db", url))
    assert "cannot connect to PostgreSQL" in line and "s3cret" not in line


def test_perfproof_db_variable_selects_the_database(tmp_path, run_cli, fixtures_dir, monkeypatch):
    db = tmp_path / "from-env.sqlite"
    monkeypatch.setenv("PERFPROOF_DB", str(db))
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    assert run_cli("history", "record", jmh, "--commit", "abc1234").code == 0
    assert db.is_file()


def test_default_database_is_in_the_repository(tmp_path, run_cli, fixtures_dir, monkeypatch):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "sub").mkdir()
    monkeypatch.delenv("PERFPROOF_DB", raising=False)
    monkeypatch.chdir(tmp_path / "repo" / "sub")
    jmh = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    assert run_cli("history", "record", jmh, "--commit", "abc1234").code == 0
    assert (tmp_path / "repo" / ".perfproof" / "history.sqlite").is_file()


def test_a_bad_file_records_nothing(tmp_path, run_cli, fixtures_dir):
    """All of a command's inputs are read before anything is stored."""
    db = tmp_path / "h.sqlite"
    good = fixtures_dir / "jmh" / "jmh-1.21-avgt-gc.json"
    bad = tmp_path / "bad.json"
    bad.write_text('[{"benchmark": "x"')
    result = run_cli("history", "record", good, bad, "--commit", "abc1234", "--db", db)
    assert result.code == 2 and str(bad) in result.err
    assert not db.exists()


def test_compare_record_stores_both_sides_at_the_commit(tmp_path, run_cli, fixtures_dir):
    from perfproof.history.db import open_db, resolve_target

    db = tmp_path / "h.sqlite"
    jmh = fixtures_dir / "jmh"
    args = (
        "compare", jmh / "jmh-1.21-avgt-gc.json", jmh / "jmh-1.37-allmodes-gc.json",
        "--format", "json", "--record", "--db", db, "--commit", "feed5eed", "--branch", "pr-7",
    )  # fmt: skip
    first = run_cli(*args)
    assert first.code == 0, first.err
    assert json.loads(first.out)["schema"] == "perfproof.compare/1"  # stdout stays one document
    assert "recorded" in first.err
    assert "already recorded" in run_cli(*args).err
    with open_db(resolve_target(str(db))) as handle:
        runs = handle.query("SELECT kind, commit_sha, branch FROM runs")
        n = handle.query("SELECT COUNT(*) FROM comparisons")[0][0]
    assert runs == [("compare", "feed5eed", "pr-7")]
    assert n == len(json.loads(first.out)["comparisons"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_record_that_fails_half_way_leaves_nothing(backend, db_for):
    """Atomic: the run row is rolled back when a later insert of the same record fails."""
    from perfproof.history.db import open_db, resolve_target
    from perfproof.history.records import Record, SampleRow
    from perfproof.history.store import record
    from perfproof.model import BenchKey

    row = SampleRow("head", "abc", BenchKey("b.B.x", "avgt"), "ns/op", "lower", [[1.0, 2.0]])
    broken = Record(
        uid="run/broken", kind="jmh", run_time="2026-01-01T00:00:00Z", samples=[row, row]
    )
    with open_db(resolve_target(db_for(backend))) as handle:
        with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
            record(handle, broken)
        assert handle.query("SELECT COUNT(*) FROM runs")[0][0] == 0
        assert handle.query("SELECT COUNT(*) FROM samples")[0][0] == 0
        assert record(
            handle, Record(uid="run/ok", kind="jmh", run_time="2026-01-01T00:00:00Z", samples=[row])
        )
        assert handle.query("SELECT COUNT(*) FROM runs")[0][0] == 1


def test_show_html_is_one_self_contained_page_and_single_forks_have_no_interval(tmp_path, run_cli):
    from tests.history.conftest import jmh_entry, write_jmh

    db = tmp_path / "h.sqlite"
    one_fork = np.array([[10.0, 10.2, 9.9]])
    for run in range(3):
        path = write_jmh(
            tmp_path / f"r{run}.json", [jmh_entry("x.One.fork", one_fork * (1 + run / 100))]
        )
        assert run_cli("history", "record", path, "--commit", f"c{run}", "--db", db).code == 0
    doc = json.loads(run_cli("history", "show", "--format", "json", "--db", db).out)
    (key,) = doc["keys"]
    assert [p["commit"] for p in key["points"]] == ["c0", "c1", "c2"]
    assert all(p["ci"] == [None, None] and p["forks"] == 1 for p in key["points"])
    out = tmp_path / "trend.html"
    assert run_cli("history", "show", "--format", "html", "--out", out, "--db", db).code == 0
    page = out.read_text()
    assert page.count('class="plot"') == 1 and page.count('<svg class="spark"') == 1
    assert "x.One.fork" in page and "n/a (1 fork)" in page
    assert "<script" not in page and "src=" not in page
    assert "n/a (1 fork)" in run_cli("history", "show", "--db", db).out

"""The history database's schema, as numbered migrations that both SQLite and PostgreSQL run.

Version N is reached by running ``MIGRATIONS[1..N]`` in order; a released migration is never
edited, a change is a new number. Only types both backends share are used (TEXT, INTEGER,
DOUBLE PRECISION), and the per-fork values are kept as JSON text so a key's whole sample is
one row: the history is read a series at a time, never queried inside a sample.

- ``runs``: one recorded run (an ``ab`` run folder, a ``compare``, or a plain JMH file), keyed
  by ``uid`` (the run id, or the file's content hash and commit), which makes recording
  idempotent: a second insert of the same uid does nothing.
- ``samples``: per run, side and key, the forks' iteration values in the canonical unit.
- ``comparisons``: per run and key, the compare document's entry (verdict, Δ% and interval).

Version 2 adds ``runs.machine_name``: the name of the machine or testbed a run was measured on
(``--machine``, ``$PERFPROOF_MACHINE``), NULL for an unnamed one. Series are read per name, so
runners of different kinds never share a series; runs recorded before version 2 are unnamed.
"""

from __future__ import annotations

SCHEMA_VERSION = 2

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE IF NOT EXISTS perfproof_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE runs (
            uid TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            run_id TEXT,
            branch TEXT,
            commit_sha TEXT,
            base_sha TEXT,
            base_ref TEXT,
            head_ref TEXT,
            run_time TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            source TEXT,
            jmh_version TEXT,
            jdk_version TEXT,
            machine TEXT
        )""",
        """CREATE TABLE samples (
            run_uid TEXT NOT NULL REFERENCES runs (uid) ON DELETE CASCADE,
            side TEXT NOT NULL,
            commit_sha TEXT,
            benchmark TEXT NOT NULL,
            mode TEXT NOT NULL,
            params TEXT NOT NULL,
            metric TEXT NOT NULL,
            unit TEXT NOT NULL,
            direction TEXT NOT NULL,
            forks TEXT NOT NULL,
            PRIMARY KEY (run_uid, side, benchmark, mode, params, metric)
        )""",
        """CREATE TABLE comparisons (
            run_uid TEXT NOT NULL REFERENCES runs (uid) ON DELETE CASCADE,
            benchmark TEXT NOT NULL,
            mode TEXT NOT NULL,
            params TEXT NOT NULL,
            metric TEXT NOT NULL,
            verdict TEXT,
            delta_pct DOUBLE PRECISION,
            document TEXT NOT NULL,
            PRIMARY KEY (run_uid, benchmark, mode, params, metric)
        )""",
        "CREATE INDEX samples_by_key ON samples (benchmark, metric)",
        "CREATE INDEX runs_by_branch ON runs (branch, run_time)",
    ),
    2: (
        "ALTER TABLE runs ADD COLUMN machine_name TEXT",
        "CREATE INDEX runs_by_machine ON runs (machine_name, run_time)",
    ),
}

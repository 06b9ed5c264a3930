"""One small database layer for the history: an embedded SQLite file or a shared PostgreSQL.

Both speak the same SQL here (written with ``?`` placeholders, rewritten to ``%s`` for
psycopg), so the store above never branches on the backend. Opening a database migrates its
schema to :data:`SCHEMA_VERSION` inside one transaction; a database written by a newer
perfproof, a file that is not SQLite, an SQLite file of some other program and a PostgreSQL
server that cannot be reached are all input errors naming the database, never tracebacks.

Concurrent writers (parallel CI jobs recording into one file or one server) lose nothing:
SQLite runs in WAL mode with a busy timeout and takes its write lock at ``BEGIN IMMEDIATE``;
PostgreSQL gives every record its own transaction and the migration an advisory lock.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perfproof.errors import InputError
from perfproof.history.schema import MIGRATIONS, SCHEMA_VERSION

ENV_VAR = "PERFPROOF_DB"
DEFAULT_RELATIVE = Path(".perfproof") / "history.sqlite"
BUSY_TIMEOUT_MS = 30_000
_PG_LOCK_ID = 0x70657266  # "perf": serialises concurrent migrations on one server
_URL = re.compile(r"^postgres(ql)?://", re.IGNORECASE)


@dataclass(frozen=True)
class Target:
    """Where the history lives: a SQLite path or a PostgreSQL URL, and how to name it."""

    kind: str  # "sqlite" | "postgresql"
    location: str

    @property
    def label(self) -> str:
        """The location for messages, with any password in a URL hidden."""
        if self.kind == "sqlite":
            return self.location
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", self.location)


def resolve_target(db: str | None, repo: Path | None = None) -> Target:
    """``--db``, else ``$PERFPROOF_DB``, else ``.perfproof/history.sqlite`` in the repository."""
    value = db or os.environ.get(ENV_VAR) or ""
    if _URL.match(value):
        return Target("postgresql", value)
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", value):
        scheme = value.split(":", 1)[0]
        raise InputError(f"--db {scheme}://…: unsupported database (a postgresql:// URL or a path)")
    if value:
        return Target("sqlite", str(Path(value)))
    return Target("sqlite", str(_repo_top(repo or Path.cwd()) / DEFAULT_RELATIVE))


def _repo_top(start: Path) -> Path:
    """The git top level above ``start`` (found by walking up to ``.git``), else ``start``."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here


class HistoryDB:
    """An open, migrated history database; ``execute``/``query`` take ``?`` placeholders."""

    def __init__(self, target: Target, conn: Any) -> None:
        self.target = target
        self.conn = conn
        self.postgres = target.kind == "postgresql"

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.postgres else sql

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        cur = self.conn.execute(self._sql(sql), tuple(params))
        return cur.rowcount

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        if self.postgres:
            with self.conn.cursor() as cur:
                cur.executemany(self._sql(sql), [tuple(r) for r in rows])
        else:
            self.conn.executemany(sql, [tuple(r) for r in rows])

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cur = self.conn.execute(self._sql(sql), tuple(params))
        return [tuple(row) for row in cur.fetchall()]

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """All of it or nothing: commit on success, roll back on any exception."""
        if self.postgres:
            with self.conn.transaction():
                yield
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                with contextlib.suppress(sqlite3.OperationalError):
                    self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if not _cannot_write(exc):
                raise
            raise InputError(
                f"{self.target.label}: cannot write to this history database "
                f"({_one_line(exc)}); record into a database you may write, or --db"
            ) from None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    def __enter__(self) -> HistoryDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_db(target: Target, *, create: bool = True) -> HistoryDB:
    """Connect, check the schema version and migrate; input errors name the database.

    ``create=False`` (the reading verbs) refuses a SQLite path that does not exist instead of
    leaving an empty database behind a typo.
    """
    db = (
        _connect_postgres(target)
        if target.kind == "postgresql"
        else _connect_sqlite(target, create)
    )
    try:
        _migrate(db)
    except InputError:
        db.close()
        raise
    except Exception as exc:
        db.close()
        raise InputError(
            f"{target.label}: not a usable perfproof history database ({_one_line(exc)})"
        ) from None
    return db


def _connect_sqlite(target: Target, create: bool) -> HistoryDB:
    path = Path(target.location)
    if path.is_dir():
        raise InputError(f"{path}: is a folder, expected a history database file")
    if not path.exists():
        if not create:
            raise InputError(f"{path}: no history database here (record a run first, or --db)")
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{path}: not a SQLite history database ({_one_line(exc)})") from None
    return HistoryDB(target, conn)


def _cannot_write(exc: sqlite3.OperationalError) -> bool:
    """SQLite's words for a file, folder or file system it may not write."""
    text = str(exc).lower()
    return any(w in text for w in ("readonly", "read-only", "unable to open", "permission"))


def _connect_postgres(target: Target) -> HistoryDB:
    try:
        import psycopg
    except ImportError:
        raise InputError(
            f"{target.label}: PostgreSQL needs psycopg 3 (pip install 'perfproof[postgresql]')"
        ) from None
    try:
        conn = psycopg.connect(target.location, autocommit=True, connect_timeout=10)
    except (psycopg.Error, ValueError) as exc:
        raise InputError(
            f"{target.label}: cannot connect to PostgreSQL ({_one_line(exc)})"
        ) from None
    return HistoryDB(target, conn)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _version(db: HistoryDB) -> int:
    """The schema version recorded in the database; 0 for an empty one.

    An SQLite file holding other tables but not ours belongs to another program: refusing it
    keeps perfproof from adding tables to someone else's database.
    """
    if db.postgres:
        # a catalog query, not to_regclass: that consults the backend's relation cache, which
        # can still say "absent" after a concurrent migration committed
        found = bool(
            db.query(
                "SELECT COUNT(*) FROM pg_catalog.pg_tables "
                "WHERE tablename = 'perfproof_meta' AND schemaname = current_schema()"
            )[0][0]
        )
        others = False
    else:
        names = {r[0] for r in db.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        found = "perfproof_meta" in names
        others = bool(names - {"perfproof_meta"})
    if not found:
        if others:
            raise InputError(f"{db.target.label}: not a perfproof history database")
        return 0
    rows = db.query("SELECT value FROM perfproof_meta WHERE name = 'schema_version'")
    if not rows or not str(rows[0][0]).isdigit():
        raise InputError(f"{db.target.label}: history database without a schema version")
    return int(rows[0][0])


def _migrate(db: HistoryDB) -> None:
    current = _version(db)  # first: a foreign file is refused before anything is written
    if not db.postgres:
        # WAL lets readers work while a CI job records; it is a property of the file, so it is
        # set only once the file is known to be ours
        db.execute("PRAGMA journal_mode = WAL")
    if current == SCHEMA_VERSION:
        return
    with db.transaction():
        if db.postgres:
            db.execute("SELECT pg_advisory_xact_lock(?)", (_PG_LOCK_ID,))
        version = _version(db)  # again, under the lock: another process may have migrated
        if version > SCHEMA_VERSION:
            raise InputError(
                f"{db.target.label}: history schema version {version} is newer than this "
                f"perfproof reads ({SCHEMA_VERSION}); upgrade perfproof"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[number]:
                db.execute(statement)
        db.execute("DELETE FROM perfproof_meta WHERE name = 'schema_version'")
        db.execute(
            "INSERT INTO perfproof_meta (name, value) VALUES ('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )

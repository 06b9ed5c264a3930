"""Fixtures for the history tests: a real throwaway PostgreSQL cluster and synthetic results.

The cluster is Debian's ``postgresql`` server (``initdb``/``pg_ctl``) on a Unix socket in a
fresh temporary folder, started once per session and stopped at the end. ``initdb`` refuses to
run as root, so as root the cluster runs as the ``postgres`` system user (via ``runuser``).
Each test gets its own database. Without PostgreSQL the tests skip, except in CI (``CI=true``),
where a missing server is a failure: CI installs it with ``.ci/install-postgres``.
"""

from __future__ import annotations

import glob
import itertools
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

PORT = 5432


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason}; CI must install it (.ci/install-postgres)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[str]:
    """Socket folder of a running throwaway cluster; trust authentication, user ``postgres``."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _missing("psycopg 3 is not installed")
    bindir = _pg_bin()
    if bindir is None:
        _missing("PostgreSQL server binaries (initdb, pg_ctl) not found")
    root = Path(tempfile.mkdtemp(prefix="perfproof-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres") if _has_user("postgres") else pwd.getpwnam("nobody")
        os.chown(root, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", user.pw_name, "--"]
    root.chmod(0o755)
    data = root / "data"
    log = root / "server.log"

    def run(*argv: str) -> None:
        subprocess.run([*prefix, *argv], check=True, capture_output=True, timeout=120)

    def stop() -> None:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)

    # a `timeout` or CI cancel sends SIGTERM, which skips fixture teardown: stop the server
    # then too, so no cluster outlives the test session
    previous = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: object) -> None:
        stop()
        signal.signal(signal.SIGTERM, previous)
        os.kill(os.getpid(), signum)

    signal.signal(signal.SIGTERM, on_term)
    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-k {root} -c listen_addresses='' -p {PORT} -c fsync=off"
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start")
        yield str(root)
    finally:
        signal.signal(signal.SIGTERM, previous)
        stop()


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


_numbers = itertools.count(1)


@pytest.fixture
def pg_url(pg_cluster: str) -> str:
    """A fresh, empty database on the throwaway cluster, as a ``postgresql://`` URL."""
    import psycopg

    name = f"history_{os.getpid()}_{next(_numbers)}"
    admin = f"postgresql://postgres@/postgres?host={pg_cluster}&port={PORT}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql://postgres@/{name}?host={pg_cluster}&port={PORT}"


# ----------------------------------------------------------------------------- synthetic data


@pytest.fixture
def db_for(tmp_path: Path, request: pytest.FixtureRequest):
    """``db_for("sqlite")`` → a file path; ``db_for("postgresql")`` → a fresh database URL."""

    def _db(kind: str) -> str:
        if kind == "sqlite":
            return str(tmp_path / "history.sqlite")
        return request.getfixturevalue("pg_url")

    return _db


def jmh_entry(benchmark: str, forks: np.ndarray, params: dict[str, str] | None = None) -> dict:
    """One JMH ``-rf json`` entry (avgt, ns/op) whose rawData is ``forks`` (forks × iterations)."""
    rows = [[float(v) for v in fork] for fork in forks]
    flat = np.concatenate(forks)
    return {
        "jmhVersion": "1.37",
        "benchmark": benchmark,
        "mode": "avgt",
        "threads": 1,
        "forks": len(rows),
        "jvm": "/usr/bin/java",
        "jdkVersion": "17.0.15",
        "vmName": "OpenJDK 64-Bit Server VM",
        "params": params or {},
        "primaryMetric": {
            "score": float(flat.mean()),
            "scoreError": float(flat.std()),
            "scoreConfidence": [float(flat.min()), float(flat.max())],
            "scoreUnit": "ns/op",
            "rawData": rows,
        },
        "secondaryMetrics": {},
    }


def write_jmh(path: Path, entries: list[dict]) -> Path:
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def noisy_forks(
    rng: np.random.Generator, level: float, forks: int = 3, iters: int = 4
) -> np.ndarray:
    """Forks whose means spread 2% around ``level`` and whose iterations spread 1% around those."""
    means = level * np.exp(rng.normal(0.0, 0.02, size=forks))
    return means[:, None] * np.exp(rng.normal(0.0, 0.01, size=(forks, iters)))

"""Bad input refused at the door: flags checked before the first stage, build or write,
and flags that only mean something beside another one refused without it."""

from __future__ import annotations

from corpus_case import GOOD, GOOD_HEAD, Case

REFS = ("--repo", "{d}/repo", "--base", "main", "--head", "feature")

DOOR = [
    Case(
        "prove-e2e-metric-bad-regex-before-stage-1",
        ("prove", *REFS, "--e2e-run", "echo t=1", "--e2e-metric", "t=t=([0-9"),
        2,
        r"--e2e-metric t: invalid regex",
        repo=True,
    ),
    Case(
        "prove-e2e-metric-without-group-before-stage-1",
        ("prove", *REFS, "--e2e-run", "echo t=1", "--e2e-metric", "t=t=[0-9]+"),
        2,
        r"--e2e-metric t: regex .* has no capture group",
        repo=True,
    ),
    Case(
        "prove-e2e-metric-without-e2e-run",
        ("prove", *REFS, "--e2e-metric", "t=t=([0-9]+)"),
        2,
        r"--e2e-metric needs --e2e-run",
        repo=True,
    ),
    Case(
        "prove-bench-star-before-stage-1",
        ("prove", *REFS, "--bench", "*"),
        2,
        r"--bench '\*': not a valid regex",
        repo=True,
    ),
    Case(
        "prove-lock-timeout-nan",
        ("prove", *REFS, "--lock-timeout", "nan"),
        2,
        r"--lock-timeout nan: must be a number of seconds",
        repo=True,
    ),
    Case(
        "ab-record-mysql-before-build",
        ("ab", *REFS, "--record", "--db", "mysql://ci@db/perf"),
        2,
        r"--db mysql://…: unsupported database",
        repo=True,
    ),
    Case(
        "ab-branch-without-record",
        ("ab", *REFS, "--branch", "main"),
        2,
        r"--branch: only with --record",
        repo=True,
    ),
    Case(
        "ab-lock-timeout-nan",
        ("ab", *REFS, "--lock-timeout", "nan"),
        2,
        r"--lock-timeout nan: must be a number of seconds",
        repo=True,
    ),
    Case(
        "ab-lock-timeout-word",
        ("ab", *REFS, "--lock-timeout", "soon"),
        2,
        r"--lock-timeout soon: not a number of seconds",
        repo=True,
    ),
    Case(
        "guard-lock-timeout-negative",
        ("guard", *REFS, "--bench", "X", "--lock-timeout", "-1"),
        2,
        r"--lock-timeout -1\.0: must be a number of seconds",
        repo=True,
    ),
    Case(
        "compare-commit-without-record",
        ("compare", "{d}/a.json", "{d}/b.json", "--commit", "abc123"),
        2,
        r"--commit: only with --record",
        files={"a.json": GOOD, "b.json": GOOD_HEAD},
    ),
    Case(
        "compare-db-without-record",
        ("compare", "{d}/a.json", "{d}/b.json", "--db", "{d}/h.sqlite"),
        2,
        r"--db: only with --record",
        files={"a.json": GOOD, "b.json": GOOD_HEAD},
    ),
    Case(
        "compare-record-mysql-before-compare",
        ("compare", "{d}/a.json", "{d}/b.json", "--record", "--db", "mysql://ci@db/perf"),
        2,
        r"--db mysql://…: unsupported database",
        files={"a.json": GOOD, "b.json": GOOD_HEAD},
    ),
    Case(
        "prove-record-refused",
        ("prove", *REFS, "--record"),
        2,
        r"--record: prove keeps its A/B run in BUNDLE/ab",
        repo=True,
    ),
]

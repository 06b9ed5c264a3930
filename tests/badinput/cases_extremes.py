"""Input at the edges: stacks deeper than Python's recursion limit, a time past year 9999, a
confidence level one ulp below 1, settings pinned in a file, and messages that must say
what is true of the command as typed."""

from __future__ import annotations

from corpus_case import GOOD, GOOD_HEAD, Case, entry, jmh

DEEP_STACK = ";".join(f"app.Deep.level{i}" for i in range(400)) + " 10\n"
DEEPER_STACK = ";".join(f"app.Deep.level{i}" for i in range(400)) + " 12\n"
SIDES = {"b.json": GOOD, "h.json": GOOD_HEAD}
GIT = {".git/HEAD": "ref: refs/heads/main\n"}
"""Makes ``{d}`` the top of a repository for the pinned-settings file (nothing else reads it)."""
COMPARE = ("compare", "{d}/b.json", "{d}/h.json")

EDGES = [
    Case(
        "profile-flamegraph-400-frames",
        ("profile", "{d}/deep.collapsed", "--flamegraph", "{d}/cache/fg.html"),
        0,
        r"wrote .*fg\.html",
        {"deep.collapsed": DEEP_STACK},
    ),
    Case(
        "diff-flamegraph-400-frames",
        (
            "profile",
            "diff",
            "--before",
            "{d}/a.collapsed",
            "--after",
            "{d}/b.collapsed",
            "--flamegraph",
            "{d}/cache/fg.html",
        ),
        0,
        r"wrote .*fg\.html",
        {"a.collapsed": DEEP_STACK, "b.collapsed": DEEPER_STACK},
    ),
    Case(
        "history-record-time-past-9999-in-utc",
        ("history", "record", "{d}/b.json", "--time", "9999-12-31T23:59:59-23:59"),
        2,
        r"--time 9999-12-31T23:59:59-23:59: out of range in UTC",
        {"b.json": GOOD},
    ),
    Case(
        "history-record-time-before-year-1-in-utc",
        ("history", "record", "{d}/b.json", "--time", "0001-01-01T00:00:00+01:00"),
        2,
        r"--time 0001-01-01T00:00:00\+01:00: out of range in UTC",
        {"b.json": GOOD},
    ),
    Case(
        "compare-confidence-one-ulp-below-1",
        (*COMPARE, "--confidence", "0.9999999999999999"),
        2,
        r"--confidence 0.9999999999999999: too close to 1 for a finite interval",
        SIDES,
    ),
    Case(
        "compare-confidence-1e-14-below-1",
        (*COMPARE, "--confidence", "0.99999999999999", "--format", "json"),
        0,
        r'"schema"',
        SIDES,
        strict_json=True,
    ),
    Case(
        "compare-confidence-inf",
        (*COMPARE, "--confidence", "inf"),
        2,
        r"--confidence inf: not a finite number",
        SIDES,
        forbid=r"write inf%",
    ),
    Case(
        "compare-threshold-inf-percent",
        (*COMPARE, "--threshold", "inf%"),
        2,
        r"--threshold inf%: not a finite number",
        SIDES,
    ),
]

PINNED = [
    Case(
        "pinned-threshold-as-a-table",
        COMPARE,
        2,
        r"perfproof\.toml:2: threshold: expected a number",
        {**SIDES, **GIT, "perfproof.toml": 'confidence = "95%"\n[threshold]\nvalue = 1\n'},
    ),
    Case(
        "pinned-threshold-as-an-inline-table",
        COMPARE,
        2,
        r"perfproof\.toml:2: threshold: expected a number",
        {**SIDES, **GIT, "perfproof.toml": "# pinned\nthreshold = { value = 1 }\n"},
    ),
    Case(
        "pinned-threshold-as-a-dotted-key",
        COMPARE,
        2,
        r"perfproof\.toml:2: threshold: expected a number",
        {**SIDES, **GIT, "perfproof.toml": 'family = "holm"\nthreshold.value = 1\n'},
    ),
    Case(
        "pinned-unknown-subtable-of-tool-perfproof",
        COMPARE,
        2,
        r"pyproject\.toml:7: gate: not a setting perfproof knows",
        {
            **SIDES,
            **GIT,
            "pyproject.toml": '[project]\nname = "x"\n\n[tool.perfproof]\n'
            'threshold = "1%"\n\n[tool.perfproof.gate]\nx = 1\n',
        },
    ),
    Case(
        "pinned-jmh-args-unbalanced-quotes",
        ("ab", "--repo", "{d}", "--base", "main", "--head", "feature"),
        2,
        r"perfproof\.toml:2: jmh-args: cannot split",
        {**GIT, "perfproof.toml": '# the suite\njmh-args = "-wi \\"3"\n'},
    ),
    Case(
        "pinned-history-db-used-by-compare-record",
        (*COMPARE, "--record", "--commit", "abc123"),
        0,
        r"recorded: .* in .*cache/pinned\.sqlite",
        {**SIDES, **GIT, "perfproof.toml": 'history-db = "cache/pinned.sqlite"\n'},
    ),
    Case(
        "pinned-history-db-under-proc",
        (*COMPARE, "--record", "--format", "json"),
        2,
        r"perfproof\.toml:1: history-db /proc/perfproof\.sqlite: cannot write in /proc",
        {**SIDES, **GIT, "perfproof.toml": 'history-db = "/proc/perfproof.sqlite"\n'},
        forbid=r'"schema"',
    ),
    Case(
        "compare-record-db-under-proc-json",
        (*COMPARE, "--record", "--db", "/proc/x", "--format", "json"),
        2,
        r"--db /proc/x: cannot write in /proc",
        SIDES,
        forbid=r'"schema"',
    ),
]

MESSAGES = [
    Case(
        "report-summary-longer-than-max-chars",
        ("report", "{d}/run", "--summary", "--max-chars", "10"),
        2,
        r"--max-chars 10: the summary alone takes",
        run="ab",
        forbid=r"post --summary",
    ),
    *[
        Case(
            f"report-max-chars-with-{fmt}",
            ("report", "{d}/run", "--format", fmt, "--max-chars", "100"),
            2,
            rf"--max-chars: fits the Markdown page only; drop it with --format {fmt}",
            run="ab",
        )
        for fmt in ("html", "json")
    ],
    Case(
        "compare-retired-no-holm",
        (*COMPARE, "--no-holm"),
        2,
        r"No such option '--no-holm'",
        SIDES,
    ),
    Case(
        "compare-metric-with-newlines-one-line",
        (*COMPARE, "--metric", "gc\nalloc\nrate"),
        2,
        r"--metric gc\\nalloc\\nrate: ",
        SIDES,
    ),
    Case(
        "compare-benchmark-name-with-newlines-one-line",
        ("compare", "{d}/b.json", "{d}/h.json"),
        2,
        r"nothing to compare",
        {
            "b.json": jmh(entry("org.acme.B.m\nsecond\nthird")),
            "h.json": jmh(entry("org.acme.B.other")),
        },
    ),
]

AT_THE_EDGES = [*EDGES, *PINNED, *MESSAGES]

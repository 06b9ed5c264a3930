"""Data seen twice, values that are not measurements, zero-weight profiles, special and
existing paths as outputs, and pathological lines: each must be refused naming the input."""

from __future__ import annotations

from corpus_case import GOOD, GOOD_HEAD, Case, entry, jmh

B = "{d}/base.json"
H = "{d}/head.json"
ONE_FORK = jmh(entry(raw=((10.0, 10.2, 9.9),)))
TWO_FORKS = jmh(entry(raw=((10.0, 10.2, 9.9), (10.4, 10.1, 10.0))))

DUPLICATES = (
    [
        Case(
            f"compare-fork-copied-{n}-times",
            ("compare", B, "{d}/heads"),
            2,
            r"h0\.json.*h1\.json|h1\.json.*h0\.json",
            {"base.json": GOOD, **{f"heads/h{i}.json": ONE_FORK for i in range(n)}},
        )
        for n in (2, 3, 4)
    ]
    + [
        Case(
            f"compare-fork-repeated-in-file-{side}",
            ("compare", B, H),
            2,
            rf"{side}\.json",
            {
                "base.json": jmh(entry(raw=((10.0, 10.2, 9.9),) * 2)) if side == "base" else GOOD,
                "head.json": jmh(entry(raw=((9.0, 9.1, 8.9),) * 2))
                if side == "head"
                else GOOD_HEAD,
            },
        )
        for side in ("base", "head")
    ]
    + [
        Case(
            f"compare-fork-copied-with-params-{p}",
            ("compare", B, "{d}/heads"),
            2,
            r"h0\.json.*h1\.json|h1\.json.*h0\.json",
            {
                "base.json": jmh(entry(params={"size": p})),
                "heads/h0.json": jmh(entry(raw=((9.0, 9.1, 9.2),), params={"size": p})),
                "heads/h1.json": jmh(entry(raw=((9.0, 9.1, 9.2),), params={"size": p})),
            },
        )
        for p in ("1", "1000", "äöü")
    ]
    + [
        Case(
            "compare-fork-copied-in-base-folder",
            ("compare", "{d}/bases", H),
            2,
            r"b0\.json.*b1\.json|b1\.json.*b0\.json",
            {"bases/b0.json": TWO_FORKS, "bases/b1.json": TWO_FORKS, "head.json": GOOD_HEAD},
        ),
    ]
)

NOT_MEASUREMENTS = (
    [
        Case(
            f"compare-raw-{name}",
            ("compare", B, H),
            2,
            r"head\.json",
            {"base.json": GOOD, "head.json": jmh(entry(raw=raw))},
        )
        for name, raw in (
            ("true-iteration", ((True, 9.0, 9.1),)),
            ("false-iteration", ((False, 9.0, 9.1),)),
            ("true-last-iteration", ((9.0, 9.1, True),)),
            ("all-true", ((True, True), (True, True))),
            ("all-nan", ((float("nan"), float("nan")), (float("nan"), float("nan")))),
            ("no-forks", ()),
        )
    ]
    + [
        Case(
            f"compare-bytes-op-{name}",
            ("compare", B, H),
            2,
            r"head\.json",
            {
                "base.json": GOOD,
                "head.json": jmh(entry(raw=raw, unit="B/op")),
            },
        )
        for name, raw in (("negative", ((-24.0, -24.0),)), ("one-negative", ((24.0, -1.0),)))
    ]
    + [
        Case(
            "compare-nan-head-fails-gate",
            ("compare", B, H, "--fail-on-regression"),
            2,
            r"head\.json.*org\.acme\.Bench\.m",
            {"base.json": GOOD, "head.json": jmh(entry(raw=((float("nan"),) * 3,) * 2))},
        ),
    ]
)

ZERO = "a;b;c 0\na;b 0\n"

ZERO_WEIGHTS = [
    Case(
        "profile-all-zero-weights",
        ("profile", "{d}/p.collapsed"),
        2,
        r"p\.collapsed",
        {"p.collapsed": ZERO},
    ),
    Case(
        "diff-normalize-all-zero-weights",
        (
            "profile",
            "diff",
            "--before",
            "{d}/a.collapsed",
            "--after",
            "{d}/b.collapsed",
            "--normalize",
        ),
        2,
        r"\.collapsed",
        {"a.collapsed": ZERO, "b.collapsed": "a;b 3\n"},
    ),
    Case(
        "diff-same-recording-thrice",
        ("profile", "diff", "--before", *["{d}/a.collapsed"] * 3, "--after", "{d}/b.collapsed"),
        2,
        r"a\.collapsed",
        {"a.collapsed": "a;b 3\n", "b.collapsed": "a;b 4\n"},
    ),
    Case(
        "diff-copied-recording",
        (
            "profile",
            "diff",
            "--before",
            "{d}/a.collapsed",
            "{d}/c.collapsed",
            "--after",
            "{d}/b.collapsed",
        ),
        2,
        r"c\.collapsed is the same recording as .*a\.collapsed",
        {"a.collapsed": "a;b 3\n", "c.collapsed": "a;b 3\n", "b.collapsed": "a;b 4\n"},
    ),
]

OUTPUTS = (
    [
        Case(
            f"report-out-over-{name.replace('/', '-')}",
            ("report", "{d}/run", "--out", f"{{d}}/run/{name}"),
            2,
            r"--out",
            run="ab",
        )
        for name in ("results.json", "manifest.json", "jmh/01-base.json")
    ]
    + [
        Case(
            f"report-out-is-folder-{fmt}",
            ("report", "{d}/run", "--format", fmt, "--out", "{d}/outdir"),
            2,
            r"outdir",
            {"outdir/.keep": ""},
            run="ab",
            forbid=r"\w\.tmp",
        )
        for fmt in ("md", "html", "json")
    ]
    + [
        Case(
            f"report-out-parent-is-file-{fmt}",
            ("report", "{d}/run", "--format", fmt, "--out", "{d}/file/x"),
            2,
            r"file",
            {"file": "x"},
            run="ab",
            forbid=r"\w\.tmp",
        )
        for fmt in ("md", "json")
    ]
    + [
        Case(
            f"report-out-dev-null-{fmt}",
            ("report", "{d}/run", "--format", fmt, "--out", "/dev/null"),
            0,
            r"",
            run="ab",
        )
        for fmt in ("md", "html", "json")
    ]
)

LONG_LINE = "class A { void m() { " + "f(); " * 20000 + "} void f() {} }\n"

LONG_LINES = [
    Case(
        "callers-twenty-thousand-sites-one-line",
        ("callers", "A.f", "--repo", "{d}", "--format", "json"),
        (0, 1, 2),
        r"",
        {"src/A.java": LONG_LINE},
        strict_json=False,
    ),
]


def _wide(spread: float, forks: int) -> str:
    """Short forks (3 iterations) whose means lie ``spread`` times apart."""
    means = [10.0 * spread ** (i / max(forks - 1, 1)) for i in range(forks)]
    return jmh(entry(raw=tuple((m, m * 1.01, m * 0.99) for m in means)))


WIDE = [
    Case(
        f"compare-sequential-wide-{name}-{fmt}",
        ("compare", "--sequential", B, H, "--format", fmt),
        (0, 1),
        r"org\.acme\.Bench\.m",
        {"base.json": _wide(spread, 3), "head.json": _wide(1 / spread, 3)},
        forbid=r"\b(inf|Infinity|nan)\b|OverflowError",
        strict_json=fmt == "json",
    )
    for name, spread in (("2x", 2.0), ("0.3x", 0.3), ("1e6x", 1e6), ("1e-6x", 1e-6))
    for fmt in ("table", "md", "json")
]

STDOUT_OUTPUTS = [
    Case(
        f"report-out-{name}-{fmt}",
        ("report", "{d}/run", "--format", fmt, "--out", path),
        0,
        r"\S",
        run="ab",
        forbid=r"\w\.tmp",
    )
    for name, path in (("dash", "-"), ("dev-stdout", "/dev/stdout"))
    for fmt in ("md", "json")
]

IN_EVERY_FORMAT = (
    [
        Case(
            f"compare-{name}-{fmt}",
            ("compare", B, H, "--format", fmt),
            2,
            rf"{side}\.json",
            files,
        )
        for name, side, files in (
            (
                "copied-fork-base",
                "base",
                {"base.json": jmh(entry(raw=((10.0, 10.2, 9.9),) * 2)), "head.json": GOOD_HEAD},
            ),
            (
                "negative-bytes-base",
                "base",
                {"base.json": jmh(entry(raw=((-8.0, -8.0),), unit="B/op")), "head.json": GOOD_HEAD},
            ),
            (
                "nan-head",
                "head",
                {"base.json": GOOD, "head.json": jmh(entry(raw=((float("nan"),) * 3,) * 2))},
            ),
            (
                "true-base",
                "base",
                {"base.json": jmh(entry(raw=((True, 10.0, 10.1),))), "head.json": GOOD_HEAD},
            ),
        )
        for fmt in ("md", "json")
    ]
    + [
        Case(
            f"diff-all-zero-weights-{side}{'-json' if extra else ''}",
            (
                "profile",
                "diff",
                "--before",
                "{d}/a.collapsed",
                "--after",
                "{d}/b.collapsed",
                *extra,
            ),
            2,
            rf"{'a' if side == 'before' else 'b'}\.collapsed",
            {
                "a.collapsed": ZERO if side == "before" else "a;b 3\n",
                "b.collapsed": ZERO if side == "after" else "a;b 3\n",
            },
        )
        for side in ("before", "after")
        for extra in ((), ("--format", "json"))
    ]
    + [
        Case(
            f"profile-all-zero-weights-{fmt}",
            ("profile", "{d}/p.collapsed", "--format", fmt),
            2,
            r"p\.collapsed",
            {"p.collapsed": ZERO},
        )
        for fmt in ("md", "json")
    ]
)

COPIES = [
    *DUPLICATES,
    *NOT_MEASUREMENTS,
    *ZERO_WEIGHTS,
    *OUTPUTS,
    *LONG_LINES,
    *WIDE,
    *STDOUT_OUTPUTS,
    *IN_EVERY_FORMAT,
]

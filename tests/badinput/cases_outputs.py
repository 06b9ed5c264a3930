"""Outputs that would overwrite a run's evidence, and runs given twice to an export."""

from __future__ import annotations

from corpus_case import Case

GAB = "github-action-benchmark"

EXPORT_OUTPUTS = (
    [
        Case(
            f"export-{fmt}-over-{name.replace('/', '-')}",
            ("export", "{d}/run", "--to", fmt, "--out", f"{{d}}/run/{name}"),
            2,
            r"--out .*run folder",
            run="ab",
        )
        for fmt in ("benchstat", "bencher", "otava")
        for name in ("results.json", "manifest.json", "jmh/01-base.json", "jmh/new.json")
        if fmt != "otava" or name == "jmh/new.json"
    ]
    + [
        Case(
            f"export-otava-over-{name.replace('/', '-')}",
            ("export", "{d}/run", "--to", "otava", "--out", f"{{d}}/run/{name}"),
            2,
            rf"--out .*run/{name}: otava writes a folder",
            run="ab",
        )
        for name in ("results.json", "manifest.json", "jmh/01-base.json")
    ]
    + [
        Case(
            "export-otava-to-stdout",
            ("export", "{d}/run", "--to", "otava", "--out", "-"),
            2,
            r"--out -: otava writes a folder",
            run="ab",
        ),
        Case(
            "export-gab-out-is-a-file",
            ("export", "{d}/run", "--to", GAB, "--out", "{d}/gab"),
            2,
            r"--out .*gab.*writes a folder",
            {"gab": "not a folder\n"},
            run="ab",
        ),
        Case(
            "export-same-run-twice",
            ("export", "{d}/run", "{d}/run", "--to", "otava", "--out", "{d}/h.csv"),
            2,
            r"given twice",
            run="ab",
        ),
        Case(
            "export-same-run-twice-other-spelling",
            ("export", "{d}/run", "{d}/run/../run/", "--to", "benchstat", "--out", "{d}/b.txt"),
            2,
            r"given twice",
            run="ab",
        ),
    ]
)

FAKE_JFR = b"FLR\x00\x00\x02\x00\x00not a real chunk"

NOT_A_JVM = [
    Case(
        "profile-java-bin-false",
        ("profile", "{d}/r.jfr", "--java", "/bin/false"),
        2,
        r"--java /bin/false: not a JVM",
        {"r.jfr": FAKE_JFR},
    ),
    Case(
        "diff-java-bin-false",
        (
            "profile",
            "diff",
            "--before",
            "{d}/r.jfr",
            "--after",
            "{d}/r.jfr",
            "--java",
            "/bin/false",
        ),
        2,
        r"--java /bin/false: not a JVM",
        {"r.jfr": FAKE_JFR},
    ),
    Case(
        "ab-java-bin-false",
        ("ab", "--repo", "{d}/repo", "--base", "main", "--head", "feature", "--java", "/bin/false"),
        2,
        r"--java /bin/false: not a JVM",
        repo=True,
    ),
]

"""Outputs judged as ``cat > PATH`` judges them, on every verb, before any work.

A read-only file is refused (not replaced by a rename), a trailing ``/`` names a folder, ``-``
is refused where a folder is written, and a folder no file can be made in is found before
a JVM runs. What a device, a FIFO or ``/dev/stdout`` receives is checked in
``tests/core/test_outputs_like_cat.py`` and ``tests/profile/test_record_outputs_jvm.py``.
"""

from __future__ import annotations

from corpus_case import CPU, Case

JAVA = ("--", "java", "-version")
KEPT = "the user's own file\n"

READ_ONLY = [
    Case(
        "report-out-read-only",
        ("report", "{d}/run", "--out", "{d}/ro:kept.md"),
        2,
        r"--out .*kept\.md: cannot write: permission denied \(read-only\)",
        {"ro:kept.md": KEPT},
        run="ab",
    ),
    Case(
        "export-out-read-only",
        ("export", "{d}/run", "--to", "bencher", "--out", "{d}/ro:kept.json"),
        2,
        r"--out .*kept\.json: cannot write: permission denied \(read-only\)",
        {"ro:kept.json": KEPT},
        run="ab",
    ),
    *[
        Case(
            f"history-{verb}-out-read-only",
            ("history", verb, "--out", "{d}/ro:kept.txt"),
            2,
            r"--out .*kept\.txt: cannot write: permission denied \(read-only\)",
            {"ro:kept.txt": KEPT},
        )
        for verb in ("show", "changes")
    ],
    *[
        Case(
            f"profile-{flag}-read-only",
            ("profile", "{d}/a.collapsed", f"--{flag}", "{d}/ro:kept"),
            2,
            rf"--{flag} .*kept: cannot write: permission denied \(read-only\)",
            {"a.collapsed": CPU, "ro:kept": KEPT},
        )
        for flag in ("collapsed", "flamegraph")
    ],
    Case(
        "diff-flamegraph-read-only",
        (
            "profile",
            "diff",
            "--before",
            "{d}/a.collapsed",
            "--after",
            "{d}/b.collapsed",
            "--flamegraph",
            "{d}/ro:kept.html",
        ),
        2,
        r"--flamegraph .*kept\.html: cannot write: permission denied \(read-only\)",
        {"a.collapsed": CPU, "b.collapsed": CPU.replace("30", "20"), "ro:kept.html": KEPT},
    ),
    Case(
        "record-out-read-only-file",
        ("record", "--out", "{d}/ro:kept.jfr", *JAVA),
        2,
        r"--out .*kept\.jfr: cannot write: permission denied \(read-only\)",
        {"ro:kept.jfr": KEPT},
    ),
]

FOLDERS = [
    Case(
        "record-out-in-read-only-folder",
        ("record", "--out", "{d}/ro:locked/app.jfr", *JAVA),
        2,
        r"--out .*locked/app\.jfr: cannot write in .*locked: permission denied",
        {"ro:locked/": ""},
    ),
    Case(
        "record-out-under-proc",
        ("record", "--out", "/proc/perfproof-app.jfr", *JAVA),
        2,
        r"--out /proc/perfproof-app\.jfr: cannot write in /proc",
    ),
    Case(
        "record-out-under-a-file",
        ("record", "--out", "{d}/notes.txt/app.jfr", *JAVA),
        2,
        r"--out .*notes\.txt/app\.jfr: .*notes\.txt is a file, not a folder",
        {"notes.txt": KEPT},
    ),
    Case(
        "record-out-trailing-slash",
        ("record", "--out", "{d}/recs/", *JAVA),
        2,
        r"--out .*recs/: ends with '/', a folder; name the file to write",
    ),
    Case(
        "record-out-existing-folder",
        ("record", "--out", "{d}/recs", *JAVA),
        2,
        r"--out .*recs: is a folder; name the file to write",
        {"recs/keep.txt": KEPT},
    ),
    Case(
        "record-out-stdout-with-json",
        ("record", "--out", "-", "--format", "json", *JAVA),
        2,
        r"--format json: stdout carries the recording",
    ),
    Case(
        "report-out-trailing-slash",
        ("report", "{d}/run", "--out", "{d}/newdir/"),
        2,
        r"--out .*newdir/: ends with '/', a folder; name the file to write",
        run="ab",
    ),
    Case(
        "export-out-trailing-slash",
        ("export", "{d}/run", "--to", "bencher", "--out", "{d}/newdir/"),
        2,
        r"--out .*newdir/: ends with '/', a folder",
        run="ab",
    ),
    Case(
        "profile-collapsed-trailing-slash",
        ("profile", "{d}/a.collapsed", "--collapsed", "{d}/newdir/"),
        2,
        r"--collapsed .*newdir/: ends with '/', a folder",
        {"a.collapsed": CPU},
    ),
    Case(
        "hunt-out-dash",
        ("hunt", "--repo", "{d}/repo", "--jfr", "{d}/a.collapsed", "--out", "-"),
        2,
        r"--out -: a folder is written here, not a stream",
        {"a.collapsed": CPU},
        repo=True,
    ),
    Case(
        "merge-out-dash",
        ("merge", "{d}/run", "--out", "-"),
        2,
        r"--out -: a folder is written here, not a stream",
        run="ab",
    ),
    Case(
        "ab-out-dash",
        ("ab", "--repo", "{d}/repo", "--base", "main", "--head", "feature", "--out", "-"),
        2,
        r"--out -: a folder is written here, not a stream",
        repo=True,
    ),
    Case(
        "prove-out-dash",
        ("prove", "--repo", "{d}/repo", "--base", "main", "--head", "feature", "--out", "-"),
        2,
        r"--out -: a folder is written here, not a stream",
        repo=True,
    ),
    Case(
        "hunt-out-read-only-folder",
        ("hunt", "--repo", "{d}/repo", "--jfr", "{d}/a.collapsed", "--out", "{d}/ro:locked/"),
        2,
        r"--out .*locked/?: cannot write: permission denied \(read-only folder\)",
        {"a.collapsed": CPU, "ro:locked/": ""},
        repo=True,
    ),
]

LIKE_CAT = [*READ_ONLY, *FOLDERS]

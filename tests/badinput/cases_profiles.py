"""Bad input for JFR and source verbs: record, profile, profile diff, callers, scan."""

from __future__ import annotations

from corpus_case import ALLOC, CPU, Case

NAN = float("nan")
INF = float("inf")


RECORD = [
    Case("record-no-command", ("record", "--out", "{d}/x.jfr"), 2, r"COMMAND"),
    Case("record-no-out", ("record", "--", "java", "-version"), 2, r"--out"),
    Case(
        "record-not-java",
        ("record", "--out", "{d}/x.jfr", "--", "/bin/true"),
        2,
        r"java executable",
    ),
    Case(
        "record-missing-program",
        ("record", "--out", "{d}/x.jfr", "--", "nosuchprogram-xyz"),
        2,
        r"nosuchprogram-xyz",
    ),
    Case(
        "record-duration-negative",
        ("record", "--out", "{d}/x.jfr", "--duration", "-1", "--", "java", "-version"),
        2,
        r"--duration",
    ),
    Case(
        "record-duration-text",
        ("record", "--out", "{d}/x.jfr", "--duration", "long", "--", "java", "-version"),
        2,
        r"--duration",
    ),
    Case(
        "record-duration-nan",
        ("record", "--out", "{d}/x.jfr", "--duration", "nan", "--", "java", "-version"),
        2,
        r"--duration",
    ),
    Case(
        "record-stack-depth-zero",
        ("record", "--out", "{d}/x.jfr", "--stack-depth", "0", "--", "java", "-version"),
        2,
        r"--stack-depth",
    ),
    Case(
        "record-settings-bogus",
        ("record", "--out", "{d}/x.jfr", "--settings", "max", "--", "java", "-version"),
        2,
        r"--settings",
    ),
    Case(
        "record-out-is-folder",
        ("record", "--out", "{d}/outdir", "--", "java", "-version"),
        2,
        r"outdir",
        {"outdir/.keep": ""},
    ),
    Case(
        "record-out-is-input",
        ("record", "--out", "{d}/app.jar", "--", "java", "-jar", "{d}/app.jar"),
        2,
        r"app\.jar.*(input|overwrite)",
        {"app.jar": b"PK\x03\x04not really"},
    ),
    Case(
        "record-out-parent-is-file",
        ("record", "--out", "{d}/f.txt/x.jfr", "--", "java", "-version"),
        2,
        r"f\.txt",
        {"f.txt": "x"},
    ),
]

P = "{d}/p.collapsed"
PROFILE = [
    Case("profile-missing", ("profile", "{d}/nope.jfr"), 2, r"nope\.jfr: no such file"),
    Case("profile-empty", ("profile", P), 2, r"p\.collapsed: empty", {"p.collapsed": ""}),
    Case(
        "profile-dev-null", ("profile", "/dev/null"), 2, r"/dev/null: empty", forbid=r"no such file"
    ),
    Case(
        "profile-pipe", ("profile", "{d}/fifo:p.collapsed"), 0, r"CPU by", {"fifo:p.collapsed": CPU}
    ),
    Case(
        "profile-binary",
        ("profile", P),
        2,
        r"p\.collapsed: not a JFR recording",
        {"p.collapsed": b"\x89PNG\r\n\x1a\n\xff\xfe"},
    ),
    Case(
        "profile-nul-bytes",
        ("profile", P),
        2,
        r"p\.collapsed: not a JFR recording",
        {"p.collapsed": b"\x00\x01\x02\x03"},
    ),
    Case("profile-no-weight", ("profile", P), 2, r"line 1", {"p.collapsed": "main;a;b\n"}),
    Case(
        "profile-negative-weight",
        ("profile", P),
        2,
        r"line 2",
        {"p.collapsed": "main;a 3\nmain;b -4\n"},
    ),
    Case(
        "profile-weight-1e400",
        ("profile", P, "--format", "json"),
        2,
        r"line 2: weight 1e400",
        {"p.collapsed": "main;a 3\nmain;b 1e400\n"},
    ),
    Case("profile-weight-inf", ("profile", P), 2, r"line 1", {"p.collapsed": "main;a inf\n"}),
    Case("profile-weight-nan", ("profile", P), 2, r"line 1", {"p.collapsed": "main;a nan\n"}),
    Case(
        "profile-only-comments",
        ("profile", P),
        2,
        r"no stacks found",
        {"p.collapsed": "# nothing\n\n"},
    ),
    Case(
        "profile-large-weights-strict-json",
        ("profile", P, "--format", "json"),
        0,
        r"perfproof\.profile/1",
        {"p.collapsed": "".join(f"main;f{i} 1e15\n" for i in range(40))},
        strict_json=True,
    ),
    Case(
        "profile-fake-jfr-java-true",
        ("profile", "--java", "/bin/true", "{d}/r.jfr"),
        2,
        r"--java /bin/true",
        {"r.jfr": b"FLR\x00" + b"\x00" * 64},
        forbid=r"StopIteration",
    ),
    Case(
        "profile-java-missing",
        ("profile", "--java", "{d}/nojava", "{d}/r.jfr"),
        2,
        r"--java",
        {"r.jfr": b"FLR\x00" + b"\x00" * 64},
    ),
    Case(
        "profile-java-folder-without-bin",
        ("profile", "--java", "{d}/jdk", "{d}/r.jfr"),
        2,
        r"--java",
        {"r.jfr": b"FLR\x00" + b"\x00" * 64, "jdk/release": "x"},
    ),
    Case(
        "profile-collapsed-over-input",
        ("profile", P, "--kind", "cpu", "--collapsed", P),
        2,
        r"--collapsed .*refusing to overwrite",
        {"p.collapsed": CPU},
    ),
    Case(
        "profile-flamegraph-over-input",
        ("profile", P, "--flamegraph", P),
        2,
        r"--flamegraph .*refusing to overwrite",
        {"p.collapsed": CPU},
    ),
    Case(
        "profile-jfr-collapsed-over-itself",
        ("profile", "{d}/good.jfr", "--collapsed", "{d}/good.jfr"),
        2,
        r"refusing to overwrite",
        {"good.jfr": b"FLR\x00" + b"\x00" * 64},
    ),
    Case(
        "profile-collapsed-suffix-over-input",
        ("profile", "{d}/o.cpu.c", "--collapsed", "{d}/o.c"),
        2,
        r"refusing to overwrite",
        {"o.cpu.c": CPU + ALLOC},
    ),
    Case(
        "profile-kind-alloc-cpu-only",
        ("profile", P, "--kind", "alloc"),
        2,
        r"no allocation events",
        {"p.collapsed": CPU},
    ),
    Case(
        "profile-kind-cpu-alloc-only",
        ("profile", P, "--kind", "cpu"),
        2,
        r"no CPU samples",
        {"p.collapsed": ALLOC},
    ),
    Case("profile-top-negative", ("profile", P, "--top", "-1"), 2, r"--top", {"p.collapsed": CPU}),
    Case(
        "profile-format-bogus",
        ("profile", P, "--format", "xml"),
        2,
        r"--format",
        {"p.collapsed": CPU},
    ),
    Case(
        "profile-collapsed-kind-bogus",
        ("profile", P, "--collapsed-kind", "wall"),
        2,
        r"--collapsed-kind",
        {"p.collapsed": CPU},
    ),
    Case(
        "profile-folder-without-jfr",
        ("profile", "{d}/recs"),
        2,
        r"recs: folder holds no \.jfr",
        {"recs/a.txt": "x"},
    ),
    Case(
        "profile-collapsed-output-parent-is-file",
        ("profile", P, "--collapsed", "{d}/f.txt/o.c"),
        2,
        r"f\.txt",
        {"p.collapsed": CPU, "f.txt": "x"},
    ),
]

B, A = "{d}/b.collapsed", "{d}/a.collapsed"
DIFF = [
    Case("diff-no-before", ("profile", "diff", "--after", A), 2, r"--before", {"a.collapsed": CPU}),
    Case("diff-no-after", ("profile", "diff", "--before", B), 2, r"--after", {"b.collapsed": CPU}),
    Case(
        "diff-before-missing",
        ("profile", "diff", "--before", "{d}/nope", "--after", A),
        2,
        r"nope: no such file",
        {"a.collapsed": CPU},
    ),
    Case(
        "diff-before-empty",
        ("profile", "diff", "--before", B, "--after", A),
        2,
        r"b\.collapsed: empty",
        {"b.collapsed": "", "a.collapsed": CPU},
    ),
    Case(
        "diff-alloc-cpu-only-after",
        ("profile", "diff", "--before", B, "--after", A, "--kind", "alloc"),
        2,
        r"a\.collapsed: no allocation events",
        {"b.collapsed": CPU + ALLOC, "a.collapsed": CPU},
        forbid=r"appeared",
    ),
    Case(
        "diff-alloc-cpu-only-before",
        ("profile", "diff", "--before", B, "--after", A, "--kind", "alloc"),
        2,
        r"b\.collapsed: no allocation events",
        {"b.collapsed": CPU, "a.collapsed": CPU + ALLOC},
    ),
    Case(
        "diff-cpu-alloc-only-after",
        ("profile", "diff", "--before", B, "--after", A, "--kind", "cpu"),
        2,
        r"a\.collapsed: no CPU samples",
        {"b.collapsed": CPU, "a.collapsed": ALLOC},
    ),
    Case(
        "diff-no-common-kind",
        ("profile", "diff", "--before", B, "--after", A),
        2,
        r"no kind of event in common",
        {"b.collapsed": CPU, "a.collapsed": ALLOC},
    ),
    Case(
        "diff-confidence-two",
        ("profile", "diff", "--before", B, "--after", A, "--confidence", "2"),
        2,
        r"--confidence",
        {"b.collapsed": CPU, "a.collapsed": CPU},
    ),
    Case(
        "diff-confidence-zero",
        ("profile", "diff", "--before", B, "--after", A, "--confidence", "0"),
        2,
        r"--confidence",
        {"b.collapsed": CPU, "a.collapsed": CPU},
    ),
    Case(
        "diff-flamegraph-over-input",
        ("profile", "diff", "--before", B, "--after", A, "--flamegraph", A),
        2,
        r"refusing to overwrite",
        {"b.collapsed": CPU, "a.collapsed": CPU},
    ),
    Case(
        "diff-top-negative",
        ("profile", "diff", "--before", B, "--after", A, "--top", "-3"),
        2,
        r"--top",
        {"b.collapsed": CPU, "a.collapsed": CPU},
    ),
    Case(
        "diff-weight-1e400",
        ("profile", "diff", "--before", B, "--after", A),
        2,
        r"a\.collapsed: line 1: weight",
        {"b.collapsed": CPU, "a.collapsed": "main;x 1e400\n"},
    ),
    Case(
        "diff-strict-json",
        ("profile", "diff", "--before", B, B, "--after", A, A, "--format", "json"),
        0,
        r"perfproof\.profile",
        {"b.collapsed": CPU, "a.collapsed": "main;app.A.run;app.A.hot 1e15\n"},
        strict_json=True,
    ),
]

CALLERS = [
    Case("callers-repo-missing", ("callers", "Foo.bar", "--repo", "{d}/nope"), 2, r"nope"),
    Case(
        "callers-repo-is-file",
        ("callers", "Foo.bar", "--repo", "{d}/f.txt"),
        2,
        r"f\.txt",
        {"f.txt": "x"},
    ),
    Case(
        "callers-empty-method",
        ("callers", "", "--repo", "{d}/src"),
        2,
        r"(method|METHOD)",
        {"src/A.java": "class A {}"},
    ),
    Case(
        "callers-bad-method-syntax",
        ("callers", "a..b(", "--repo", "{d}/src"),
        2,
        r"a\.\.b\(",
        {"src/A.java": "class A {}"},
    ),
    Case(
        "callers-arity-negative",
        ("callers", "A.b", "--arity", "-1", "--repo", "{d}/src"),
        2,
        r"--arity",
        {"src/A.java": "class A {}"},
    ),
    Case(
        "callers-format-bogus",
        ("callers", "A.b", "--format", "csv", "--repo", "{d}/src"),
        2,
        r"--format",
        {"src/A.java": "class A {}"},
    ),
    Case("callers-no-args", ("callers",), 2, r"METHOD"),
    Case(
        "callers-invalid-utf8-source",
        ("callers", "A.b", "--repo", "{d}/src", "--no-cache"),
        (0, 2),
        r"A\.b|A\.java",
        {"src/A.java": b"class A { void b() {} void c() { b(); } // \xff\xfe\n}"},
    ),
]

SCAN = [
    Case("scan-repo-missing", ("scan", "--repo", "{d}/nope"), 2, r"nope"),
    Case("scan-repo-is-file", ("scan", "--repo", "{d}/f.txt"), 2, r"f\.txt", {"f.txt": "x"}),
    Case(
        "scan-profile-missing",
        ("scan", "--repo", "{d}/src", "--profile", "{d}/nope.jfr"),
        2,
        r"nope\.jfr",
        {"src/A.java": "class A {}"},
    ),
    Case(
        "scan-profile-garbage",
        ("scan", "--repo", "{d}/src", "--profile", P),
        2,
        r"p\.collapsed",
        {"src/A.java": "class A {}", "p.collapsed": b"\xff\xfe\x00"},
    ),
    Case(
        "scan-profile-1e400",
        ("scan", "--repo", "{d}/src", "--profile", P),
        2,
        r"p\.collapsed: line 1",
        {"src/A.java": "class A {}", "p.collapsed": "main;x 1e400\n"},
    ),
    Case(
        "scan-profile-dev-null",
        ("scan", "--repo", "{d}/src", "--profile", "/dev/null"),
        2,
        r"/dev/null: empty",
        {"src/A.java": "class A {}"},
        forbid=r"no such file",
    ),
    Case(
        "scan-rule-unknown",
        ("scan", "--repo", "{d}/src", "--rule", "no-such-rule"),
        2,
        r"no-such-rule",
        {"src/A.java": "class A {}"},
    ),
    Case(
        "scan-format-bogus",
        ("scan", "--repo", "{d}/src", "--format", "sarif"),
        2,
        r"--format",
        {"src/A.java": "class A {}"},
    ),
    Case(
        "scan-binary-java-source",
        ("scan", "--repo", "{d}/src", "--no-cache"),
        0,
        r"no findings|finding",
        {"src/A.java": "class A { void b() {} }\n", "src/B.java": b"\x00\x01\x02\xff"},
    ),
]

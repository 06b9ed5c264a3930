"""The profile verbs end to end on collapsed-stack inputs (no JVM needed)."""

import json

import pytest

BEFORE = [
    "main;com.acme.Codec.toData;java.util.stream.ReferencePipeline.collect {n}\n"
    "main;com.acme.Codec.write {k}\n"
    "main;com.acme.Codec.toData;java.util.ArrayList.grow;java.lang.Object[]_[a] {b}\n",
]
AFTER = ["main;com.acme.Codec.write {k}\nmain;com.acme.Codec.write;byte[]_[a] 100\n"]


@pytest.fixture
def files(tmp_path):
    def write(name, text):
        p = tmp_path / name
        p.write_text(text)
        return str(p)

    before = [
        write(f"b{i}.collapsed", BEFORE[0].format(n=n, k=50 + i, b=1000 + 10 * i))
        for i, n in enumerate((130, 140, 129))
    ]
    after = [write(f"a{i}.collapsed", AFTER[0].format(k=50 + i)) for i in range(3)]
    return before, after


def test_census_json_schema(run_cli, files):
    before, _ = files
    r = run_cli("profile", before[0], "--focus", "com.acme", "--format", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["schema"] == "perfproof.profile/1"
    top = doc["cpu"][0]
    assert set(top) >= {"frame", "focus_frame", "self", "total", "share"}
    assert top["frame"] == "java.util.stream.ReferencePipeline.collect"
    assert top["focus_frame"] == "com.acme.Codec.toData"
    assert top["self"] == 130 and top["share"] == pytest.approx(130 / 180)
    alloc = doc["alloc"][0]
    assert set(alloc) >= {"frame", "focus_frame", "class", "bytes", "share"}
    assert (alloc["frame"], alloc["class"], alloc["bytes"]) == (
        "java.util.ArrayList.grow",
        "java.lang.Object[]",
        1000,
    )


def test_census_table_and_markdown(run_cli, files):
    before, _ = files
    table = run_cli("profile", before[0], "--focus", "com.acme")
    assert table.code == 0
    assert "java.util.stream.ReferencePipeline.collect" in table.out
    assert "CPU by focus frame" in table.out
    md = run_cli("profile", "census", before[0], "--format", "md", "--kind", "cpu")
    assert md.code == 0
    assert "| # | frame |" in md.out and "Allocation" not in md.out


def test_kind_alloc_without_allocations_is_an_input_error(run_cli, tmp_path):
    p = tmp_path / "cpu-only.collapsed"
    p.write_text("main;a.B.c 5\n")
    r = run_cli("profile", str(p), "--kind", "alloc")
    assert r.code == 2
    assert "no allocation events" in r.err and "settings=profile" in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_collapsed_and_flamegraph_outputs(run_cli, files, tmp_path):
    before, _ = files
    out = tmp_path / "out.collapsed"
    html = tmp_path / "fg.html"
    r = run_cli("profile", *before, "--collapsed", str(out), "--flamegraph", str(html))
    assert r.code == 0, r.err
    cpu = (tmp_path / "out.cpu.collapsed").read_text()
    assert "main;com.acme.Codec.toData;java.util.stream.ReferencePipeline.collect 399" in cpu
    alloc = (tmp_path / "out.alloc.collapsed").read_text()
    assert "java.lang.Object[]_[a] 3030" in alloc
    assert "https://" not in html.read_text()
    # the written file reads back to the same census
    again = run_cli("profile", str(tmp_path / "out.cpu.collapsed"), "--format", "json")
    first = run_cli("profile", *before, "--format", "json", "--kind", "cpu")
    assert json.loads(again.out)["cpu"] == json.loads(first.out)["cpu"]


def test_diff_with_several_files_after_each_flag(run_cli, files, tmp_path):
    before, after = files
    html = tmp_path / "diff.html"
    r = run_cli(
        "profile", "diff", "--before", *before, "--after", *after,
        "--focus", "com.acme", "--format", "json", "--flamegraph", str(html),
    )  # fmt: skip
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["schema"] == "perfproof.profile-diff/1"
    assert len(doc["before"]) == 3 and len(doc["after"]) == 3
    assert all(
        set(row) >= {"frame", "kind", "before_mean", "after_mean", "ci", "change"}
        for row in doc["rows"]
    )
    # ordered by change relative to each kind's total: the vanished allocation (all of it)
    # before the vanished CPU frame (73% of the samples)
    assert [r["frame"] for r in doc["rows"][:2]] == [
        "java.util.ArrayList.grow",
        "java.util.ArrayList.grow",
    ]
    row = next(x for x in doc["rows"] if x["kind"] == "cpu")
    assert row["frame"] == "java.util.stream.ReferencePipeline.collect"
    assert row["before_mean"] == pytest.approx(133.0) and row["after_mean"] == 0
    assert row["status"] == "vanished"
    assert row["ci"][0] < -133 < row["ci"][1] < 0
    appeared = [x for x in doc["rows"] if x["class"] == "byte[]"]
    assert appeared[0]["status"] == "appeared"
    assert html.is_file()


def test_diff_table_and_repeated_flags(run_cli, files):
    before, after = files
    args = ["profile", "diff"]
    for b in before:
        args += ["--before", b]
    r = run_cli(*args, "--after", after[0], "--after", after[1], "--top", "3")
    assert r.code == 0, r.err
    assert "vanished" in r.out and "CPU samples" in r.out


@pytest.mark.parametrize(("typed", "level"), [("90%", 0.9), ("0.9", 0.9)])
def test_diff_confidence_is_spelled_like_every_other_verb(run_cli, files, typed, level):
    before, after = files
    args = ["profile", "diff", "--before", *before, "--after", *after, "--format", "json"]
    r = run_cli(*args, "--confidence", typed)
    assert r.code == 0, r.err
    assert json.loads(r.out)["confidence"] == pytest.approx(level)
    narrow = next(x for x in json.loads(r.out)["rows"] if x["status"] == "vanished")
    wide = json.loads(run_cli(*args, "--confidence", "99%").out)["rows"]
    wide_row = next(
        x for x in wide if x["frame"] == narrow["frame"] and x["kind"] == narrow["kind"]
    )
    assert wide_row["ci"][0] < narrow["ci"][0] and narrow["ci"][1] < wide_row["ci"][1]


def test_diff_confidence_out_of_range_is_one_line(run_cli, files):
    before, after = files
    r = run_cli("profile", "diff", "--before", *before, "--after", *after, "--confidence", "1.5")
    assert r.code == 2
    assert r.err.strip().splitlines() == [
        "perfproof: error: --confidence 1.5: ambiguous, write 1.5% or 0.015"
    ]


def test_not_a_recording(run_cli, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello world\n")
    r = run_cli("profile", str(text))
    assert r.code == 2 and "not a JFR recording" in r.err and "notes.txt" in r.err
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    r = run_cli("profile", str(binary))
    assert r.code == 2 and "blob.bin" in r.err
    empty = tmp_path / "empty.jfr"
    empty.write_bytes(b"")
    r = run_cli("profile", str(empty))
    assert r.code == 2 and "empty" in r.err
    r = run_cli("profile", str(tmp_path / "missing.jfr"))
    assert r.code == 2 and "missing.jfr" in r.err
    (tmp_path / "runs").mkdir()
    r = run_cli("profile", str(tmp_path / "runs"))
    assert r.code == 2 and "no .jfr recordings" in r.err


def test_no_jdk_says_how_to_point_at_one(run_cli, tmp_path, monkeypatch):
    rec = tmp_path / "r.jfr"
    rec.write_bytes(b"FLR\0" + b"\0" * 60)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    r = run_cli("profile", str(rec))
    assert r.code == 2
    assert "no JDK found" in r.err and "JAVA_HOME" in r.err and "--java" in r.err
    r = run_cli("profile", str(rec), "--java", str(tmp_path / "nojava"))
    assert r.code == 2 and "--java" in r.err


def test_record_refuses_non_java_command(run_cli, tmp_path):
    r = run_cli("record", "--out", str(tmp_path / "r.jfr"), "--", "python3", "-c", "1")
    assert r.code == 2 and "java executable" in r.err


def test_record_refuses_paths_jfr_would_split(run_cli, tmp_path):
    r = run_cli("record", "--out", str(tmp_path / "a,b.jfr"), "--", "java", "-version")
    assert r.code == 2 and "','" in r.err

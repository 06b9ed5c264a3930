"""Callers on the planted corpus: every kind of call site, every decoy, exact counts."""

from __future__ import annotations

import json

import pytest

TARGETS = {
    "forCode": "Errors.forCode",
    "encode": "Codec.encode",
    "newCodec": "new Codec",
    "newErrors": "new Errors",
}


def _callers(run_cli, corpus, *args):
    result = run_cli("callers", *args, "--repo", corpus, "--format", "json")
    assert result.code == 0, result.err
    return json.loads(result.out)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_production_sites_are_exactly_the_planted_ones(run_cli, corpus, expected_sites, target):
    doc = _callers(run_cli, corpus, TARGETS[target])
    got = {(s["file"], s["line"], s["confidence"]) for s in doc["sites"]}
    assert got == expected_sites[target]
    assert doc["production"] == len(expected_sites[target])
    assert all(s["scope"] == "production" for s in doc["sites"])


def test_counts_test_and_benchmark_separately(run_cli, corpus):
    forcode = _callers(run_cli, corpus, "Errors.forCode", "--all")
    assert (forcode["production"], forcode["test"], forcode["benchmark"]) == (6, 1, 2)
    scopes = {(s["file"].split("/")[-1], s["scope"]) for s in forcode["sites"]}
    assert ("CodecTest.java", "test") in scopes
    assert ("CodecBench.java", "benchmark") in scopes
    assert ("InlineBench.java", "benchmark") in scopes  # by its JMH annotations
    encode = _callers(run_cli, corpus, "Codec.encode", "--all")
    assert (encode["production"], encode["test"], encode["benchmark"]) == (20, 1, 1)
    assert (encode["exact"], encode["likely"]) == (18, 2)
    ctor = _callers(run_cli, corpus, "Codec.<init>", "--all")
    assert (ctor["production"], ctor["test"], ctor["benchmark"]) == (9, 1, 1)


def test_kinds_and_resolution_paths(run_cli, corpus):
    encode = _callers(run_cli, corpus, "Codec.encode")
    by_line = {(s["file"].split("/")[-1], s["line"]): s for s in encode["sites"]}
    assert by_line[("Pipeline.java", 59)]["kind"] == "reference"
    assert by_line[("Pipeline.java", 63)]["kind"] == "reference"
    assert by_line[("Codec.java", 21)]["via"] == "same-class"
    assert by_line[("FastCodec.java", 9)]["via"] == "subclass"
    assert by_line[("FastCodec.java", 10)]["via"] == "subclass"
    assert by_line[("ProduceService.java", 7)]["via"] == "typed-receiver"  # inherited field
    assert by_line[("Pipeline.java", 55)]["via"] == "imports-class"
    assert by_line[("Pipeline.java", 19)]["caller"] == "Pipeline.viaField"
    assert by_line[("Pipeline.java", 19)]["source"].startswith("return codec.encode(m);")
    assert by_line[("Pipeline.java", 90)]["via"] == "typed-receiver"  # Pipeline.SHARED
    assert by_line[("Pipeline.java", 98)]["via"] == "return-type"  # current() returns Codec
    assert by_line[("Pipeline.java", 102)]["via"] == "typed-receiver"  # h.codec
    forcode = _callers(run_cli, corpus, "Errors.forCode")
    vias = {(s["file"].split("/")[-1], s["line"]): s["via"] for s in forcode["sites"]}
    assert vias[("RequestHandler.java", 22)] == "static-import"
    assert vias[("RequestHandler.java", 26)] == "qualified"
    assert vias[("Errors.java", 34)] == "same-class"
    ctor = _callers(run_cli, corpus, "new Codec")
    kinds = {(s["file"].split("/")[-1], s["line"]): s["kind"] for s in ctor["sites"]}
    assert kinds[("Codec.java", 11)] == "this"
    assert kinds[("FastCodec.java", 5)] == "super"
    assert kinds[("Pipeline.java", 67)] == "constructor"  # anonymous subclass
    assert kinds[("Pipeline.java", 76)] == "reference"
    callers = {s["caller"] for s in ctor["sites"]}
    assert "Pipeline.<init>" in callers  # field initialiser


def test_decoys_never_count(run_cli, corpus):
    encode = _callers(run_cli, corpus, "Codec.encode", "--all")
    files = {s["file"].split("/")[-1] for s in encode["sites"]}
    assert "SlowCodec.java" not in files  # its own override
    assert "OtherCodec.java" not in files
    assert "Unrelated.java" not in files  # untyped receiver, no import
    lines = {(s["file"].split("/")[-1], s["line"]) for s in encode["sites"]}
    assert ("Pipeline.java", 46) not in lines  # OtherCodec receiver
    assert ("Pipeline.java", 84) not in lines  # string literal
    assert ("Pipeline.java", 114) not in lines  # factory returning OtherCodec
    forcode = _callers(run_cli, corpus, "Errors.forCode", "--all")
    handler = {s["line"] for s in forcode["sites"] if s["file"].endswith("RequestHandler.java")}
    assert 11 not in handler and 12 not in handler and 16 not in handler  # comment, string, ApiKeys
    assert 38 not in handler  # block comment


def test_arity_selects_overloads(run_cli, corpus):
    one = _callers(run_cli, corpus, "Errors.forCode", "--arity", "1")
    two = _callers(run_cli, corpus, "Errors.forCode", "--arity", "2")
    assert one["arity"] == 1 and one["production"] == 5
    assert two["production"] == 2
    assert {s["kind"] for s in two["sites"]} == {"call", "reference"}
    assert _callers(run_cli, corpus, "Errors.forCode(short, Errors)")["sites"] == two["sites"]
    assert _callers(run_cli, corpus, "Errors.forCode(short)")["arity"] == 1
    clash = run_cli("callers", "Errors.forCode(short)", "--arity", "2", "--repo", corpus)
    assert clash.code == 2 and "lists 1 parameter(s)" in clash.err
    ctor = _callers(run_cli, corpus, "new Codec", "--arity", "0")
    assert {s["line"] for s in ctor["sites"]} == {67, 76}  # anonymous subclass and Codec::new


def test_library_primitive_bar(run_cli, corpus):
    assert _callers(run_cli, corpus, "Codec.encode")["library_primitive"] is True
    assert _callers(run_cli, corpus, "Codec.encode")["distinct_callers"] == 19
    errors_ctor = _callers(run_cli, corpus, "Errors.<init>")
    assert errors_ctor["distinct_callers"] == 1  # both in the static initialiser
    assert errors_ctor["library_primitive"] is False


def test_fully_qualified_and_separator_spellings_agree(run_cli, corpus):
    plain = _callers(run_cli, corpus, "Errors.forCode")
    for spec in ("org.acme.protocol.Errors.forCode", "Errors#forCode", "Errors::forCode"):
        assert _callers(run_cli, corpus, spec)["sites"] == plain["sites"]
    assert _callers(run_cli, corpus, "Codec::new")["production"] == 9


def test_table_and_markdown(run_cli, corpus):
    table = run_cli("callers", "Codec.encode", "--repo", corpus)
    assert table.code == 0
    assert "20 production call sites in 19 distinct methods (exact 18, likely 2)" in table.out
    assert "library primitive: yes" in table.out
    assert "core/src/main/java/org/acme/server/Pipeline.java:19" in table.out
    assert "CodecTest" not in table.out
    # the sites left out are counted, so "0 production call sites" never reads as "unused"
    assert "not listed: 1 test and 1 benchmark call sites (--all lists them)" in table.out
    full = run_cli("callers", "Codec.encode", "--repo", corpus, "--all")
    assert "test: 1, benchmark: 1" in full.out and "CodecTest" in full.out
    md = run_cli("callers", "Codec.encode", "--repo", corpus, "--format", "md")
    assert md.out.startswith("### Callers of `Codec.encode`")
    assert "| `core/src/main/java/org/acme/server/Pipeline.java:19` |" in md.out


def test_json_schema(run_cli, corpus):
    doc = _callers(run_cli, corpus, "Errors.forCode")
    assert doc["schema"] == "perfproof.callers/1"
    assert doc["method"] == "Errors.forCode"
    assert doc["class"] == "org.acme.protocol.Errors"
    for site in doc["sites"]:
        assert set(site) >= {"file", "line", "caller", "kind", "confidence", "source"}


def test_two_calls_on_one_line_are_two_sites(run_cli, write_java):
    repo = write_java(
        {
            "src/main/java/p/Errors.java": (
                "package p;\npublic class Errors { public static Errors forCode(short c) "
                "{ return null; } }\n"
            ),
            "src/test/java/p/T.java": (
                "package p;\nclass T { void t() { Errors.forCode((short) 0); "
                "Errors.forCode((short) 1); } }\n"
            ),
            "src/main/java/p/U.java": (
                "package p;\nclass U { void u() { Errors.forCode((short) 0); "
                "Errors.forCode((short) 1); } }\n"
            ),
        }
    )
    result = run_cli("callers", "Errors.forCode", "--repo", repo, "--all", "--format", "json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert (doc["test"], doc["production"]) == (2, 2)
    prod = [(s["line"], s["column"]) for s in doc["sites"] if s["scope"] == "production"]
    assert len(set(prod)) == 2 and prod[0][0] == prod[1][0] == 2
    assert doc["distinct_callers"] == 1

"""Bad METHOD arguments and repositories: exit 2, one line, a suggestion when there is one."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("Errors.forCod", "Errors has no method forCod; did you mean forCode?"),
        ("Errrors.forCode", "no class Errrors in the repository; did you mean Errors?"),
        ("Codec", "expected Class.method"),
        ("Codec.", "expected Class.method"),
        ("new ", "expected"),
    ],
)
def test_unknown_or_malformed_method(run_cli, corpus, spec, message):
    result = run_cli("callers", spec, "--repo", corpus)
    assert result.code == 2
    assert message in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert result.out == ""


def test_arity_without_such_overload(run_cli, corpus):
    result = run_cli("callers", "Errors.forCode", "--arity", "3", "--repo", corpus)
    assert result.code == 2
    assert "--arity 3: Errors.forCode takes 1, 2 parameter(s)" in result.err


def test_ambiguous_simple_name(run_cli, write_java):
    repo = write_java(
        {
            "a/Util.java": "package a; public class Util { public static void go() {} }",
            "b/Util.java": "package b; public class Util { public static void go() {} }",
        }
    )
    result = run_cli("callers", "Util.go", "--repo", repo)
    assert result.code == 2 and "ambiguous (a.Util, b.Util); qualify it" in result.err
    assert run_cli("callers", "b.Util.go", "--repo", repo).code == 0


def test_missing_repo(run_cli, tmp_path):
    result = run_cli("callers", "A.b", "--repo", tmp_path / "nope")
    assert result.code == 2 and "not a directory" in result.err


def test_help_has_examples(run_cli):
    for verb in ("callers", "scan"):
        result = run_cli(verb, "--help")
        assert result.code == 0 and "Examples:" in result.out

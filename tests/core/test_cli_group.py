from perfproof import __version__


def test_version(run_cli) -> None:
    res = run_cli("--version")
    assert res.code == 0
    assert __version__ in res.out


def test_unknown_verb_is_usage_error(run_cli) -> None:
    res = run_cli("frobnicate")
    assert res.code == 2
    assert "frobnicate" in res.err


def test_help_lists_examples_and_exit_codes(run_cli) -> None:
    res = run_cli("--help")
    assert res.code == 0
    assert "perfproof ab --base main --head my-branch" in res.out
    assert "Exit codes" in res.out

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


def test_usage_errors_are_one_line_naming_the_flag(run_cli, fixtures_dir) -> None:
    base = fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json"
    for args, named in (
        (("compare", base, base, "--format", "xml"), "--format"),
        (("compare", base), "HEAD"),
        (("compare", base, base, "--bogus"), "--bogus"),
        (("callers", "X.y", "--arity", "-1"), "--arity"),
    ):
        res = run_cli(*args)
        assert res.code == 2, args
        assert res.out == ""
        lines = res.err.splitlines()
        assert len(lines) == 1, res.err
        assert lines[0].startswith("perfproof: error: ")
        assert named in lines[0]


def test_the_group_lists_each_verb_by_its_own_short_help(run_cli) -> None:
    """``perfproof --help`` lists the verbs without importing them (``SHORT_HELP``); each verb
    declares the same text as its own, so a verb's module and the listing never disagree."""
    import importlib

    from perfproof.cli import SHORT_HELP, VERBS

    assert set(SHORT_HELP) == set(VERBS)
    for verb, module in VERBS.items():
        command = importlib.import_module(f"perfproof.cli.{module}").command
        assert command.get_short_help_str(limit=1000) == SHORT_HELP[verb], verb
    listed = run_cli("--help").out
    for text in SHORT_HELP.values():
        assert " ".join(text.split()[:4]) in " ".join(listed.split())


def test_the_door_imports_no_statistics() -> None:
    """Importing the CLI and its shared flags (``--method``'s type among them) leaves SciPy
    to the commands that compare: the type reads the methods' registry only when asked."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, perfproof.cli, perfproof.cli.options as o\n"
        "assert o.FORK_METHOD.name == 'method'\n"
        "print(sorted(m for m in ('scipy', 'perfproof.stats.methods') if m in sys.modules))\n"
    )
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60,
        env=env,
    )  # fmt: skip
    assert done.stdout.strip() == "[]"

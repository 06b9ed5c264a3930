"""Counts in ``--jmh-args`` that JMH would refuse, or that leave nothing to compare, stop
``ab`` before any build (exit 2), not after both builds with JMH's error (exit 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.measure.plan import jmh_options


@pytest.mark.parametrize(
    ("args", "named"),
    [(["-f", "0"], "-f 0"), (["-f", "abc"], "-f abc"), (["-i", "0"], "-i 0"),
     (["-wi", "-1"], "-wi -1"), (["-p", "n=1", "-f"], "-f needs a value")],
)  # fmt: skip
def test_bad_counts_are_refused_naming_the_option(args: list[str], named: str) -> None:
    with pytest.raises(InputError, match=f"^--jmh-args: {named}"):
        jmh_options(args)


def test_good_counts_pass() -> None:
    opts = jmh_options(["-f", "2", "-wi", "0", "-i", "3"])
    assert opts[opts.index("-f") + 1] == "2" and opts[opts.index("-wi") + 1] == "0"


def test_ab_refuses_before_any_work(write_git_repo, run_cli, tmp_path: Path) -> None:
    repo = write_git_repo(
        tmp_path / "repo",
        [("baseline", "2026-01-01T00:00:00Z", {"README": "a"}),
         ("feature", "2026-01-02T00:00:00Z", {"README": "b"})],
    )  # fmt: skip
    out = tmp_path / "run"
    res = run_cli("ab", "--repo", repo, "--base", "baseline", "--head", "feature",
                  "--jmh-args", "-f 0", "--out", out)  # fmt: skip
    assert res.code == 2
    assert res.err.splitlines() == [
        "perfproof: error: --jmh-args: -f 0: must be a whole number >= 1"
    ]
    assert not out.exists()

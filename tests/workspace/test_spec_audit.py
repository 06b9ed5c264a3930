"""``--jar`` and ``--classpath-file`` describe a custom build; alone they were silently ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.workspace.spec import BuildSpec


@pytest.mark.parametrize(
    ("kwargs", "flag"),
    [({"jar_glob": "out/*.jar"}, "--jar"), ({"classpath_file": "cp.txt"}, "--classpath-file")],
)
def test_custom_build_outputs_without_a_build_command_are_refused(kwargs, flag) -> None:
    with pytest.raises(InputError, match=f"^{flag} says what --build-cmd makes"):
        BuildSpec(**kwargs)
    BuildSpec(build_cmd="make", **kwargs)  # with the command they are fine


def test_ab_and_guard_refuse_jar_without_build_cmd_before_any_work(
    write_git_repo, run_cli, tmp_path: Path
) -> None:
    repo = write_git_repo(
        tmp_path / "repo",
        [("baseline", "2026-01-01T00:00:00Z", {"README": "a"}),
         ("feature", "2026-01-02T00:00:00Z", {"README": "b"})],
    )  # fmt: skip
    for verb in ("ab", "guard"):
        out = tmp_path / f"run-{verb}"
        res = run_cli(verb, "--repo", repo, "--base", "baseline", "--head", "feature",
                      "--bench", "Foo", "--jar", "target/*.jar", "--out", out)  # fmt: skip
        assert res.code == 2, res.err
        (line,) = res.err.splitlines()
        assert line.startswith("perfproof: error: --jar ")
        assert not out.exists()

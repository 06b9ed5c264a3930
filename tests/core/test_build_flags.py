"""Every verb that builds takes every build option of ``ab``, with the same meaning."""

from __future__ import annotations

import click
import pytest

from perfproof.cli.ab import command as ab_command
from perfproof.cli.build_flags import BUILD, build_spec
from perfproof.cli.e2e import command as e2e_command
from perfproof.cli.guard import command as guard_command
from perfproof.cli.hunt import command as hunt_command
from perfproof.cli.hunt import hunt_request
from perfproof.cli.prove import command as prove_command
from perfproof.workspace.spec import BuildKind

BUILDERS = (prove_command, guard_command, hunt_command, e2e_command)

TOOL = ["--module", "bench", "--build", "maven", "--build-arg=-Pfast", "--build-arg", "-Dx=1",
        "--java", "/usr/bin/java", "--maven", "mvn", "--gradle", "wrapper", "--keep-checks",
        "--fresh-builds"]  # fmt: skip
CUSTOM = ["--build-cmd", "make bench", "--jar", "out/*.jar", "--classpath-file", "cp.txt"]


def _ab_build_params() -> list[click.Parameter]:
    """``ab``'s build options, read off ``ab`` itself."""
    names = {f.name for f in BUILD}
    return [p for p in ab_command.params if p.name in names]


def test_ab_build_options_are_the_one_declaration() -> None:
    assert {p.name for p in _ab_build_params()} == {f.name for f in BUILD}
    assert {"classpath_file", "build_args", "fresh_builds"} <= {f.name for f in BUILD}


@pytest.mark.parametrize("command", BUILDERS, ids=lambda c: c.name)
def test_every_verb_that_builds_accepts_ab_build_options(command: click.Command) -> None:
    for theirs in _ab_build_params():
        (mine,) = [p for p in command.params if p.name == theirs.name]
        assert (mine.opts, mine.multiple, type(mine.type)) == (
            theirs.opts, theirs.multiple, type(theirs.type)
        ), (command.name, theirs.name)  # fmt: skip
    for argv in (TOOL, CUSTOM):
        ab = ab_command.make_context("ab", list(argv)).params
        mine = command.make_context(command.name or "", list(argv)).params
        assert {k: mine[k] for k in ab if k in {f.name for f in BUILD}} == {
            f.name: ab[f.name] for f in BUILD
        }


def test_hunt_builds_with_a_classpath_file_as_ab_does() -> None:
    argv = ["--bench", "X", *CUSTOM]
    ctx = hunt_command.make_context("hunt", list(argv))
    request = hunt_request({**ctx.params, "fmt": "table", "top": 10})
    ab = build_spec(ab_command.make_context("ab", list(argv)).params)
    assert request.build == ab and request.build.classpath_file == "cp.txt"
    assert request.build.kind is BuildKind.AUTO
    fresh = hunt_command.make_context("hunt", ["--fresh-builds"]).params
    assert hunt_request(fresh).ab_options().fresh_builds

"""The flags of ab, guard and prove: declared once, built into AbOptions in one place."""

from __future__ import annotations

import dataclasses

import click

from perfproof.cli.ab import command as ab_command
from perfproof.cli.guard import command as guard_command
from perfproof.cli.prove import command as prove_command
from perfproof.cli.run_flags import AB_GROUPS, NOT_JUDGED, VERDICT, ab_options
from perfproof.measure.plan import Order
from perfproof.model.documents.run_options import RunOptions
from perfproof.model.enums import Family
from perfproof.pipeline.ab.options import AbOptions, build_options
from perfproof.pipeline.cluster import Executor
from perfproof.workspace.spec import BuildKind, BuildSpec


def _parse(command: click.Command, argv: list[str]) -> AbOptions:
    ctx = command.make_context(command.name or "", list(argv))  # click consumes the list
    return ab_options(ctx.params, unasked=NOT_JUDGED if command is guard_command else ())


def test_every_ab_option_is_one_flag_of_one_group() -> None:
    names = [f.name for group in (*AB_GROUPS, VERDICT) for f in group]
    assert len(names) == len(set(names))
    # cache_dir is set by library callers (tests, the demo), sources by the door itself
    # measure_last, keys: set by prove (its profile forks record chosen keys); explain: ab's
    # own flag (guard and prove record differently)
    not_flags = {"cache_dir", "sources", "measure_last", "keys", "explain", "history_db"}
    fields = {f.name for f in dataclasses.fields(AbOptions)} - not_flags
    assert set(names) == fields | set(build_options(BuildSpec()))  # the build's own flags


def test_ab_guard_and_prove_declare_the_shared_flags_alike() -> None:
    for group in AB_GROUPS:
        for flag in group:
            for command in (ab_command, guard_command, prove_command):
                (param,) = [p for p in command.params if p.name == flag.name]
                assert param.opts[0] == flag.decls[0], (command.name, flag.name)


def test_a_run_repeated_from_its_command_line_has_the_same_options() -> None:
    argv = [
        "--base", "merge-base:origin/main", "--head", "HEAD", "--bench", "A", "--bench", "B",
        "--build", "gradle", "--build-arg", "-Pfast", "--module", "bench", "--max-rounds", "6",
        "--budget", "15m", "--futility", "2%", "--order", "random", "--seed", "7",
        "--jmh-args", "-p n=1", "--overlay", "x.java", "--fresh-builds", "--jfr",
        "--shard", "2/4", "--java", "/usr/bin/java", "--machine", "ci-large",
        "--threshold", "2%", "--confidence", "95%", "--family", "holm",
    ]  # fmt: skip
    opts = _parse(ab_command, argv)
    assert opts.build.kind is BuildKind.GRADLE and opts.order is Order.RANDOM
    assert opts.executor is Executor.LOCAL and opts.futility == 0.02
    assert opts.bench == ("A", "B") and opts.build.build_args == ("-Pfast",)
    again = _parse(ab_command, opts.reproduce_argv()[2:])
    assert again == opts
    assert (opts.threshold, opts.confidence, opts.family) == (0.02, 0.95, "holm")
    assert opts.compare_options().threshold == 0.02
    guard_argv = argv[: argv.index("--threshold")]
    assert _parse(guard_command, guard_argv) == dataclasses.replace(
        opts, threshold=0.01, confidence=0.99, family=Family.BH
    )


def test_machine_name_is_the_flag_else_the_variable_else_none(monkeypatch) -> None:
    monkeypatch.delenv("PERFPROOF_MACHINE", raising=False)
    assert _parse(ab_command, ["--base", "a", "--head", "b"]).machine is None
    monkeypatch.setenv("PERFPROOF_MACHINE", "gh-8core")
    opts = _parse(ab_command, ["--base", "a", "--head", "b"])
    assert opts.machine == "gh-8core" and opts.to_document().machine == "gh-8core"
    assert "--machine" in opts.reproduce_argv()
    assert (
        _parse(prove_command, ["--base", "a", "--head", "b", "--machine", " m1 "]).machine == "m1"
    )
    assert AbOptions.of(opts.to_document()) == opts


def test_enums_read_back_from_a_manifest_as_enums() -> None:
    written = {"base": "a", "head": "b", "build": "maven", "order": "abab"}
    opts = AbOptions.of(RunOptions.model_validate(written))
    assert opts.build.kind is BuildKind.MAVEN and opts.order is Order.ABAB
    assert opts.to_document().dump()["build"] == "maven"

"""The Reproduce section: copy-paste commands that redo the run by hand, and with perfproof.

A reviewer who doubts a number should be able to rebuild both commits (the one commit of a
variant run, whose one JMH command runs both variants) and rerun JMH with the very same
flags. The commands are the ones the run executed (from the manifest), with
perfproof's cache paths replaced by a fresh ``git worktree`` per commit under ``/tmp`` so
they do not depend on this machine's cache.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from perfproof.measure.offheap import JAR, PROFILER
from perfproof.model import SIDE_WORDS
from perfproof.model.documents.run import BuildEntry, StepEntry
from perfproof.model.documents.run_plan import PAIR
from perfproof.process import command_line
from perfproof.report.rundir import BASE, HEAD, RunFolder

_FETCHED_MAVEN = re.compile(r"/maven/apache-maven-([\w.\-]+)/bin/mvn$")
"""A Maven perfproof fetched into its cache (``workspace.maven_fetch``)."""


@dataclass(frozen=True)
class Step:
    """One reproduction step: what it does and the exact command text."""

    caption: str
    command: str


def _repro_dir(side: str, sha: str) -> str:
    return f"/tmp/perfproof-{SIDE_WORDS[side]}-{sha[:12]}" if sha else f"/tmp/perfproof-{side}"


def _side_steps(run: RunFolder, side: str, kind: str) -> list[StepEntry | BuildEntry]:
    """The build entries (``kind`` build) or the JMH steps of one side that recorded an argv."""
    entries: list[StepEntry | BuildEntry] = [
        *(run.manifest.builds if kind == "build" else run.manifest.steps)
    ]
    return [
        s
        for s in entries
        if s.side == side
        and (kind == "build" or (isinstance(s, StepEntry) and s.kind == kind))
        and argv_of(s)
    ]


def argv_of(entry: StepEntry | BuildEntry) -> list[str] | None:
    """The command a step or build ran (``argv`` for a JMH step, ``command`` for a build)."""
    argv = entry.argv if isinstance(entry, StepEntry) else None
    for value in (argv, entry.command):
        if isinstance(value, list) and value:
            return list(value)
    return None


def _rewrite(argv: list[str], prefixes: dict[str, str]) -> list[str]:
    """Replace perfproof's cache worktree paths (``…/<sha>``) by the reproduction checkout."""
    out = []
    for arg in argv:
        for sha, new in prefixes.items():
            # a path ends at a classpath separator: each entry of ``-cp a:b`` is its own path
            arg = re.sub(rf"(?<![\w.-])/[^\s'\":]*/{re.escape(sha)}(?=/|$)", new, arg)
        out.append(arg)
    return out


def _result_file(argv: list[str], name: str) -> list[str]:
    out = list(argv)
    for i, a in enumerate(out[:-1]):
        if a == "-rff":
            out[i + 1] = name
    return out


def _in_dir(directory: str, argv: list[str]) -> str:
    return f"cd {command_line([directory])} && {command_line(argv)}"


def steps(run: RunFolder) -> tuple[list[Step], str]:
    """The reproduction steps and a note saying how complete they are."""
    repo = run.manifest.repo
    out: list[Step] = []
    prefixes: dict[str, str] = {}
    shas: dict[str, str] = {}
    paired = run.manifest.variants is not None  # two variants of one commit: one checkout
    sides = (BASE,) if paired else (BASE, HEAD)
    for side in (BASE, HEAD):
        shas[side] = run.manifest.side(side).sha or ""
        if shas[side] and side in sides:
            prefixes[shas[side]] = _repro_dir(side, shas[side])
        for build in _side_steps(run, side, "build"):
            if build.key:
                # a cached build's files live under <cache>/builds/<key>/files/, laid out
                # like the checkout
                prefixes[f"{build.key}/files"] = _repro_dir(side, shas[side])
    if repo and shas[BASE] and shas[HEAD]:
        for side in sides:
            argv = ["git", "-C", str(repo), "worktree", "add", "--detach"]
            out.append(
                Step(
                    "Check out the commit"
                    if paired
                    else f"Check out the {SIDE_WORDS[side]} commit",
                    command_line([*argv, _repro_dir(side, shas[side]), shas[side]]),
                )
            )
    for side in sides:
        for s in _side_steps(run, side, "build")[:1]:
            argv = _rewrite(argv_of(s) or [], prefixes)
            cwd = _rewrite([str(s.cwd or _repro_dir(side, shas[side]))], prefixes)[0]
            what = "the commit" if paired else f"the {SIDE_WORDS[side]}"
            fetched = _FETCHED_MAVEN.search(argv[0]) if argv else None
            if fetched:  # a path into this machine's cache: the reader runs their own
                argv[0] = "mvn"
                what += f" (with Apache Maven {fetched.group(1)} as mvn on PATH)"
            out.append(Step(f"Build {what}", _in_dir(cwd, argv)))
    out += jmh_steps(run, prefixes, paired)
    own = _own_run(run, prefixes, sides[-1], shas)
    if own is not None:
        out.append(own)
    ab = _perfproof_line(run, repo, shas)
    if ab:
        out.append(Step("Redo everything with perfproof", ab))
    if paired and any("build" in st.caption.lower() for st in out):
        note = (
            "Each JMH command below is one the run ran, with the rounds it ran in: JMH forks "
            "each variant separately, and `perfproof compare FILE --pair …` (the rule under "
            "Methodology) splits the JSON into the two sides."
        )
    elif any("build" in st.caption.lower() for st in out):
        note = (
            "Each JMH command below is one the run ran (the benchmark module's jar first on "
            "the classpath), with the rounds it ran in, in the order under Methodology; the "
            "JSON files compare with `perfproof compare`."
        )
    else:
        note = (
            "This run was made from existing JMH results, so no build or JMH command was "
            "recorded; the comparison itself is redone by the command below."
        )
    return out, note


def _own_run(
    run: RunFolder, prefixes: dict[str, str], side: str, shas: dict[str, str]
) -> Step | None:
    """The project's own command for the benchmarks measured (benchmarks in the test sources
    run through a profile), when it selects the same benchmarks; on the last side checked out."""
    regexes = list(run.manifest.plan.benchmarks) if run.manifest.plan else []
    for build in run.manifest.builds:
        if build.side != side or build.own_run is None:
            continue
        command = build.own_run.command(regexes)
        if command is None:
            continue
        cwd = _rewrite([str(build.cwd or _repro_dir(side, shas[side]))], prefixes)[0]
        what = "the commit" if side == BASE else f"the {SIDE_WORDS[side]}"
        return Step(
            f"Or run them on {what} as the project does itself (its own JMH settings and "
            "result file, not this run's, inside its Maven build)",
            _in_dir(cwd, command),
        )
    return None


def _perfproof_line(run: RunFolder, repo: str | None, shas: dict[str, str]) -> str | None:
    recorded = run.manifest.command
    if recorded:
        argv = list(recorded)
        # pin the refs to the commits that were measured: branches move, SHAs do not
        for flag, side in (("--base", BASE), ("--head", HEAD), ("--ref", BASE)):
            if flag in argv[:-1] and shas[side]:
                argv[argv.index(flag) + 1] = shas[side]
        return command_line(argv)
    if repo and shas[BASE] and shas[HEAD]:
        argv = ["perfproof", "ab", "--repo", str(repo), "--base", shas[BASE], "--head", shas[HEAD]]
        plan = run.manifest.plan
        if plan is not None:
            argv += ["--rounds", str(plan.rounds), "--order", plan.order]
            for bench in plan.benchmarks:
                argv += ["--bench", bench]
        return command_line(argv)
    if run.raw_for(BASE) and run.raw_for(HEAD):
        jmh_dir = run.path / "jmh"
        base = sorted(
            {f"{jmh_dir}/*-{r.path.stem.split('-', 1)[1]}.json" for r in run.raw_for(BASE)}
        )
        head = sorted(
            {f"{jmh_dir}/*-{r.path.stem.split('-', 1)[1]}.json" for r in run.raw_for(HEAD)}
        )
        return command_line(["perfproof", "compare", base[0], head[0]])
    return None


CLASSPATH_FLAGS = ("-cp", "-classpath", "--class-path")
MODULE_JAR = "the benchmark module's jar"


def _without_offheap(argv: list[str]) -> list[str]:
    """The command without perfproof's off-heap profiler: its jar lives in this machine's
    perfproof cache, and JMH's numbers do not need it (``perfproof ab`` adds it again)."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == PROFILER and out[-1:] == ["-prof"]:
            out.pop()
            continue
        if i and argv[i - 1] in CLASSPATH_FLAGS:
            arg = os.pathsep.join(p for p in arg.split(os.pathsep) if not p.endswith(JAR))
        out.append(arg)
    return out


def jmh_steps(run: RunFolder, prefixes: dict[str, str], paired: bool) -> list[Step]:
    """Every JMH command the run ran, once each with the rounds that ran it, in the order of
    the run; a side's classpath (the benchmark module's jar, then its dependencies) is set
    once in a variable the commands use. A step whose warm-up differs from the plan's says
    why: perfproof chose it from round 1's traces."""
    plan_wi = _warmup_of(list(run.manifest.plan.jmh_options)) if run.manifest.plan else None
    groups: dict[tuple[str, tuple[str, ...]], list[StepEntry]] = {}
    classpaths: dict[str, str] = {}
    owners: dict[str, str] = {}
    tested = {b.side for b in run.manifest.builds if b.layout == "test-classes"}
    if paired and tested:
        tested.add(PAIR)  # two variants of one commit: its one build is the pair's
    for s in run.manifest.steps:
        argv = argv_of(s)
        if s.kind != "jmh" or not argv or s.side not in ((PAIR,) if paired else (BASE, HEAD)):
            continue
        argv = _rewrite(_without_offheap(argv), prefixes)
        side = s.side or ""
        for i, a in enumerate(argv[:-1]):
            if a in CLASSPATH_FLAGS:
                name = f"CP_{SIDE_WORDS.get(side, side).upper()}"
                owners.setdefault(name, side)
                if classpaths.setdefault(name, argv[i + 1]) == argv[i + 1]:
                    argv[i + 1] = f"${name}"
        groups.setdefault((side, tuple(_result_file(argv, "RESULT"))), []).append(s)
    out = [
        Step(
            f"Set the {SIDE_WORDS.get(name[3:].lower(), name[3:].lower())} classpath "
            f"({'the test classes' if owners[name] in tested else MODULE_JAR} the run used, "
            "then its dependencies)",
            f"{name}={command_line([cp])}",
        )
        for name, cp in classpaths.items()
    ]
    for (side, shown), entries in groups.items():
        first = entries[0]
        rounds = [e.round for e in entries if e.round is not None]
        what = "both variants, one JMH process" if paired else f"the {SIDE_WORDS[side]}"
        caption = f"Run JMH on {what} in {_rounds_words(rounds)}"
        if len(entries) > 1:
            caption += f" (one file per round, named like {first.id}.json)"
        wi = _warmup_of(list(shown))
        if wi is not None and plan_wi is not None and wi != plan_wi:
            caption += "; " + _warmup_reason(wi, plan_wi, first)
        text = command_line(_result_file(list(shown), f"{first.id}.json"))
        for name in classpaths:
            text = text.replace(f"'${name}'", f'"${name}"')
        if first.cwd:
            text = f"cd {command_line([_rewrite([str(first.cwd)], prefixes)[0]])} && {text}"
        out.append(Step(caption, text))
    return out


def _warmup_of(argv: list[str]) -> int | None:
    for i, a in enumerate(argv[:-1]):
        if a == "-wi" and argv[i + 1].isdigit():
            return int(argv[i + 1])
    return None


def _rounds_words(rounds: list[int]) -> str:
    if not rounds:
        return "the run"
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if rounds == list(range(rounds[0], rounds[-1] + 1)):
        return f"rounds {rounds[0]}–{rounds[-1]}"
    return "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"


def _warmup_reason(wi: int, plan_wi: int, step: StepEntry) -> str:
    benchmarks = step.selection.benchmarks if step.selection else []
    names = sorted({b.rsplit(".", 1)[-1] for b in benchmarks})
    which = ", ".join(names) if names else "these benchmarks"
    return (
        f"`-wi {wi}` instead of the plan's `-wi {plan_wi}`: forks of {which} had started "
        "unsettled in round 1, so perfproof gave them more warm-up in later rounds, both "
        "sides alike"
    )

"""Maven: ``package`` (never ``install``) one module and what it needs, then find the jar.

``install`` would write the user's snapshot artifacts into ~/.m2, where their own builds would
pick them up; ``-pl MODULE -am package`` builds the module's in-repo dependencies inside the
reactor instead. The same command runs ``dependency:build-classpath`` into a file under each
module's target/, so a project that does not shade still gets the exact runtime classpath
Maven resolved (sibling modules' jars included) without a second Maven start.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from perfproof.env.cache import cache_root
from perfproof.errors import InputError
from perfproof.workspace import maven_need, maven_steps
from perfproof.workspace.build_causes import diagnose
from perfproof.workspace.jars import BENCHMARK_LIST, candidate_jars, has_benchmarks, pick_uber
from perfproof.workspace.launcher import MAVEN, Chosen, Launcher, choose
from perfproof.workspace.maven_fetch import (
    DEPENDENCY_PLUGIN,
    MavenChoice,
    choose_maven,
    program_version,
)
from perfproof.workspace.maven_need import MavenNeed
from perfproof.workspace.maven_steps import LaunchStep, TestBenchmarks
from perfproof.workspace.plan import (
    BuildPlan,
    Outputs,
    build_command,
    module_dir,
    read_classpath_file,
)
from perfproof.workspace.pom import active_by_default, read_pom
from perfproof.workspace.spec import BuildSpec

CLASSPATH_FILE = "target/perfproof-classpath.txt"
WRAPPER_DOWNLOAD = re.compile(
    r"(Exception in thread \"main\" java\.net\.\w+Exception|"
    r"(Could not|Couldn't|Failed to) (download|fetch)|wrapper.*(download|fetch).*fail|"
    r"curl: \(\d+\)|wget: )",
    re.I,
)
"""What a wrapper prints when it cannot fetch its Maven: the hint names --maven mvn then only."""


SKIPPED_CHECKS = (
    "-Dmaven.javadoc.skip=true",
    "-Dmaven.source.skip=true",
    "-Dcheckstyle.skip=true",
    "-Denforcer.skip=true",
    "-Danimal.sniffer.skip=true",
    "-Drat.skip=true",
    "-Dspotbugs.skip=true",
    "-Dpmd.skip=true",
    "-Dcpd.skip=true",
    "-Djapicmp.skip=true",
    "-Drevapi.skip=true",
    "-Dlicense.skip=true",
    "-Dspotless.check.skip=true",
    "-Djacoco.skip=true",
    "-Dcyclonedx.skip=true",
    "-Dforbiddenapis.skip=true",
)
"""Plugins that check or document a project but leave the benchmark jar as it is. A reactor
build of a big project spends minutes in them, and some fail on a worktree (a license header
check that wants the .git folder, an API-compatibility check that downloads the last release);
``--keep-checks`` runs them."""


def plan(
    worktree: Path,
    spec: BuildSpec,
    *,
    fresh: bool,
    env: dict[str, str],
    cache_dir: Path | None = None,
    need: MavenNeed | None = None,
) -> BuildPlan:
    """The build of ``spec``'s module: ``package`` for benchmarks in the main sources,
    ``test-compile`` with the benchmark profile for benchmarks in the test sources (see
    :mod:`.maven_steps`), with a Maven that meets what the project needs (``need``: what a
    failed build's log named, beside what the build files say)."""
    base = module_dir(worktree, spec.module, ("pom.xml",))
    chosen = choose(MAVEN, worktree, MAVEN.parse(spec.maven))
    tool = _maven(worktree, spec, chosen, cache_dir, need)
    tests = maven_steps.find_test_benchmarks(base)
    goal = "test-compile" if tests else "package"
    argv = [tool.program, "-B", "-ntp", "-DskipTests", *module_args(spec.module)]
    if not spec.keep_checks:
        argv += SKIPPED_CHECKS
    asked, refused = maven_steps.profiles_asked(spec.build_args)
    added = tests.profile if tests and tests.profile not in (None, *asked, *refused) else None
    if added:
        argv.append(f"-P{added}")
    argv += list(spec.build_args)
    switched: set[str | None] = {*asked, added}
    launches = maven_steps.reached(_launches(worktree, base, switched), goal)
    argv += maven_steps.skip_flags(launches)
    argv += ["clean", goal] if fresh else [goal]
    argv += [
        f"{DEPENDENCY_PLUGIN}:build-classpath",
        f"-Dmdep.outputFile={CLASSPATH_FILE}",
        f"-Dmdep.includeScope={'test' if tests else 'runtime'}",
    ]
    notes = [chosen.note, tool.note]
    if tests:
        notes.append(_found_line(spec, tests, goal, refused))
    if launches:
        steps = ", ".join(s.words() for s in launches)
        notes.append(f"skipped {steps}: it starts JMH inside the build; perfproof runs JMH itself")
    return BuildPlan(
        build_command(argv, worktree, env),
        note="\n".join(n for n in notes if n),
        advise=lambda log: failure_hint(worktree, spec, log, wrapper=chosen.is_wrapper),
        tool=tool.label,
        own_run=tests.own_run(module_args(spec.module)) if tests else None,
        retry=None
        if chosen.is_wrapper or MAVEN.parse(spec.maven) is not Launcher.AUTO
        else lambda log: _retry(worktree, spec, fresh, env, cache_dir, tool.program, log),
    )


def maven_program(worktree: Path, spec: BuildSpec, cache_dir: Path | None = None) -> str:
    """The Maven that builds ``worktree`` as :func:`plan` chooses it, for another goal run on
    the same checkout (the project's own tests)."""
    chosen = choose(MAVEN, worktree, MAVEN.parse(spec.maven))
    return _maven(worktree, spec, chosen, cache_dir, None).program


def _maven(
    worktree: Path,
    spec: BuildSpec,
    chosen: Chosen,
    cache_dir: Path | None,
    need: MavenNeed | None,
) -> MavenChoice:
    """The wrapper, or the Maven on PATH when it meets the project's need, else a fetched one
    (``--maven mvn`` insists on PATH's, whatever the need)."""
    if chosen.is_wrapper:
        pinned = maven_need.wrapper_need(worktree)
        version = f" (Apache Maven {pinned[0].spec})" if pinned else ""
        return MavenChoice(chosen.program, f"{chosen.program}{version}")
    if MAVEN.parse(spec.maven) is Launcher.PATH:
        return choose_maven(None, chosen.program, cache_root(cache_dir), Path(os.devnull))
    found = maven_need.needed(worktree, spec.module)
    best = maven_need.strictest([n for n in (found, need) if n is not None])
    root = cache_root(cache_dir)
    return choose_maven(best, chosen.program, root, root / "maven" / "fetch.log")


def _retry(
    worktree: Path,
    spec: BuildSpec,
    fresh: bool,
    env: dict[str, str],
    cache_dir: Path | None,
    program: str,
    log_text: str,
) -> BuildPlan | None:
    """The same build with a Maven that meets what the failed build's log says a plugin
    needs (None: the log names no such need, or this Maven meets it already)."""
    need = maven_need.need_from_log(log_text)
    version = program_version(program)
    if need is None or version is None or need.allows(version):
        return None
    return plan(worktree, spec, fresh=fresh, env=env, cache_dir=cache_dir, need=need)


def _launches(worktree: Path, base: Path, profiles: set[str | None]) -> list[LaunchStep]:
    """The JMH-starting steps of the module's and the root's poms in the build and in the
    profiles the build switches on (asked for, added, or active by default)."""
    out: list[LaunchStep] = []
    for path in dict.fromkeys([base / "pom.xml", worktree / "pom.xml"]):
        root = read_pom(path)
        if root is None:
            continue
        active = profiles | active_by_default(root) | {None}
        out += [s for s in maven_steps.launch_steps(root) if s.profile in active]
    return list(dict.fromkeys(out))


def _found_line(spec: BuildSpec, tests: TestBenchmarks, goal: str, refused: set[str]) -> str:
    """What was found and how it is run, in one line."""
    where = f"{spec.module}/{tests.source_dir}" if spec.module else tests.source_dir
    text = f"benchmarks in the test sources: {tests.classes} classes with @Benchmark in {where}"
    if tests.profile in refused:
        text += f"; building to {goal} without their profile {tests.profile}, as asked"
    elif tests.profile:
        text += f"; building with -P{tests.profile} (its compiler settings) to {goal}"
    else:
        text += f"; building to {goal}"
    never = maven_steps.reached(tests.launches, "deploy")
    if never:
        text += f", never its {', '.join(s.words() for s in never)}"
    return text + "; JMH runs from target/test-classes on the test classpath"


def collect(worktree: Path, spec: BuildSpec) -> Outputs:
    base = module_dir(worktree, spec.module, ("pom.xml",))
    cp_file = base / CLASSPATH_FILE
    if maven_steps.find_test_benchmarks(base) is not None:
        return _test_outputs(base, cp_file)
    jars = candidate_jars(base / "target")
    uber = pick_uber(jars)
    if uber is not None:
        return Outputs(jar=uber, classpath=[])
    thin = [j for j in jars if has_benchmarks(j)]
    if not thin:
        raise InputError(_no_benchmarks(spec, base / "target", worktree))
    deps = read_classpath_file(cp_file, base) if cp_file.is_file() else []
    return Outputs(jar=thin[0], classpath=[thin[0], *deps])


def _test_outputs(base: Path, cp_file: Path) -> Outputs:
    """target/test-classes, target/classes and the test classpath Maven resolved."""
    tests, classes = base / "target" / "test-classes", base / "target" / "classes"
    if not (tests / BENCHMARK_LIST).is_file():
        raise InputError(
            f"the test classes in {tests} hold no {BENCHMARK_LIST}: is "
            "jmh-generator-annprocess on the test compile path (a test-scoped dependency)?"
        )
    deps = read_classpath_file(cp_file, base) if cp_file.is_file() else []
    own = [tests, *([classes] if classes.is_dir() else [])]
    return Outputs(jar=None, classpath=[*own, *[d for d in deps if d not in own]])


def _no_benchmarks(spec: BuildSpec, target: Path, worktree: Path) -> str:
    where = f"module {spec.module!r}" if spec.module else "the root module"
    found = benchmark_modules(worktree)
    advice = (
        f"benchmarks were built in {', '.join(found)}: choose one with --module {found[0]}"
        if found and not spec.module
        else "is jmh-generator-annprocess configured? choose the benchmark module with --module"
    )
    tests_jars = [j.name for j in sorted(target.glob("*-tests.jar")) if has_benchmarks(j)] or (
        [] if not (target / "test-classes" / BENCHMARK_LIST).is_file() else ["test-classes"]
    )
    if tests_jars:
        advice = (
            f"{tests_jars[0]} holds it: the benchmarks are compiled with the tests, but their "
            "sources hold no @Benchmark perfproof can see; " + advice
        )
    return (
        f"no JMH benchmarks built in {where}: no jar in {target} holds {BENCHMARK_LIST} ({advice})"
    )


def profiles_listing(worktree: Path, module: str) -> list[str]:
    """The ids of the root pom's profiles whose ``<modules>`` name ``module``.

    A benchmark module declared only inside a profile is invisible to ``-pl`` until the
    profile is active; naming the profile turns Maven's "Could not find the selected project
    in the reactor" into something the user can act on (``--build-arg -P<id>``).
    """
    pom = worktree / "pom.xml"
    try:
        root = ElementTree.parse(pom).getroot()
    except (OSError, ElementTree.ParseError):
        return []
    ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    wanted = PurePosixPath(module.strip()).as_posix()
    found = []
    for profile in root.iter(f"{ns}profile"):
        modules = [
            PurePosixPath((m.text or "").strip()).as_posix() for m in profile.iter(f"{ns}module")
        ]
        pid = profile.findtext(f"{ns}id")
        if wanted in modules and pid:
            found.append(pid.strip())
    return found


def failure_hint(worktree: Path, spec: BuildSpec, log_text: str, *, wrapper: bool = False) -> str:
    """Advice for a failed Maven build whose log shows a known, fixable cause."""
    if wrapper and WRAPPER_DOWNLOAD.search(log_text):
        return "the Maven wrapper could not download Maven: pass --maven mvn to use mvn from PATH"
    if spec.module and "Could not find the selected project in the reactor" in log_text:
        ids = profiles_listing(worktree, spec.module)
        if ids:
            args = " ".join(f"--build-arg -P{i}" for i in ids[:1])
            listed = ", ".join(ids)
            return f"module {spec.module!r} is listed only in profile(s) {listed}: add {args}"
        return f"module {spec.module!r} is not in the reactor (is it in a profile? see --build-arg)"
    cause = diagnose(log_text)
    return cause.advice() if cause else ""


def benchmark_modules(worktree: Path) -> list[str]:
    """Modules (two levels deep) whose build left a jar with benchmarks: a whole-reactor build
    without ``--module`` builds them, and the user only has to name one."""
    found = set()
    for pattern in ("*/target/*.jar", "*/*/target/*.jar"):
        for jar in worktree.glob(pattern):
            module = jar.parent.parent.relative_to(worktree).as_posix()
            if module not in found and jar in candidate_jars(jar.parent) and has_benchmarks(jar):
                found.add(module)
    return sorted(found)


def module_args(module: str | None) -> list[str]:
    """``-pl MODULE -am``: the module and the in-repo modules it needs, built in the reactor."""
    return ["-pl", module, "-am"] if module else []


def application_argv(
    worktree: Path,
    module: str | None,
    launch: Launcher = Launcher.AUTO,
    args: tuple[str, ...] = (),
    keep_checks: bool = False,
) -> list[str]:
    """``package`` an application (``perfproof e2e --build maven``): no JMH jar is looked for;
    what the build makes is up to the command that runs next. The launcher, the extra
    arguments and the checks skipped are those of a benchmark build."""
    program = choose(MAVEN, worktree, launch).program
    checks = [] if keep_checks else list(SKIPPED_CHECKS)
    return [program, "-B", "-q", "-DskipTests", *module_args(module), *checks, *args, "package"]

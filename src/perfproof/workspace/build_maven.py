"""Maven: ``package`` (never ``install``) one module and what it needs, then find the jar.

``install`` would write the user's snapshot artifacts into ~/.m2, where their own builds would
pick them up; ``-pl MODULE -am package`` builds the module's in-repo dependencies inside the
reactor instead. The same command runs ``dependency:build-classpath`` into a file under each
module's target/, so a project that does not shade still gets the exact runtime classpath
Maven resolved (sibling modules' jars included) without a second Maven start.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from perfproof.errors import InputError
from perfproof.workspace.build_causes import diagnose
from perfproof.workspace.jars import candidate_jars, has_benchmarks, pick_uber
from perfproof.workspace.launcher import MAVEN, Launcher, choose
from perfproof.workspace.plan import (
    BuildPlan,
    Outputs,
    build_command,
    module_dir,
    read_classpath_file,
)
from perfproof.workspace.spec import BuildSpec

DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
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


def plan(worktree: Path, spec: BuildSpec, *, fresh: bool, env: dict[str, str]) -> BuildPlan:
    module_dir(worktree, spec.module, ("pom.xml",))
    chosen = choose(MAVEN, worktree, MAVEN.parse(spec.maven))
    argv = [chosen.program, "-B", "-ntp", "-DskipTests", *module_args(spec.module)]
    if not spec.keep_checks:
        argv += SKIPPED_CHECKS
    argv += list(spec.build_args)
    argv += ["clean", "package"] if fresh else ["package"]
    argv += [
        f"{DEPENDENCY_PLUGIN}:build-classpath",
        f"-Dmdep.outputFile={CLASSPATH_FILE}",
        "-Dmdep.includeScope=runtime",
    ]
    return BuildPlan(
        build_command(argv, worktree, env),
        note=chosen.note,
        advise=lambda log: failure_hint(worktree, spec, log, wrapper=chosen.is_wrapper),
    )


def collect(worktree: Path, spec: BuildSpec) -> Outputs:
    base = module_dir(worktree, spec.module, ("pom.xml",))
    jars = candidate_jars(base / "target")
    uber = pick_uber(jars)
    if uber is not None:
        return Outputs(jar=uber, classpath=[])
    thin = [j for j in jars if has_benchmarks(j)]
    if not thin:
        raise InputError(_no_benchmarks(spec, base / "target", worktree))
    cp_file = base / CLASSPATH_FILE
    deps = read_classpath_file(cp_file, base) if cp_file.is_file() else []
    return Outputs(jar=thin[0], classpath=[thin[0], *deps])


def _no_benchmarks(spec: BuildSpec, target: Path, worktree: Path) -> str:
    where = f"module {spec.module!r}" if spec.module else "the root module"
    found = benchmark_modules(worktree)
    advice = (
        f"benchmarks were built in {', '.join(found)}: choose one with --module {found[0]}"
        if found and not spec.module
        else "is jmh-generator-annprocess configured? choose the benchmark module with --module"
    )
    return (
        f"no JMH benchmarks built in {where}: no jar in {target} holds META-INF/BenchmarkList "
        f"({advice})"
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

"""Gradle: run the project's wrapper (or, when asked or when it cannot work, ``gradle`` from
PATH) on the task that makes the benchmark jar.

The wrapper comes first because Gradle versions break builds and the wrapper pins the one the
project was written for. It downloads that distribution (``distributionUrl`` in
gradle/wrapper/gradle-wrapper.properties) on first use; when that host cannot be reached and
the distribution is not in ~/.gradle/wrapper/dists, ``--gradle auto`` builds with the Gradle on
PATH and says so (:mod:`.launcher`).
The task is ``jmhJar`` when the build applies the JMH Gradle plugin and ``shadowJar`` when it
applies the Shadow plugin; with neither, benchmarks kept in the test sources are built with
their tests and run from them (:mod:`.gradle_tests`); anything else needs ``--build-cmd``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.errors import InputError
from perfproof.workspace import gradle_tests
from perfproof.workspace.build_causes import diagnose
from perfproof.workspace.jars import candidate_jars, pick_uber
from perfproof.workspace.launcher import GRADLE, Chosen, Launcher, choose
from perfproof.workspace.plan import BuildPlan, Outputs, build_command, module_dir
from perfproof.workspace.spec import BuildSpec

_SCRIPTS = ("build.gradle", "build.gradle.kts")
_JMH_PLUGIN = re.compile(r"me\.champeau\.(gradle\.)?jmh|\bjmhJar\b|^\s*jmh\s*\{", re.M)
_SHADOW_PLUGIN = re.compile(
    r"com\.github\.johnrengelman\.shadow|com\.gradleup\.shadow|"
    r"\bshadowJar\b"
)
_WRAPPER_DOWNLOAD = re.compile(
    r"Downloading https?://\S+gradle-[\w.\-]+\.zip|Could not (download|install) Gradle|"
    r"Exception in thread \"main\" java\.(net|io)\.\w+Exception",
    re.I,
)
WRAPPER_HINT = (
    "the Gradle wrapper must be able to download its distribution (distributionUrl in "
    "gradle/wrapper/gradle-wrapper.properties) or find it in ~/.gradle/wrapper/dists"
)


def jar_task(worktree: Path, spec: BuildSpec) -> str:
    """``jmhJar`` or ``shadowJar``, read from the module's (then the root's) build script."""
    base = module_dir(worktree, spec.module, _SCRIPTS) if spec.module else worktree
    texts = [
        (folder / name).read_text(encoding="utf-8", errors="replace")
        for folder in dict.fromkeys([base, worktree])
        for name in _SCRIPTS
        if (folder / name).is_file()
    ]
    if any(_JMH_PLUGIN.search(t) for t in texts):
        return "jmhJar"
    if any(_SHADOW_PLUGIN.search(t) for t in texts):
        return "shadowJar"
    raise InputError(
        f"no JMH (me.champeau.jmh) or Shadow plugin in the Gradle build of {base}; "
        "pass --build-cmd with --jar to say how to build the benchmark jar"
    )


def plan(
    worktree: Path,
    spec: BuildSpec,
    *,
    fresh: bool,
    env: dict[str, str],
    cache_dir: Path | None = None,
) -> BuildPlan:
    chosen = launcher(worktree, GRADLE.parse(spec.gradle))
    tests = gradle_tests.find(worktree, spec.module)
    prefix = task_prefix(spec.module)
    argv = [chosen.program, "--no-daemon", "--console=plain"]
    if tests is not None:
        argv += gradle_tests.init_args(cache_root(cache_dir), spec.module)
    if fresh:
        argv.append(f"{prefix}clean")
    argv.append(f"{prefix}{gradle_tests.TASK if tests else jar_task(worktree, spec)}")
    argv += list(spec.build_args)
    return BuildPlan(
        build_command(argv, worktree, env),
        note="\n".join(n for n in (chosen.note, tests.words() if tests else "") if n),
        advise=lambda log: failure_hint(log, wrapper=chosen.is_wrapper),
        tool=chosen.program if chosen.is_wrapper else f"{chosen.program} on PATH",
    )


def failure_hint(log_text: str, *, wrapper: bool) -> str:
    """The wrapper's download as the cause only when the log shows it; else the cause class."""
    if wrapper and _WRAPPER_DOWNLOAD.search(log_text):
        return f"{WRAPPER_HINT}, or pass --gradle gradle to use the Gradle on PATH"
    cause = diagnose(log_text)
    return cause.advice() if cause else ""


def collect(worktree: Path, spec: BuildSpec) -> Outputs:
    base = worktree / spec.module if spec.module else worktree
    if gradle_tests.find(worktree, spec.module) is not None:
        return gradle_tests.outputs(base)
    jar = pick_uber(candidate_jars(base / "build" / "libs"))
    if jar is None:
        raise InputError(
            f"the Gradle build left no jar with JMH and META-INF/BenchmarkList in "
            f"{base / 'build' / 'libs'}"
        )
    return Outputs(jar=jar, classpath=[])


def launcher(worktree: Path, choice: Launcher) -> Chosen:
    """The wrapper or ``gradle`` on PATH (see the module docstring); neither is bad input."""
    chosen = choose(GRADLE, worktree, choice)
    if not chosen.is_wrapper and shutil.which(GRADLE.program) is None:
        raise InputError(
            f"Gradle build needs the wrapper ./gradlew in {worktree} or gradle on PATH"
        )
    return chosen


def task_prefix(module: str | None) -> str:
    """``:app:server:`` for module ``app/server``; empty for the root project."""
    return ":" + module.strip("/").replace("/", ":") + ":" if module else ""


def application_argv(
    worktree: Path, module: str | None, launch: Launcher = Launcher.AUTO, args: tuple[str, ...] = ()
) -> list[str]:
    """``assemble`` an application (``perfproof e2e --build gradle``), with the launcher and
    extra arguments of a benchmark build."""
    program = launcher(worktree, launch).program
    return [program, "--no-daemon", "-q", f"{task_prefix(module)}assemble", *args]

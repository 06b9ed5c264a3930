"""A build command of the user's own, plus where its jar or classpath ends up.

For builds perfproof does not know (Bazel, sbt, a Makefile, a Maven profile with extra flags):
the argv runs in the worktree root without a shell, then ``--jar GLOB`` names the benchmark jar
and/or ``--classpath-file FILE`` a file listing the classpath, both relative to the worktree.
"""

from __future__ import annotations

from pathlib import Path

from perfproof.errors import InputError
from perfproof.workspace.jars import bundles_jmh
from perfproof.workspace.plan import BuildPlan, Outputs, build_command, read_classpath_file
from perfproof.workspace.spec import BuildSpec


def plan(
    worktree: Path,
    spec: BuildSpec,
    *,
    fresh: bool,
    env: dict[str, str],
    cache_dir: Path | None = None,
) -> BuildPlan:
    argv = spec.command()
    assert argv
    return BuildPlan(build_command(argv, worktree, env))


def collect(worktree: Path, spec: BuildSpec) -> Outputs:
    jar = _one_jar(worktree, spec.jar_glob) if spec.jar_glob else None
    if spec.classpath_file:
        cp_file = worktree / spec.classpath_file
        if not cp_file.is_file():
            raise InputError(
                f"--classpath-file {spec.classpath_file!r} was not written by "
                f"the build in {worktree}"
            )
        entries = read_classpath_file(cp_file, worktree)
        classpath = [jar, *[e for e in entries if e != jar]] if jar else entries
        if not classpath:
            raise InputError(f"--classpath-file {spec.classpath_file!r} is empty")
        return Outputs(jar=jar, classpath=classpath)
    assert jar is not None
    if not bundles_jmh(jar):
        raise InputError(
            f"--jar {spec.jar_glob!r} matched {jar.name}, which does not hold JMH and "
            "META-INF/BenchmarkList; pass --classpath-file too"
        )
    return Outputs(jar=jar, classpath=[])


def _one_jar(worktree: Path, pattern: str) -> Path:
    if Path(pattern).is_absolute():
        raise InputError(f"--jar {pattern!r} must be relative to the repository root")
    matches = sorted(p for p in worktree.glob(pattern) if p.is_file())
    if not matches:
        raise InputError(f"--jar {pattern!r} matched no file in {worktree} after the build")
    runnable = [m for m in matches if bundles_jmh(m)]
    if len(matches) > 1 and len(runnable) == 1:
        return runnable[0]
    if len(matches) > 1:
        names = ", ".join(str(p.relative_to(worktree)) for p in matches[:3])
        raise InputError(
            f"--jar {pattern!r} matched {len(matches)} files ({names}); make it match one"
        )
    return matches[0]

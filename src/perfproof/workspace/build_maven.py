"""Maven: ``package`` (never ``install``) one module and what it needs, then find the jar.

``install`` would write the user's snapshot artifacts into ~/.m2, where their own builds would
pick them up; ``-pl MODULE -am package`` builds the module's in-repo dependencies inside the
reactor instead. The same command runs ``dependency:build-classpath`` into a file under each
module's target/, so a project that does not shade still gets the exact runtime classpath
Maven resolved (sibling modules' jars included) without a second Maven start.
"""

from __future__ import annotations

from pathlib import Path

from perfproof.errors import InputError
from perfproof.workspace.jars import candidate_jars, has_benchmarks, pick_uber
from perfproof.workspace.plan import BuildPlan, Outputs, module_dir, read_classpath_file
from perfproof.workspace.spec import BuildSpec

DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
CLASSPATH_FILE = "target/perfproof-classpath.txt"


def plan(worktree: Path, spec: BuildSpec, *, fresh: bool, env: dict[str, str]) -> BuildPlan:
    module_dir(worktree, spec.module, ("pom.xml",))
    mvn = "./mvnw" if (worktree / "mvnw").is_file() else "mvn"
    argv = [mvn, "-B", "-ntp", "-DskipTests"]
    if spec.module:
        argv += ["-pl", spec.module, "-am"]
    argv += ["clean", "package"] if fresh else ["package"]
    argv += [
        f"{DEPENDENCY_PLUGIN}:build-classpath",
        f"-Dmdep.outputFile={CLASSPATH_FILE}",
        "-Dmdep.includeScope=runtime",
    ]
    hint = "the Maven wrapper downloads Maven on first use" if mvn != "mvn" else ""
    return BuildPlan(argv=argv, cwd=worktree, env=env, hint=hint)


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

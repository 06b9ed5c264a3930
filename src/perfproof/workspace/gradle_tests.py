"""Benchmarks kept in a Gradle project's test sources, built with the tests and run from them.

A Gradle project without the JMH or Shadow plugin may keep its ``@Benchmark`` classes in
``src/test/java``, with ``jmh-generator-annprocess`` on the test compile path (Gradle 4 finds
processors there; later Gradles read ``testAnnotationProcessor``). Gradle has no task that
writes a classpath down, so perfproof adds one through an init script of its own (kept in its
cache, never in the worktree): it depends on ``testClasses`` and writes the test runtime
classpath (the test and main outputs first, then the dependencies Gradle resolved) to a file
under ``build/``, from which JMH runs. No test runs, and the project's build files are read as
they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from perfproof.errors import InputError
from perfproof.storage import write_bytes_atomic
from perfproof.workspace.jars import BENCHMARK_LIST
from perfproof.workspace.maven_steps import benchmark_files
from perfproof.workspace.plan import Outputs, read_classpath_file

TASK = "perfproofTestClasspath"
CLASSPATH_FILE = "build/perfproof-test-classpath.txt"
_PROJECT = "perfproof.project"
_OUT = "perfproof.classpathFile"
INIT_SCRIPT = f"""// perfproof: builds the test classes and writes the test runtime classpath
allprojects {{ p ->
    p.afterEvaluate {{
        if (p.path == System.getProperty('{_PROJECT}') && p.hasProperty('sourceSets')) {{
            p.tasks.create('{TASK}') {{
                dependsOn 'testClasses'
                doLast {{
                    def out = p.file(System.getProperty('{_OUT}'))
                    out.parentFile.mkdirs()
                    out.text = p.sourceSets.test.runtimeClasspath.files.join('\\n') + '\\n'
                }}
            }}
        }}
    }}
}}
"""


@dataclass(frozen=True)
class GradleTests:
    """Where the project's benchmarks are: a count of classes and the folder."""

    __test__ = False  # not a pytest test class

    source_dir: str
    classes: int

    def words(self) -> str:
        """What was found and how it is run, in one line."""
        return (
            f"benchmarks in the test sources: {self.classes} classes with @Benchmark in "
            f"{self.source_dir}; building testClasses and writing the test runtime classpath "
            f"(task {TASK} of an init script of perfproof's); JMH runs from the test classes "
            "on it"
        )


def find(worktree: Path, module: str | None) -> GradleTests | None:
    """The project's benchmarks when its test sources hold them and its main sources do not."""
    base = worktree / module if module else worktree
    if benchmark_files(base / "src" / "main" / "java") or (base / "src" / "jmh").is_dir():
        return None
    classes = benchmark_files(base / "src" / "test" / "java")
    if not classes:
        return None
    where = f"{module}/src/test/java" if module else "src/test/java"
    return GradleTests(where, classes)


def init_args(cache_dir: Path, module: str | None) -> list[str]:
    """The arguments that add :data:`TASK` to the project (the init script written once)."""
    script = Path(cache_dir) / "gradle" / "perfproof-test-classpath.gradle"
    if not script.is_file() or script.read_text(encoding="utf-8") != INIT_SCRIPT:
        script.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(script, INIT_SCRIPT.encode("utf-8"))
    project = ":" + module.strip("/").replace("/", ":") if module else ":"
    return ["-I", str(script), f"-D{_PROJECT}={project}", f"-D{_OUT}={CLASSPATH_FILE}"]


def outputs(base: Path) -> Outputs:
    """The test runtime classpath the task wrote, checked to hold the benchmark list."""
    cp_file = base / CLASSPATH_FILE
    if not cp_file.is_file():
        raise InputError(f"the Gradle build wrote no test classpath to {cp_file}")
    entries = [e for e in read_classpath_file(cp_file, base) if e.exists()]
    if not any((e / BENCHMARK_LIST).is_file() for e in entries if e.is_dir()):
        raise InputError(
            f"the test classes of {base} hold no {BENCHMARK_LIST}: is jmh-generator-annprocess "
            "an annotation processor of the tests (testAnnotationProcessor, or testCompile in "
            "Gradle 4)?"
        )
    return Outputs(jar=None, classpath=entries)

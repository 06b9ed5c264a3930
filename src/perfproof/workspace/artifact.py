"""A built side, ready to run: the jar and/or classpath JMH needs, and how it was made."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.model.documents.run import OwnRun
from perfproof.workspace.jars import JMH_MAIN, jmh_version_of_jar, main_class

TEST_CLASSES = ("test-classes", "test")
"""The names of the folder a build compiles the tests into: Maven's ``target/test-classes``,
Gradle's ``build/classes/java/test``."""


@dataclass(frozen=True)
class Artifact:
    """What a build produced for one commit.

    ``jar`` alone (empty ``classpath``) is an uber jar run with ``java -jar``; otherwise the
    ``classpath`` (the benchmark jar first, then its dependencies) runs ``org.openjdk.jmh.Main``.
    ``build_command`` and ``build_cwd`` are the exact argv and folder of the real build, for a
    report's reproduction section, even when this artifact came from the cache (``cached``).
    """

    sha: str
    kind: str
    jar: Path | None
    classpath: list[Path]
    build_command: list[str]
    build_cwd: Path
    cached: bool
    log_path: Path | None
    key: str = ""
    overlaid: list[str] = field(default_factory=list)
    tool: str = ""
    """The build tool that made it (which Maven, wrapper or Gradle), as the report names it."""
    own_run: OwnRun | None = None
    """The project's own command that runs these benchmarks (benchmarks in the test sources)."""

    @property
    def layout(self) -> str:
        """``uber`` (one self-contained jar), ``classpath`` (thin jar plus dependencies) or
        ``test-classes`` (benchmarks compiled with the tests, run on the test classpath)."""
        if self.jar is not None and not self.classpath:
            return "uber"
        if self.jar is None and self.classpath and self.classpath[0].name in TEST_CLASSES:
            return "test-classes"
        return "classpath"

    def jmh_argv(self, java: str = "java", extra: Sequence[Path] = ()) -> list[str]:
        """The command that starts JMH for this artifact; append JMH options to it.

        ``extra`` jars go on the class path after the benchmark's own (JMH gives its forks
        the class path it was started with), so a profiler of perfproof's can be named."""
        if self.layout == "uber":
            assert self.jar is not None
            if not extra and main_class(self.jar) == JMH_MAIN:
                return [java, "-jar", str(self.jar)]
            return [java, "-cp", os.pathsep.join(map(str, [self.jar, *extra])), JMH_MAIN]
        return [java, "-cp", os.pathsep.join(str(p) for p in [*self.classpath, *extra]), JMH_MAIN]

    def files(self) -> list[Path]:
        """Every file the artifact needs at run time."""
        out = [self.jar] if self.jar is not None else []
        out.extend(p for p in self.classpath if p not in out)
        return out


def jmh_version(artifact: Artifact) -> str | None:
    """The JMH version the artifact will run, or None when it cannot be told."""
    for jar in artifact.files():
        version = jmh_version_of_jar(jar)
        if version:
            return version
    return None

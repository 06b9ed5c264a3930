"""A tiny real multi-module Maven JMH project in a temp git repository, built once per session.

Layout: ``core`` (the code under test), ``bench`` (benchmarks shaded into an uber jar) and
``bench-thin`` (benchmarks in a thin jar whose classpath Maven resolves). Commit ``base`` has
one benchmark per bench module; commit ``head`` changes ``core`` and adds ``NewBench`` to
``bench`` (the overlay case); branch ``broken`` (after head) does not compile.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.process import Command, Watch, run

JMH_VERSION = "1.37"

ROOT_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>wsfx</groupId><artifactId>parent</artifactId><version>1.0</version>
  <packaging>pom</packaging>
  <modules><module>core</module><module>bench</module><module>bench-thin</module></modules>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <jmh.version>@JMH@</jmh.version>
  </properties>
  <build><pluginManagement><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>
      <version>3.13.0</version>
      <configuration><annotationProcessorPaths><path><groupId>org.openjdk.jmh</groupId>
        <artifactId>jmh-generator-annprocess</artifactId><version>${jmh.version}</version>
      </path></annotationProcessorPaths></configuration></plugin>
  </plugins></pluginManagement></build>
</project>
""".replace("@JMH@", JMH_VERSION)

CORE_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>wsfx</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
  <artifactId>core</artifactId>
</project>
"""

_BENCH_DEPS = """<dependencies>
    <dependency><groupId>wsfx</groupId><artifactId>core</artifactId><version>1.0</version></dependency>
    <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-core</artifactId>
      <version>${jmh.version}</version></dependency>
    <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-generator-annprocess</artifactId>
      <version>${jmh.version}</version><scope>provided</scope></dependency>
  </dependencies>"""

SHADE = "org.apache.maven.plugins.shade.resource."

BENCH_POM = f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>wsfx</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
  <artifactId>bench</artifactId>
  {_BENCH_DEPS}
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-shade-plugin</artifactId>
      <version>3.6.0</version>
      <executions><execution><phase>package</phase><goals><goal>shade</goal></goals>
        <configuration><finalName>benchmarks</finalName><transformers>
          <transformer implementation="{SHADE}ManifestResourceTransformer">
            <mainClass>org.openjdk.jmh.Main</mainClass></transformer>
          <transformer implementation="{SHADE}ServicesResourceTransformer"/>
        </transformers></configuration></execution></executions></plugin>
  </plugins></build>
</project>
"""

THIN_POM = f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>wsfx</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
  <artifactId>bench-thin</artifactId>
  {_BENCH_DEPS}
</project>
"""

CODES_BASE = """package wsfx.core;

public final class Codes {
    private Codes() {}

    public static int describe(int code) {
        return Integer.valueOf(code).hashCode() % 7;
    }
}
"""

CODES_HEAD = CODES_BASE.replace("Integer.valueOf(code).hashCode() % 7", "code % 7")


def bench_source(package: str, cls: str) -> str:
    return f"""package {package};

import org.openjdk.jmh.annotations.*;
import wsfx.core.Codes;

@State(Scope.Thread)
public class {cls} {{
    int code = 42;

    @Benchmark
    public int describe() {{
        return Codes.describe(code);
    }}
}}
"""


@dataclass(frozen=True)
class SampleRepo:
    path: Path
    base: str
    head: str
    broken: str


def git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return run(
        Command(["git", "-C", str(repo), *args], env=env), Watch(check=True, merge_stderr=False)
    ).output.strip()


def write(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def make_sample_repo(path: Path) -> SampleRepo:
    """Write the project and its commits into a new git repository at ``path``."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    write(path, ".gitignore", "target/\n")
    write(path, "pom.xml", ROOT_POM)
    write(path, "core/pom.xml", CORE_POM)
    write(path, "core/src/main/java/wsfx/core/Codes.java", CODES_BASE)
    write(path, "bench/pom.xml", BENCH_POM)
    write(
        path,
        "bench/src/main/java/wsfx/bench/CodesBench.java",
        bench_source("wsfx.bench", "CodesBench"),
    )
    write(path, "bench-thin/pom.xml", THIN_POM)
    write(
        path,
        "bench-thin/src/main/java/wsfx/thin/ThinBench.java",
        bench_source("wsfx.thin", "ThinBench"),
    )
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base")
    base = git(path, "rev-parse", "HEAD")
    write(path, "core/src/main/java/wsfx/core/Codes.java", CODES_HEAD)
    write(
        path, "bench/src/main/java/wsfx/bench/NewBench.java", bench_source("wsfx.bench", "NewBench")
    )
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "head: faster describe, new benchmark")
    head = git(path, "rev-parse", "HEAD")
    git(path, "checkout", "-q", "-b", "broken")
    write(
        path, "core/src/main/java/wsfx/core/Codes.java", CODES_HEAD.replace("code % 7;", "code %")
    )
    git(path, "commit", "-q", "-am", "broken")
    broken = git(path, "rev-parse", "HEAD")
    git(path, "checkout", "-q", "main")
    return SampleRepo(path=path, base=base, head=head, broken=broken)


@pytest.fixture(scope="session")
def sample_repo(tmp_path_factory: pytest.TempPathFactory) -> SampleRepo:
    return make_sample_repo(tmp_path_factory.mktemp("ws") / "project")


@pytest.fixture
def fresh_repo(tmp_path: Path) -> SampleRepo:
    """A private copy of the sample project, for tests that dirty or damage the repository."""
    return make_sample_repo(tmp_path / "project")


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def _require_maven() -> None:
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.skip("needs Maven and a JDK on PATH")


@dataclass(frozen=True)
class Built:
    worktree: Path
    artifact: object
    log: Path


@pytest.fixture(scope="session")
def uber_build(sample_repo: SampleRepo, session_cache: Path) -> Built:
    """The head commit's ``bench`` module built once (shade plugin: uber jar)."""
    _require_maven()
    from perfproof.workspace.build import build
    from perfproof.workspace.spec import BuildSpec
    from perfproof.workspace.worktree import ensure_worktree

    wt = ensure_worktree(sample_repo.path, sample_repo.head, session_cache)
    log = session_cache.parent / "logs" / "uber.log"
    art = build(wt, BuildSpec(module="bench"), cache_dir=session_cache, log_path=log)
    return Built(wt, art, log)


@pytest.fixture(scope="session")
def thin_build(sample_repo: SampleRepo, session_cache: Path, uber_build: Built) -> Built:
    """The head commit's ``bench-thin`` module (thin jar + Maven-resolved classpath)."""
    from perfproof.workspace.build import build
    from perfproof.workspace.spec import BuildSpec

    log = session_cache.parent / "logs" / "thin.log"
    art = build(
        uber_build.worktree, BuildSpec(module="bench-thin"), cache_dir=session_cache, log_path=log
    )
    return Built(uber_build.worktree, art, log)

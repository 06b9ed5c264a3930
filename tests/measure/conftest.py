"""A small real project for the A/B run tests: the demo repository plus a few more branches.

Built once per session: the repository (git only) and perfproof's cache, so each commit is
built by Maven once and every later run of it takes the jar from the cache.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo
from perfproof.process import Command, Watch, run

TINY_JMH = "-wi 1 -w 100ms -i 2 -r 100ms"

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}

BENCH_DIR = "src/main/java/perfdemo/bench"

BROKEN_SOURCE = "package perfdemo;\n\nclass Broken {\n    int missing = ;\n}\n"

THROWING_BENCH = """package perfdemo.bench;

import org.openjdk.jmh.annotations.Benchmark;

public class EventBusBench {
    @Benchmark
    public int publishNoListeners() {
        throw new IllegalStateException("boom from the benchmark");
    }
}
"""

GUARD_BENCH = """package perfdemo.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import perfdemo.EventBus;

@State(Scope.Thread)
public class GuardBench {
    private final EventBus bus = new EventBus();

    @Benchmark
    public Object publishOnce() {
        return bus.publish("tick");
    }
}
"""


DIRECT_BENCH = """package perfdemo.bench;

import java.nio.ByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

@State(Scope.Thread)
public class DirectBench {
    private final ByteBuffer reused = ByteBuffer.allocate(4096);

    @Benchmark
    public ByteBuffer direct() {
        return ByteBuffer.allocateDirect(4096);
    }

    @Benchmark
    public ByteBuffer heap() {
        reused.clear();
        return reused;
    }
}
"""


def git(repo: Path, *args: str) -> str:
    res = run(
        Command(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, env=GIT_ENV),
        Watch(check=True, merge_stderr=False),
    )
    return res.output.strip()


def branch_with(repo: Path, name: str, files: dict[str, str]) -> None:
    """A branch off ``baseline`` with ``files`` written and committed.

    Made in a worktree of its own, so it works whatever state an earlier test left the main
    checkout in (the end-to-end test leaves it deliberately dirty).
    """
    scratch = Path(tempfile.mkdtemp(prefix="branch-"))
    side = scratch / name
    git(repo, "worktree", "add", "-q", "-b", name, str(side), "baseline")
    try:
        for rel, text in files.items():
            (side / rel).parent.mkdir(parents=True, exist_ok=True)
            (side / rel).write_text(text)
        git(side, "add", "--all")
        git(side, "commit", "-q", "-m", name)
    finally:
        git(repo, "worktree", "remove", "--force", str(side))
        shutil.rmtree(scratch, ignore_errors=True)


@dataclass(frozen=True)
class AbProject:
    repo: Path
    cache: Path


@pytest.fixture(scope="session")
def ab_project(tmp_path_factory: pytest.TempPathFactory) -> AbProject:
    root = tmp_path_factory.mktemp("ab")
    repo = write_demo_repo(root / "repo").path
    branch_with(repo, "broken", {"src/main/java/perfdemo/Broken.java": BROKEN_SOURCE})
    branch_with(repo, "throws", {f"{BENCH_DIR}/EventBusBench.java": THROWING_BENCH})
    branch_with(repo, "guard", {f"{BENCH_DIR}/GuardBench.java": GUARD_BENCH})
    branch_with(repo, "direct", {f"{BENCH_DIR}/DirectBench.java": DIRECT_BENCH})
    pom = git(repo, "show", "baseline:pom.xml")
    thin_pom = re.sub(r"\s*<plugin>\s*<groupId>org.apache.maven.plugins</groupId>\s*"
                      r"<artifactId>maven-shade-plugin</artifactId>.*?</plugin>", "", pom,
                      flags=re.S)  # fmt: skip
    assert "shade" not in thin_pom
    branch_with(repo, "thin", {"pom.xml": thin_pom + "\n"})
    # one cache for the whole session (the demo tests use the same folder): the demo commits
    # have fixed SHAs, so each is built by Maven once per session
    return AbProject(repo, tmp_path_factory.getbasetemp() / "perfproof-cache")


@pytest.fixture
def ab_env(ab_project: AbProject, monkeypatch: pytest.MonkeyPatch) -> Iterator[AbProject]:
    """Point perfproof's cache at the session's, so builds are shared between tests."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(ab_project.cache))
    yield ab_project

"""A real two-node Ray cluster on this machine, and a small JMH suite built once by Maven.

The cluster: a head node that offers no ``jmh`` slot (the driver's side) and two worker nodes
with one ``jmh`` slot each, all on loopback with small object stores. Both worker nodes share
this machine and its ``/tmp/jmh.lock``, so their JMH processes still take turns: the tests
check where keys are measured and that nothing is lost, never timings.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from perfproof.demo.project import write_demo_repo
from perfproof.measure.keys import suite_keys
from perfproof.model.documents.suite import SuiteKey
from perfproof.process import Command, Watch, run
from perfproof.workspace.artifact import Artifact
from perfproof.workspace.build import build
from perfproof.workspace.git import resolve_ref
from perfproof.workspace.spec import BuildSpec
from perfproof.workspace.worktree import ensure_worktree

TINY_JMH = "-f 1 -wi 1 -w 100ms -i 2 -r 100ms"
OBJECT_STORE = 80 * 1024 * 1024
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}

SIZES_BENCH = Path(__file__).parents[1] / "fixtures" / "java" / "sizes" / "SizesBench.java"
"""A benchmark with two methods × @Param size: with the demo's two benchmarks, 6 keys."""


@dataclass
class Suite:
    repo: Path
    cache: Path
    shas: dict[str, str]
    artifacts: dict[str, Artifact]
    keys: list[SuiteKey]
    jmh_args: str = TINY_JMH


@dataclass
class RayCluster:
    cluster: Any
    address: str
    workers: list[Any]

    def add_worker(self) -> Any:
        node = self.cluster.add_node(
            num_cpus=1, resources={"jmh": 1}, object_store_memory=OBJECT_STORE
        )
        self.cluster.wait_for_nodes()
        self.workers.append(node)
        return node


def _git(repo: Path, *args: str) -> None:
    run(
        Command(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, env=GIT_ENV),
        Watch(check=True),
    )


@pytest.fixture(scope="session")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Suite:
    """The demo project plus a benchmark with @Param values (6 keys), both commits built."""
    root = tmp_path_factory.mktemp("ray-suite")
    repo = write_demo_repo(root / "repo").path
    for tag in ("baseline", "feature"):
        _git(repo, "checkout", "-q", "-b", f"sizes-{tag}", tag)
        target = repo / "src/main/java/perfdemo/bench/SizesBench.java"
        target.write_text(SIZES_BENCH.read_text())
        _git(repo, "add", "--all")
        _git(repo, "commit", "-q", "-m", "sizes")
    _git(repo, "checkout", "-q", "main")
    cache = tmp_path_factory.getbasetemp() / "perfproof-cache"
    os.environ.setdefault("XDG_CACHE_HOME", str(cache))
    shas = {"base": resolve_ref(repo, "sizes-baseline"), "head": resolve_ref(repo, "sizes-feature")}
    artifacts = {}
    for side, sha in shas.items():
        tree = ensure_worktree(repo, sha, cache)
        artifacts[side] = build(
            tree, BuildSpec(), cache_dir=cache, log_path=root / f"build-{side}.log", label=side
        )
    listing = run(Command([*artifacts["base"].jmh_argv("java"), "-lp"]), Watch(check=True))
    keys = suite_keys(listing.output)
    assert len(keys) == 6, listing.output
    return Suite(repo, cache, shas, artifacts, keys)


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[RayCluster]:
    """Head (no JMH slot) + two JMH nodes on loopback; always shut down, even on failure."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "object_store_memory": OBJECT_STORE,
            "include_dashboard": False,
        },
    )
    handle = RayCluster(cluster, cluster.address, [])
    try:
        handle.add_worker()
        handle.add_worker()
        ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
        yield handle
    finally:
        with contextlib.suppress(Exception):
            ray.shutdown()
        cluster.shutdown()

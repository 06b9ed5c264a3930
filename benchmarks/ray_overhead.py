"""Wall clock of a ≥ 8-key suite on a local Ray cluster with 1 and 2 JMH nodes, and the
executor's own overhead per task.

Builds the demo project plus a benchmark with a @Param (2 + 2 × 4 = 10 keys), starts a Ray
cluster on this machine (a head without a JMH slot plus N nodes with one ``jmh`` slot each),
and measures the suite with the Ray executor, fixed design, tiny JMH settings. Then it sends
empty key groups through the same path: what those cost is the executor itself (task start,
fetching the jars from the object store, the node's JDK check, the group's run folder, packing
it, sending it back, unpacking it).

All nodes share this machine and its JMH lock (``/tmp/jmh.lock``), so with 2 nodes the JMH
processes still take turns, as they must on one machine; on separate machines each node runs
its own groups at the same time.

    python3 benchmarks/ray_overhead.py                 # 1 and 2 nodes, 10 keys
    python3 benchmarks/ray_overhead.py --nodes 2 --empty-tasks 16
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from perfproof.demo.project import write_demo_repo
from perfproof.measure.executors import ray as executor
from perfproof.measure.executors.local import PartJob
from perfproof.measure.keys import suite_keys
from perfproof.measure.plan import FIXED, jmh_options, make_plan, split_jmh_args
from perfproof.measure.progress import PlainReporter
from perfproof.measure.shard import METHOD, partition, partition_digest
from perfproof.pipeline.ab.run import measure_keys
from perfproof.process import Command, Watch, run
from perfproof.workspace.build import build
from perfproof.workspace.git import resolve_ref
from perfproof.workspace.spec import BuildSpec
from perfproof.workspace.worktree import ensure_worktree

SIZES = Path(__file__).parents[1] / "tests" / "fixtures" / "java" / "sizes" / "SizesBench.java"
JMH = "-f 1 -wi 1 -w 100ms -i 2 -r 100ms -p size=8,16,32,64"
OBJECT_STORE = 80 * 1024 * 1024
GIT = ["git", "-c", "commit.gpgsign=false", "-c", "user.name=b", "-c", "user.email=b@x.invalid"]


def build_suite(root: Path) -> tuple[dict, dict, list]:
    repo = write_demo_repo(root / "repo").path
    for tag in ("baseline", "feature"):
        run(
            Command([*GIT, "checkout", "-q", "-b", f"sizes-{tag}", tag], cwd=repo),
            Watch(check=True),
        )
        (repo / "src/main/java/perfdemo/bench/SizesBench.java").write_text(SIZES.read_text())
        run(Command([*GIT, "add", "--all"], cwd=repo), Watch(check=True))
        run(Command([*GIT, "commit", "-q", "-m", "sizes"], cwd=repo), Watch(check=True))
    shas = {"base": resolve_ref(repo, "sizes-baseline"), "head": resolve_ref(repo, "sizes-feature")}
    cache = root / "cache"
    artifacts = {
        side: build(ensure_worktree(repo, sha, cache), BuildSpec(), cache_dir=cache,
                    log_path=root / f"build-{side}.log", label=side)
        for side, sha in shas.items()
    }  # fmt: skip
    listing = run(Command([*artifacts["base"].jmh_argv("java"), "-lp", "-p", "size=8,16,32,64"]))
    return shas, artifacts, suite_keys(listing.output)


def jobs_for(shas: dict, keys: list, groups: int, repo: str) -> list[PartJob]:
    parts = partition(keys, groups)
    plan = make_plan(2, "abba", None, (), jmh_options(split_jmh_args(JMH)), stopping=FIXED)
    header = {
        "repo": repo,
        "refs": {side: {"ref": side, "sha": sha} for side, sha in shas.items()},
        "options": {"rounds": 2, "order": "abba", "jmh_args": JMH, "java": None},
    }
    fields = {"method": METHOD, "digest": partition_digest(parts),
              "all_keys": sorted(k.label() for k in keys)}  # fmt: skip
    return [
        PartJob(i, groups, list(part), plan, header, fields)
        for i, part in enumerate(parts, start=1)
    ]


def jmh_seconds(part: Path) -> tuple[float, float]:
    """JMH process time and JMH-lock waiting of a group's folder."""
    steps = json.loads((part / "manifest.json").read_text())["steps"]
    return (
        sum(float(s.get("jmh_seconds") or 0) for s in steps),
        sum(float(s.get("lock_wait_s") or 0) for s in steps),
    )


def on_cluster(nodes: int, shas: dict, artifacts: dict, keys: list, args, root: Path) -> dict:
    from ray.cluster_utils import Cluster

    import ray

    head = {"num_cpus": 1, "object_store_memory": OBJECT_STORE, "include_dashboard": False}
    cluster = Cluster(initialize_head=True, head_node_args=head)
    try:
        for _ in range(nodes):
            cluster.add_node(num_cpus=1, resources={"jmh": 1}, object_store_memory=OBJECT_STORE)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
        log = open(root / f"progress-{nodes}.log", "w")  # noqa: SIM115 - closed below
        reporter = PlainReporter(log)
        empty = [
            PartJob(i, args.empty_tasks, [], job.plan, job.header, job.partition)
            for i, job in enumerate(jobs_for(shas, keys, 1, "r") * args.empty_tasks, start=1)
        ]
        started = time.monotonic()
        done = executor.run_groups(empty, artifacts, root / f"empty-{nodes}", reporter,
                                   address=cluster.address, measure=measure_keys)  # fmt: skip
        empty_wall = time.monotonic() - started
        jobs = jobs_for(shas, keys, 2 * nodes, "r")
        started = time.monotonic()
        outcomes = executor.run_groups(jobs, artifacts, root / f"suite-{nodes}", reporter,
                                       address=cluster.address, measure=measure_keys)  # fmt: skip
        wall = time.monotonic() - started
        log.close()
        measured = [jmh_seconds(o.path) for o in outcomes]
        return {
            "nodes": nodes,
            "keys": len(keys),
            "groups": len(jobs),
            "suite_wall_s": round(wall, 1),
            "jmh_process_s": round(sum(m[0] for m in measured), 1),
            "jmh_lock_wait_s": round(sum(m[1] for m in measured), 1),
            "task_s": [round(o.seconds, 2) for o in sorted(outcomes, key=lambda o: o.index)],
            "empty_tasks": len(done),
            "empty_wall_s": round(empty_wall, 2),
            "empty_task_median_s": round(statistics.median(o.seconds for o in done), 3),
            "overhead_per_task_s": round(empty_wall / max(len(done), 1) * nodes, 3),
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--empty-tasks", type=int, default=8)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="perfproof-ray-bench-"))
    os.environ["XDG_CACHE_HOME"] = str(root / "cache")
    shas, artifacts, keys = build_suite(root)
    print(f"suite: {len(keys)} keys; JMH {JMH}; fixed design, 2 rounds", file=sys.stderr)
    rows = [on_cluster(n, shas, artifacts, keys, args, root) for n in args.nodes]
    print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

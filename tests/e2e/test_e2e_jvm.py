"""``perfproof e2e --build maven`` on a tiny real Java application in two commits.

The application reports how many bytes its thread allocated for a fixed workload (HotSpot's
per-thread allocation counter, nearly deterministic) and how long the workload took. The
feature commit reuses a scratch buffer instead of allocating one per call, so the allocation
metric must come out ``improved`` whatever the machine's timing noise.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

MAIN = """package e2edemo;

import java.lang.management.ManagementFactory;

public final class Main {
    %s

    public static void main(String[] args) {
        com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Main m = new Main();
        long s = 0;
        long t0 = System.nanoTime();
        long a0 = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 20000; i++) {
            s += m.sum(256);
        }
        long bytes = mx.getCurrentThreadAllocatedBytes() - a0;
        double ms = (System.nanoTime() - t0) / 1e6;
        System.out.println("checksum " + s);
        System.out.println("allocated " + bytes + " bytes");
        System.out.println("took " + ms + " ms");
    }
}
"""

BASE_SUM = """long sum(int n) {
        long[] scratch = new long[n];
        for (int i = 0; i < n; i++) { scratch[i] = i * 31L; }
        long s = 0;
        for (long v : scratch) { s += v; }
        return s;
    }"""

FEATURE_SUM = """private long[] scratch = new long[0];

    long sum(int n) {
        if (scratch.length < n) { scratch = new long[n]; }
        for (int i = 0; i < n; i++) { scratch[i] = i * 31L; }
        long s = 0;
        for (int i = 0; i < n; i++) { s += scratch[i]; }
        return s;
    }"""

MAIN_PATH = "src/main/java/e2edemo/Main.java"


@pytest.fixture(scope="module")
def app_repo(tmp_path_factory: pytest.TempPathFactory, write_git_repo, tiny_pom) -> Path:
    common = {"pom.xml": tiny_pom("e2edemo"), ".gitignore": "target/\n"}
    return write_git_repo(
        tmp_path_factory.mktemp("e2e-app") / "repo",
        [
            ("baseline", "2026-01-05T10:00:00Z", {**common, MAIN_PATH: MAIN % BASE_SUM}),
            ("feature", "2026-01-06T10:00:00Z", {MAIN_PATH: MAIN % FEATURE_SUM}),
        ],
    )


def test_e2e_on_a_maven_app_finds_the_allocation_cut(run_cli, app_repo: Path) -> None:
    res = run_cli(
        "e2e", "--repo", str(app_repo), "--base", "baseline", "--head", "feature",
        "--build", "maven", "--run", "java -Xint -cp target/classes e2edemo.Main",
        "--metric", "alloc[B]=allocated (\\d+) bytes", "--metric", "time[ms]=took ([\\d.]+) ms",
        "--runs", "3", "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    alloc, time_m = doc["metrics"]
    # 20000 calls × a long[256] (2064 bytes) on the baseline; next to nothing on the feature
    assert alloc["base"]["mean"] > 20000 * 2064 * 0.99
    assert alloc["head"]["mean"] < 0.01 * alloc["base"]["mean"]
    assert alloc["verdict"] == "improved" and alloc["unit"] == "B"
    assert time_m["base"]["n"] == 3 and time_m["head"]["mean"] > 0
    for side in ("base", "head"):
        assert doc["sides"][side]["build_command"][-1] == "package"
        assert Path(doc["sides"][side]["build_log"]).is_file()
    assert not (app_repo / "target").exists()  # built in perfproof's worktrees, not here

"""Session-scoped JVM fixtures: a small Java program with known hot spots, recorded once.

``Hot`` spends its main thread in ``demo.app.Hot.spin`` (the CPU hot spot) while a second
thread allocates ``long[]`` through ``java.util.Arrays.copyOf`` called from
``demo.app.Hot.grow`` (the allocation hot spot, whose top frame is a JDK method). With
``--no-alloc`` the second thread does nothing: the "after" version of a fix.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfproof.cli import main
from perfproof.process import Command, Watch, run

HOT_JAVA = """\
package demo.app;

import java.util.Arrays;

public final class Hot {
    static volatile long sink;
    static volatile long[] kept;

    static long spin(long seed, int rounds) {
        long x = seed;
        for (int i = 0; i < rounds; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= (x >>> 29);
        }
        return x;
    }

    static long[] grow(long[] arr) {
        return Arrays.copyOf(arr, 8192);
    }

    static void allocate() throws InterruptedException {
        long[] small = new long[16];
        // a fixed amount, not "until the time is up": on a busy machine the thread's share
        // of the CPU varies, and so would the bytes each recording holds
        for (int batch = 0; batch < 40; batch++) {
            for (int i = 0; i < 2000; i++) {
                kept = grow(small);  // published, so escape analysis cannot remove the copy
            }
            Thread.sleep(5);
        }
    }

    public static void main(String[] args) throws Exception {
        long ms = Long.parseLong(args[0]);
        boolean withAlloc = args.length < 2 || !args[1].equals("--no-alloc");
        long until = System.nanoTime() + ms * 1_000_000L;
        Thread t = new Thread(() -> {
            try {
                if (withAlloc) {
                    allocate();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "allocator");
        t.start();
        long x = 1;
        while (System.nanoTime() < until) {
            x = spin(x, 1_000_000);
            sink += x;
        }
        t.join();
    }
}
"""

RUN_MS = "1800"


@dataclass(frozen=True)
class HotRecordings:
    classes: Path
    with_hot: list[Path]
    without_hot: list[Path]


def _java() -> str:
    java = shutil.which("java")
    if java is None or shutil.which("javac") is None:
        pytest.skip("needs a JDK (java and javac) on PATH")
    return java


@pytest.fixture(scope="session")
def hot_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _java()
    root = tmp_path_factory.mktemp("hot")
    src = root / "src" / "demo" / "app" / "Hot.java"
    src.parent.mkdir(parents=True)
    src.write_text(HOT_JAVA)
    classes = root / "classes"
    run(Command(["javac", "-d", str(classes), str(src)]), Watch(check=True, what="javac"))
    return classes


@pytest.fixture(scope="session")
def hot_recordings(hot_classes: Path, tmp_path_factory: pytest.TempPathFactory) -> HotRecordings:
    """Three recordings with the hot spots and three without, each made by `perfproof record`
    (two a side leave a change one degree of freedom: an interval too wide to call it)."""
    java = _java()
    out = tmp_path_factory.mktemp("recordings")
    made: dict[str, list[Path]] = {"with": [], "without": []}
    for name, extra in (("with", []), ("without", ["--no-alloc"])):
        for i in range(3):
            target = out / f"{name}-{i}.jfr"
            argv = ["record", "--out", str(target), "--"]
            argv += [java, "-cp", str(hot_classes), "demo.app.Hot", RUN_MS, *extra]
            assert main(argv) == 0
            made[name].append(target)
    return HotRecordings(hot_classes, made["with"], made["without"])


@pytest.fixture(scope="session")
def tlab_recording(hot_classes: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A recording with only the TLAB allocation events (as JDKs before 16 make them)."""
    java = Path(_java()).resolve()
    jfr = java.parent / "jfr"
    profile = java.parent.parent / "lib" / "jfr" / "profile.jfc"
    if not jfr.is_file() or not profile.is_file():
        pytest.skip("needs the JDK's jfr tool and profile.jfc")
    out = tmp_path_factory.mktemp("tlab")
    jfc = out / "tlab.jfc"
    settings = [
        "jdk.ObjectAllocationSample#enabled=false",
        "jdk.ObjectAllocationInNewTLAB#enabled=true",
        "jdk.ObjectAllocationOutsideTLAB#enabled=true",
    ]
    configure = Command([jfr, "configure", "--input", profile, "--output", jfc, *settings])
    run(configure, Watch(check=True, what="jfr configure"))
    rec = out / "tlab.jfr"
    argv = [str(java), f"-XX:StartFlightRecording=filename={rec},settings={jfc}"]
    argv += ["-cp", str(hot_classes), "demo.app.Hot", "1200"]
    run(Command(argv), Watch(check=True, what="java Hot"))
    return rec

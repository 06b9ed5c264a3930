"""``prove --reach profile`` on a real build: a benchmark that reaches the changed override
only through an interface call, and at run time calls another implementation, is recorded on
the baseline, found never to run the changed code, and left out of the A/B with the reason;
the benchmark that calls the override itself is measured."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from perfproof.demo.project import write_demo_repo
from perfproof.model.documents.prove import read_prove

from .conftest import commit

pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(600)]

TINY = "-f 1 -wi 1 -i 2 -w 100ms -r 100ms"
SHAPE = """package perfdemo;

public interface Shape {
    double area();
}
"""
SQUARE = """package perfdemo;

public final class Square implements Shape {
    private final double side;

    public Square(double side) {
        this.side = side;
    }

    @Override
    public double area() {
        return %s;
    }
}
"""
CIRCLE = """package perfdemo;

public final class Circle implements Shape {
    private final double r;

    public Circle(double r) {
        this.r = r;
    }

    @Override
    public double area() {
        double sum = 0;
        for (int i = 1; i <= 400; i++) {
            sum += Math.sqrt(r * i);
        }
        return sum;
    }
}
"""
SHAPES = """package perfdemo;

public final class Shapes {
    private Shapes() {}

    public static double total(Shape[] shapes) {
        double sum = 0;
        for (Shape s : shapes) {
            sum += s.area();
        }
        return sum;
    }
}
"""
BENCH = """package perfdemo.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;
import perfdemo.Circle;
import perfdemo.Shape;
import perfdemo.Shapes;
import perfdemo.Square;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ShapeBench {
    private Shape[] circles;
    private double side = 3;

    @Setup
    public void make() {
        circles = new Shape[] {new Circle(1), new Circle(2), new Circle(3)};
    }

    @Benchmark
    public double circles() {
        return Shapes.total(circles);
    }

    @Benchmark
    public double square() {
        return new Square(side).area();
    }
}
"""


@pytest.mark.parametrize("direct", [True, False], ids=["with-direct", "dispatch-only"])
def test_reach_profile_leaves_out_a_benchmark_that_never_runs_the_change(
    tmp_path: Path, prove_cache: Path, run_cli, direct: bool
) -> None:
    """Without a directly reached benchmark, nothing is left to measure: the A/B runs
    nothing (an empty ``--bench`` would select every benchmark) and the chain still ends."""
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.skip("needs Maven and a JDK")
    repo = write_demo_repo(tmp_path / "project").path
    main = "src/main/java/perfdemo/"
    square = main + "Square.java"
    base = commit(
        repo,
        {
            main + "Shape.java": SHAPE,
            square: SQUARE % "side * side",
            main + "Circle.java": CIRCLE,
            main + "Shapes.java": SHAPES,
            main + "bench/ShapeBench.java": BENCH
            if direct
            else BENCH.replace("@Benchmark\n    public double square", "public double square"),
        },
        "shapes",
    )
    head = commit(repo, {square: SQUARE % "Math.pow(side, 2)"}, "square by pow")
    out = tmp_path / "bundle"
    res = run_cli(
        "prove", "--repo", repo, "--base", base, "--head", head, "--reach", "profile",
        "--jmh-args", TINY, "--rounds", "2", "--skip", "tests", "--out", out,
        *(("--skip", "profile") if direct else ()),
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = read_prove(out / "prove.json").dump()
    reached = {r["benchmark"]: r for r in doc["stages"]["benchmarks"]["result"]["reached"]}
    circles, sq = "perfdemo.bench.ShapeBench.circles", "perfdemo.bench.ShapeBench.square"
    assert reached[circles]["via_dispatch"] is True
    assert reached[circles]["dispatch"] == "Shapes.total(Shape[]) → Shape.area()"
    assert (sq in reached) is direct
    assert not direct or reached[sq]["via_dispatch"] is False
    ab = doc["stages"]["ab"]["result"]
    (left,) = ab["left_out"]
    assert left["benchmark"] == circles and left["cpu_samples"] > 0
    assert (out / left["recording"]).is_file()
    reach = json.loads((out / "reach" / "manifest.json").read_text())
    # the reach round records the baseline alone: one step, no head ref, no head recording
    assert set(reach["refs"]) == {"base"}
    assert [s["side"] for s in reach["steps"]] == ["base"]
    assert not (out / "reach" / "jfr" / "r1-head").exists()
    assert ab["probed"] == [circles]  # the square is reached directly: measured, not probed
    measured = {c["benchmark"] for c in ab["comparisons"]}
    assert measured == ({sq} if direct else set())
    assert "prove: left out of the A/B: " + circles in res.err
    if not direct:
        assert ab["run_dir"] == "" and not (out / "ab").exists()
        assert (
            doc["stages"]["profile"]["reason"]
            == "--reach profile left every benchmark out of the A/B"
        )
    report = (out / "report.md").read_text()
    assert "Left out of the A/B (`--reach profile`)" in report
    assert (
        "The reach round (`--reach profile`) recorded one baseline fork of each of the 1 "
        "benchmark only dynamic dispatch reaches (`reach/`) before the A/B" in report
    )
    assert (
        f"the baseline profile never sampled the changed code: 0 of {left['cpu_samples']}" in report
    )
    assert "reached only through dynamic dispatch at" in report
    (listed,) = [x for x in report.splitlines() if x.startswith(f"- `{circles}`: `")]
    assert listed.endswith("its baseline recording left it out of the A/B (below)")
    assert doc["options"]["reach"] == "profile"  # the default: the command need not say it
    assert "static" not in doc["command"]

"""A small real Maven + JMH project whose change moves the costs `-prof gc` cannot see.

Two commits, tagged ``base`` and ``head``:

- ``Framer.frame`` allocates a 10 KiB direct ``ByteBuffer`` per call on ``base`` and reuses one
  heap buffer on ``head``: direct bytes per operation 10,240 → 0, and the collections the
  direct memory's Cleaner forces go with it (GC time per operation).
- ``Summer.sum`` carries its cold argument checks inline on ``base`` (bytecode past C2's
  ``FreqInlineSize``, so its hot call from ``InlineBench.sum`` is not inlined: "hot method too
  big") and calls them out of line on ``head``, where it inlines.
- ``InlineBench.emptyRange`` sums an empty range: once ``Summer.sum`` inlines (``head``) the JIT
  folds the work away and the benchmark costs what an empty benchmark costs.

Used by ``costs_overhead.py`` (what perfproof's off-heap profiler costs a timing fork) and by
hand, to see ``perfproof prove`` on the whole story (BENCHMARKS.md, "Costs -prof gc cannot see").
"""

from __future__ import annotations

from pathlib import Path

from ttv_project import POM as TTV_POM
from ttv_project import _git

POM = TTV_POM.replace(
    "<groupId>ttv</groupId><artifactId>ttv</artifactId>",
    "<groupId>costs</groupId><artifactId>costs</artifactId>",
)
"""The same Maven + JMH 1.37 build (shaded ``target/benchmarks.jar``) as ``ttv_project.py``'s."""

FRAME_BENCH = """package costs;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameBench {
    private final Framer framer = new Framer();
    private final byte[] payload = new byte[1024];

    @Setup
    public void fill() {
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
    }

    @Benchmark
    public long frame() {
        return framer.frame(payload);
    }
}
"""

INLINE_BENCH = """package costs;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class InlineBench {
    private final int[] values = new int[16];

    @Setup
    public void fill() {
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 7 + 1;
        }
    }

    @Benchmark
    public long sum() {
        return Summer.sum(values, 0, values.length);
    }

    @Benchmark
    public long emptyRange() {
        return Summer.sum(values, 0, 0);
    }
}
"""

FRAMER_BASE = """package costs;

import java.nio.ByteBuffer;

/** A length-prefixed frame of a payload, read back as a checksum. */
public final class Framer {
    public static final int FRAME = 10 * 1024;

    public long frame(byte[] payload) {
        ByteBuffer buf = ByteBuffer.allocateDirect(FRAME);
        buf.putInt(payload.length).put(payload).flip();
        long sum = 0;
        while (buf.remaining() >= Long.BYTES) {
            sum += buf.getLong();
        }
        return sum;
    }
}
"""

FRAMER_HEAD = """package costs;

import java.nio.ByteBuffer;

/** A length-prefixed frame of a payload, read back as a checksum. */
public final class Framer {
    public static final int FRAME = 10 * 1024;

    private final ByteBuffer scratch = ByteBuffer.allocate(FRAME);

    public long frame(byte[] payload) {
        ByteBuffer buf = scratch;
        buf.clear();
        buf.putInt(payload.length).put(payload).flip();
        long sum = 0;
        while (buf.remaining() >= Long.BYTES) {
            sum += buf.getLong();
        }
        return sum;
    }
}
"""

_CHECKS = """        if (values == null) {
            throw new IllegalArgumentException(new StringBuilder("values: null, asked for [")
                .append(from).append(", ").append(to).append(") of nothing; pass an array")
                .toString());
        }
        if (from < 0) {
            throw new IllegalArgumentException(new StringBuilder("from: ").append(from)
                .append(" is negative; the range [").append(from).append(", ").append(to)
                .append(") must start at 0 or later in an array of ").append(values.length)
                .append(" values").toString());
        }
        if (to > values.length) {
            throw new IllegalArgumentException(new StringBuilder("to: ").append(to)
                .append(" is past the end; the range [").append(from).append(", ").append(to)
                .append(") must end at ").append(values.length).append(" or before, the ")
                .append("length of the array").toString());
        }
        if (from > to) {
            throw new IllegalArgumentException(new StringBuilder("from: ").append(from)
                .append(" is after to: ").append(to).append("; the range [").append(from)
                .append(", ").append(to).append(") is reversed in an array of ")
                .append(values.length).append(" values").toString());
        }
        if (to - from > MAX_RANGE) {
            throw new IllegalArgumentException(new StringBuilder("range: [").append(from)
                .append(", ").append(to).append(") holds ").append(to - from)
                .append(" values, more than the ").append(MAX_RANGE).append(" one sum may ")
                .append("add up without overflow; split it").toString());
        }
"""

SUMMER_BASE = (
    """package costs;

/** Sums of int ranges. */
public final class Summer {
    private static final int MAX_RANGE = 1 << 24;

    private Summer() {}

    public static long sum(int[] values, int from, int to) {
"""
    + _CHECKS
    + """        long total = 0;
        for (int i = from; i < to; i++) {
            total += values[i];
        }
        return total;
    }
}
"""
)

SUMMER_HEAD = (
    """package costs;

/** Sums of int ranges. */
public final class Summer {
    private static final int MAX_RANGE = 1 << 24;

    private Summer() {}

    public static long sum(int[] values, int from, int to) {
        if (values == null || from < 0 || to > values.length || from > to) {
            checkRange(values, from, to);
        }
        long total = 0;
        for (int i = from; i < to; i++) {
            total += values[i];
        }
        return total;
    }

    private static void checkRange(int[] values, int from, int to) {
"""
    + _CHECKS
    + """    }
}
"""
)


def write_project(repo: Path) -> Path:
    """Create the repository with commits ``base`` and ``head`` (fixed SHAs: cache-friendly)."""
    src = repo / "src" / "main" / "java" / "costs"
    src.mkdir(parents=True)
    _git(repo, "init", "-q", "--initial-branch=main")
    (repo / ".gitignore").write_text("target/\n")
    (repo / "pom.xml").write_text(POM)
    (src / "FrameBench.java").write_text(FRAME_BENCH)
    (src / "InlineBench.java").write_text(INLINE_BENCH)
    (src / "Framer.java").write_text(FRAMER_BASE)
    (src / "Summer.java").write_text(SUMMER_BASE)
    _git(repo, "add", "--all")
    _git(repo, "commit", "-q", "-m", "Frames and sums with JMH benchmarks")
    _git(repo, "tag", "base")
    (src / "Framer.java").write_text(FRAMER_HEAD)
    (src / "Summer.java").write_text(SUMMER_HEAD)
    _git(repo, "commit", "-q", "-am", "Reuse one heap frame buffer; range checks out of line")
    _git(repo, "tag", "head")
    return repo


if __name__ == "__main__":
    import sys

    print(write_project(Path(sys.argv[1])))

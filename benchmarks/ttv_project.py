"""A small real Maven + JMH project with planted changes, for perfproof's own speed benchmarks.

Two commits, tagged ``base`` and ``head``. Eight keys (benchmark × @Param combination):

- ``Kernels.sumBoxed`` (size 256, 2048): head sums a ``long[]`` instead of a ``List<Long>`` —
  planted, several times faster on both sizes;
- ``Kernels.crc`` (size 256, 2048): identical code on both commits — no change;
- ``Kernels.search`` (size 256, 2048 × hit early, late): head switches to a binary search from
  2048 elements on — planted on the two size=2048 keys only (size 256 runs the same loop, behind
  one added length test), so the keys left undecided after the large effects stop are not one
  cross product of @Param values.

Used by ``time_to_verdict.py`` (adaptive vs fixed design) and ``fork_length.py`` (which fork
length buys the most evidence per minute).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

PLANTED = {
    "Kernels.sumBoxed(size=256)": "planted",
    "Kernels.sumBoxed(size=2048)": "planted",
    "Kernels.crc(size=256)": "identical",
    "Kernels.crc(size=2048)": "identical",
    "Kernels.search(hit=early, size=256)": "touched",
    "Kernels.search(hit=late, size=256)": "touched",
    "Kernels.search(hit=early, size=2048)": "planted",
    "Kernels.search(hit=late, size=2048)": "planted",
}
"""Key label (without the package) → what head did to the code the key runs: ``planted`` (a
large change), ``identical`` (the same code on both commits: the controls), ``touched`` (the
same loop behind one added length test: no planted effect, but the code on the key's path did
change, and runs have measured a real difference of a few per cent, so no verdict is wrong)."""

POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>ttv</groupId><artifactId>ttv</artifactId><version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <jmh.version>1.37</jmh.version>
  </properties>
  <dependencies>
    <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-core</artifactId>
      <version>${jmh.version}</version></dependency>
    <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-generator-annprocess</artifactId>
      <version>${jmh.version}</version><scope>provided</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>
      <version>3.13.0</version>
      <configuration><annotationProcessorPaths><path><groupId>org.openjdk.jmh</groupId>
        <artifactId>jmh-generator-annprocess</artifactId><version>${jmh.version}</version>
      </path></annotationProcessorPaths></configuration></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-shade-plugin</artifactId>
      <version>3.6.0</version>
      <executions><execution><phase>package</phase><goals><goal>shade</goal></goals>
        <configuration><finalName>benchmarks</finalName><transformers>
          <transformer
            implementation="org.apache.maven.plugins.shade.resource.ManifestResourceTransformer">
            <mainClass>org.openjdk.jmh.Main</mainClass></transformer>
          <transformer
            implementation="org.apache.maven.plugins.shade.resource.ServicesResourceTransformer"/>
        </transformers></configuration></execution></executions></plugin>
  </plugins></build>
</project>
"""

BENCH = """package ttv;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Kernels {
    @Param({"256", "2048"})
    int size;

    @State(Scope.Thread)
    public static class Lookup {
        @Param({"early", "late"})
        String hit;
    }

    long[] values;
    List<Long> boxed;
    byte[] bytes;

    @Setup
    public void setup() {
        values = new long[size];
        boxed = new ArrayList<>(size);
        bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            values[i] = 3L * i + 1;
            boxed.add(values[i]);
            bytes[i] = (byte) (i * 31);
        }
    }

    @Benchmark
    public long sumBoxed() {
        return Work.sum(boxed, values);
    }

    @Benchmark
    public long crc() {
        return Work.crc(bytes);
    }

    @Benchmark
    public int search(Lookup lookup) {
        long target = "early".equals(lookup.hit) ? values[size / 8] : values[size - size / 8];
        return Work.indexOf(values, target);
    }
}
"""

WORK_BASE = """package ttv;

import java.util.List;
import java.util.zip.CRC32;

final class Work {
    private Work() {}

    static long sum(List<Long> boxed, long[] values) {
        long total = 0;
        for (Long v : boxed) {
            total += v;
        }
        return total;
    }

    static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        return crc.getValue();
    }

    static int indexOf(long[] sorted, long target) {
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] == target) {
                return i;
            }
        }
        return -1;
    }
}
"""

WORK_HEAD = """package ttv;

import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

final class Work {
    private Work() {}

    static long sum(List<Long> boxed, long[] values) {
        long total = 0;
        for (long v : values) {
            total += v;
        }
        return total;
    }

    static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        return crc.getValue();
    }

    static int indexOf(long[] sorted, long target) {
        if (sorted.length >= 2048) {
            int at = Arrays.binarySearch(sorted, target);
            return at >= 0 ? at : -1;
        }
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] == target) {
                return i;
            }
        }
        return -1;
    }
}
"""

_ENV = {
    "GIT_AUTHOR_NAME": "ttv",
    "GIT_AUTHOR_EMAIL": "ttv@perfproof.invalid",
    "GIT_COMMITTER_NAME": "ttv",
    "GIT_COMMITTER_EMAIL": "ttv@perfproof.invalid",
    "GIT_AUTHOR_DATE": "2026-01-05T10:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-05T10:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                   env={**os.environ, **_ENV}, capture_output=True)  # fmt: skip


def write_project(repo: Path) -> Path:
    """Create the repository with commits ``base`` and ``head`` (fixed SHAs: cache-friendly)."""
    src = repo / "src" / "main" / "java" / "ttv"
    src.mkdir(parents=True)
    _git(repo, "init", "-q", "--initial-branch=main")
    (repo / ".gitignore").write_text("target/\n")
    (repo / "pom.xml").write_text(POM)
    (src / "Kernels.java").write_text(BENCH)
    (src / "Work.java").write_text(WORK_BASE)
    _git(repo, "add", "--all")
    _git(repo, "commit", "-q", "-m", "Kernels with JMH benchmarks")
    _git(repo, "tag", "base")
    (src / "Work.java").write_text(WORK_HEAD)
    _git(repo, "commit", "-q", "-am", "Primitive sum; binary search for large arrays")
    _git(repo, "tag", "head")
    return repo

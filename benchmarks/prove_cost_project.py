"""A small real Maven + JMH project whose change removes an allocation from one benchmark's
4 of 8 ``@Param`` values, for measuring what each stage of ``perfproof prove`` costs.

Two commits, tagged ``base`` and ``head``. ``DigitsBench.write`` has 8 keys (``width`` 16, 32 ×
``value`` 7, 4242, 12345678, 1234567890123). ``Digits.write(long, byte[])`` writes a number's
decimal digits through a scratch ``byte[24]`` on the baseline; the feature writes them straight
into the caller's buffer when it can hold any long (``width`` 32), so the 4 width=32 keys lose
their allocation and run faster, and the 4 width=16 keys run the same code as before.
``DigitsTest`` (JUnit 5) exercises the changed class, so the tests stage has work.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ttv_project

_JUNIT = """    <dependency><groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter-engine</artifactId><version>5.10.0</version><scope>test</scope>
    </dependency>
"""
_SHADE = "    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-shade-plugin"
_SUREFIRE = """    <plugin><groupId>org.apache.maven.plugins</groupId>
      <artifactId>maven-surefire-plugin</artifactId><version>3.2.1</version></plugin>
"""

CHANGED = (
    "DigitsBench.write(value=7, width=32)",
    "DigitsBench.write(value=4242, width=32)",
    "DigitsBench.write(value=12345678, width=32)",
    "DigitsBench.write(value=1234567890123, width=32)",
)
"""The keys whose code the feature changes (allocation gone, faster); the width=16 ones run
the same code on both commits."""

POM = (
    ttv_project.POM.replace("<groupId>ttv</groupId><artifactId>ttv</artifactId>",
                            "<groupId>dg</groupId><artifactId>dg</artifactId>")
    .replace("  </dependencies>", _JUNIT + "  </dependencies>")
    .replace(_SHADE, _SUREFIRE + _SHADE)
)  # fmt: skip
"""``ttv_project``'s build with JUnit 5 and surefire for the tests stage."""

BENCH = """package dg;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DigitsBench {
    @Param({"16", "32"})
    int width;

    @Param({"7", "4242", "12345678", "1234567890123"})
    long value;

    byte[] out;

    @Setup
    public void setup() {
        out = new byte[width];
    }

    @Benchmark
    public int write() {
        return Digits.write(value, out);
    }
}
"""

TEST = """package dg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DigitsTest {
    private static String written(long value, int width) {
        byte[] out = new byte[width];
        int n = Digits.write(value, out);
        return new String(out, 0, n, StandardCharsets.US_ASCII);
    }

    @Test
    void writesTheDigitsIntoASmallBuffer() {
        assertEquals("4242", written(4242, 16));
    }

    @Test
    void writesTheDigitsIntoALargeBuffer() {
        assertEquals("1234567890123", written(1234567890123L, 32));
        assertEquals("0", written(0, 32));
    }
}
"""

_SLOW = """    private static int viaScratch(long value, byte[] out) {
        byte[] scratch = new byte[24];
        int n = 0;
        long v = value;
        do {
            scratch[n++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        for (int i = 0; i < n; i++) {
            out[i] = scratch[n - 1 - i];
        }
        return n;
    }
"""

DIGITS_BASE = f"""package dg;

final class Digits {{
    private Digits() {{}}

    static int write(long value, byte[] out) {{
        return viaScratch(value, out);
    }}

{_SLOW}}}
"""

DIGITS_HEAD = f"""package dg;

final class Digits {{
    private Digits() {{}}

    static int write(long value, byte[] out) {{
        if (out.length < 20) {{
            return viaScratch(value, out);
        }}
        int n = 1;
        for (long v = value / 10; v != 0; v /= 10) {{
            n++;
        }}
        long v = value;
        for (int at = n - 1; at >= 0; at--) {{
            out[at] = (byte) ('0' + v % 10);
            v /= 10;
        }}
        return n;
    }}

{_SLOW}}}
"""


def write_project(repo: Path) -> Path:
    """Create the repository with commits ``base`` and ``head`` (fixed SHAs: cache-friendly)."""
    src = repo / "src" / "main" / "java" / "dg"
    test = repo / "src" / "test" / "java" / "dg"
    src.mkdir(parents=True)
    test.mkdir(parents=True)
    ttv_project._git(repo, "init", "-q", "--initial-branch=main")
    (repo / ".gitignore").write_text("target/\n")
    (repo / "pom.xml").write_text(POM)
    (src / "DigitsBench.java").write_text(BENCH)
    (src / "Digits.java").write_text(DIGITS_BASE)
    (test / "DigitsTest.java").write_text(TEST)
    ttv_project._git(repo, "add", "--all")
    ttv_project._git(repo, "commit", "-q", "-m", "Digits with a JMH benchmark")
    ttv_project._git(repo, "tag", "base")
    (src / "Digits.java").write_text(DIGITS_HEAD)
    ttv_project._git(
        repo, "commit", "-q", "-am", "Digits.write: no scratch array when the buffer holds any long"
    )
    ttv_project._git(repo, "tag", "head")
    return repo

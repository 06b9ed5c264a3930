/*
 * The empty benchmark: what one operation of JMH's own loop costs on this machine and JDK, with
 * nothing in it. A key whose time per operation is within a small factor of this measures the
 * harness, not the code it names (the JIT folded the work away, or it never was there).
 */
package perfproof.floor;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

public class EmptyBench {
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void empty() {
    }
}

package perfdemo.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import perfdemo.ErrorReporter;

/** Reports a batch of 64 error codes, as a request handler does when a batch of calls fails. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ErrorReporterBench {

    private ErrorReporter reporter;
    private short[] codes;
    /** Recent codes a realistic caller keeps around: filled once, before any measurement. */
    private long[] history;

    @Setup
    public void setup() {
        reporter = new ErrorReporter();
        codes = new short[ErrorReporter.COUNT];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = (short) (ErrorReporter.FIRST + (i * 7) % ErrorReporter.COUNT);
        }
        history = new long[1 << 20];
        for (int i = 0; i < history.length; i++) {
            history[i] = codes[i % codes.length];
        }
    }

    @Benchmark
    public void report(Blackhole bh) {
        for (short code : codes) {
            bh.consume(reporter.report(code));
        }
    }
}

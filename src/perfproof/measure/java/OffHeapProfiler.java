/*
 * perfproof's JMH profiler of off-heap bytes per operation (-prof perfproof.offheap.OffHeapProfiler).
 * As an external profiler it adds its own jar as a java agent to every fork (beside the
 * benchmark's own JVM options, which -jvmArgsAppend would replace); as an internal profiler it
 * reads the agent's counters before and after each iteration and divides by the operations
 * the iteration ran, as JMH's GC profiler does for heap bytes:
 *   direct.alloc.norm  bytes reserved for direct buffers per operation
 *   native.alloc.norm  bytes of Unsafe.allocateMemory/reallocateMemory outside direct buffers
 * A fork whose agent could not count reports neither.
 */
package perfproof.offheap;

import java.io.File;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.ExternalProfiler;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

public final class OffHeapProfiler implements InternalProfiler, ExternalProfiler {
    private Method reserved;
    private Method allocated;
    private long reservedBefore;
    private long allocatedBefore;

    public OffHeapProfiler() {
        try {
            Class<?> counters = Class.forName("java.nio.PerfproofOffHeap");
            reserved = counters.getMethod("reservedTotal");
            allocated = counters.getMethod("allocatedTotal");
        } catch (Throwable t) {
            reserved = null;  // the host JVM, or a fork whose agent failed: nothing to count
        }
    }

    @Override
    public String getDescription() {
        return "perfproof: direct-buffer and Unsafe native bytes allocated per operation";
    }

    @Override
    public Collection<String> addJVMInvokeOptions(BenchmarkParams params) {
        return Collections.emptyList();
    }

    @Override
    public Collection<String> addJVMOptions(BenchmarkParams params) {
        try {
            File jar = new File(OffHeapProfiler.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI());
            return Collections.singletonList("-javaagent:" + jar.getAbsolutePath());
        } catch (Exception e) {
            throw new IllegalStateException("perfproof-offheap: cannot find its own jar", e);
        }
    }

    @Override
    public void beforeTrial(BenchmarkParams params) {
    }

    @Override
    public Collection<? extends Result> afterTrial(BenchmarkResult result, long pid, File out,
                                                   File err) {
        return Collections.emptyList();
    }

    @Override
    public boolean allowPrintOut() {
        return true;
    }

    @Override
    public boolean allowPrintErr() {
        return true;
    }

    private static long read(Method counter) throws ReflectiveOperationException {
        return (Long) counter.invoke(null);
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
        if (reserved == null) {
            return;
        }
        try {
            reservedBefore = read(reserved);
            allocatedBefore = read(allocated);
        } catch (ReflectiveOperationException e) {
            reserved = null;
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmark,
                                                       IterationParams iteration,
                                                       IterationResult result) {
        if (reserved == null) {
            return Collections.emptyList();
        }
        try {
            long direct = read(reserved) - reservedBefore;
            long native_ = Math.max(0L, read(allocated) - allocatedBefore - direct);
            long ops = result.getMetadata().getAllOps();
            double per = ops > 0 ? ops : Double.NaN;
            return Arrays.asList(
                new ScalarResult("direct.alloc.norm", direct / per, "B/op", AggregationPolicy.AVG),
                new ScalarResult("native.alloc.norm", native_ / per, "B/op", AggregationPolicy.AVG));
        } catch (ReflectiveOperationException e) {
            return Collections.emptyList();
        }
    }
}

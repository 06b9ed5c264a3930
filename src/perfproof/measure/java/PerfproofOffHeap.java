/*
 * perfproof's off-heap counters. This class is defined inside java.base (package java.nio) at
 * run time by OffHeapAgent, so that java.nio.Bits and jdk.internal.misc.Unsafe, patched to call
 * it, need no extra module reads and the bootstrap class path stays as the JVM had it (appending
 * to it would turn class data sharing off for every other class loader).
 */
package java.nio;

import java.util.concurrent.atomic.LongAdder;

public final class PerfproofOffHeap {
    private static final LongAdder RESERVED = new LongAdder();
    private static final LongAdder ALLOCATED = new LongAdder();

    private PerfproofOffHeap() {}

    /** Called first thing in Bits.reserveMemory(size, cap): the bytes a direct buffer reserves. */
    public static void reserved(long bytes) {
        RESERVED.add(bytes);
    }

    /** Called first thing in Unsafe.allocateMemory/reallocateMemory: the bytes asked for. */
    public static void allocated(long bytes) {
        ALLOCATED.add(bytes);
    }

    public static long reservedTotal() {
        return RESERVED.sum();
    }

    public static long allocatedTotal() {
        return ALLOCATED.sum();
    }
}

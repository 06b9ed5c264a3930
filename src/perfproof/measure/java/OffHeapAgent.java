/*
 * The java agent behind perfproof's off-heap profiler: counts, exactly, the bytes direct
 * buffers reserve (java.nio.Bits.reserveMemory) and the bytes asked
 * of Unsafe.allocateMemory/reallocateMemory. JDK 17 keeps no cumulative count of either
 * (BufferPoolMXBean and jdk.DirectBufferStatistics say what is still outstanding, and the
 * Cleaner frees direct memory whenever a collection gets to it), so the two methods are
 * patched to add their argument to a counter. The profiler reads the counters around every
 * measurement iteration. Anything that goes wrong leaves the JVM as it was and says so on
 * stderr; the profiler then reports nothing rather than zeros.
 */
package perfproof.offheap;

import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import java.util.Set;

public final class OffHeapAgent {
    private OffHeapAgent() {}

    public static void premain(String args, Instrumentation inst) {
        try {
            Module base = Object.class.getModule();
            Module self = OffHeapAgent.class.getModule();
            inst.redefineModule(base, Set.of(),
                Map.of("jdk.internal.org.objectweb.asm", Set.of(self)),
                Map.of("java.nio", Set.of(self)), Set.of(), Map.of());
            byte[] counters;
            try (InputStream in = OffHeapAgent.class.getResourceAsStream("PerfproofOffHeap.bin")) {
                counters = in.readAllBytes();
            }
            Class<?> bits = Class.forName("java.nio.Bits");
            MethodHandles.privateLookupIn(bits, MethodHandles.lookup()).defineClass(counters);
            OffHeapPatch.install(inst, bits, Class.forName("jdk.internal.misc.Unsafe"));
        } catch (Throwable t) {
            System.err.println("perfproof-offheap: not measured: " + t);
        }
    }
}

/*
 * The two patched JDK classes: a call to java.nio.PerfproofOffHeap at the start of
 * Bits.reserveMemory(long size, long cap) with its size, and at the start of
 * Unsafe.allocateMemory(long bytes) and Unsafe.reallocateMemory(long address, long bytes) with
 * their byte count. The JDK's own ASM does the rewriting; the transformer is removed as soon as
 * both classes are done, so no later class load passes through it.
 */
package perfproof.offheap;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;

final class OffHeapPatch implements ClassFileTransformer {
    private static final String COUNTERS = "java/nio/PerfproofOffHeap";
    private static final String BITS = "java/nio/Bits";
    private static final String UNSAFE = "jdk/internal/misc/Unsafe";
    private static final int PATCHES = 3;

    private int patched;
    private Throwable failure;

    static void install(Instrumentation inst, Class<?> bits, Class<?> unsafe) throws Throwable {
        OffHeapPatch patch = new OffHeapPatch();
        inst.addTransformer(patch, true);
        try {
            inst.retransformClasses(bits, unsafe);
        } finally {
            inst.removeTransformer(patch);
        }
        if (patch.failure != null) {
            throw patch.failure;
        }
        if (patch.patched != PATCHES) {
            throw new IllegalStateException("found " + patch.patched + " of the " + PATCHES
                + " JDK methods to count (this JDK allocates off-heap memory another way)");
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (!BITS.equals(name) && !UNSAFE.equals(name)) {
            return null;
        }
        try {
            ClassReader reader = new ClassReader(bytes);
            ClassWriter writer = new ClassWriter(reader, 0);
            reader.accept(new Counting(writer, name), 0);
            return writer.toByteArray();
        } catch (Throwable t) {
            failure = t;
            return null;
        }
    }

    /** The argument slot holding the byte count of a method to count, or -1. */
    private static int slot(String owner, String method, String desc) {
        if (BITS.equals(owner) && method.equals("reserveMemory") && desc.equals("(JJ)V")) {
            return 0;
        }
        if (UNSAFE.equals(owner) && method.equals("allocateMemory") && desc.equals("(J)J")) {
            return 1;
        }
        if (UNSAFE.equals(owner) && method.equals("reallocateMemory") && desc.equals("(JJ)J")) {
            return 3;
        }
        return -1;
    }

    private final class Counting extends ClassVisitor {
        private final String owner;

        Counting(ClassVisitor next, String owner) {
            super(Opcodes.ASM7, next);
            this.owner = owner;
        }

        @Override
        public MethodVisitor visitMethod(int access, String method, String desc, String signature,
                                         String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, method, desc, signature, exceptions);
            int at = slot(owner, method, desc);
            if (at < 0) {
                return next;
            }
            patched++;
            String hook = BITS.equals(owner) ? "reserved" : "allocated";
            return new MethodVisitor(Opcodes.ASM7, next) {
                @Override
                public void visitCode() {
                    super.visitCode();
                    super.visitVarInsn(Opcodes.LLOAD, at);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, COUNTERS, hook, "(J)V", false);
                }

                @Override
                public void visitMaxs(int stack, int locals) {
                    super.visitMaxs(Math.max(stack, 2), locals);
                }
            };
        }
    }
}

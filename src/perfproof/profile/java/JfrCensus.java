import java.io.BufferedWriter;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * Streams JFR recordings and prints compact aggregates for perfproof's census.
 *
 * <p>Parsing happens here, with the JDK's own reader, because only the JDK knows every
 * recording format version; Python then receives one line per distinct stack instead of one
 * JSON object per event, so memory stays bounded by the number of distinct stacks and not by
 * the size of the recording. Stacks are kept whole (as deep as the recording captured them).
 *
 * <p>Output, tab separated, one record a line: {@code R idx path} starts a recording;
 * {@code N id text} defines a string (frame or class name) used by later lines;
 * {@code C samples frames} is a CPU stack; {@code A source bytes events class frames} an
 * allocation stack (source S = ObjectAllocationSample, T = in new TLAB, O = outside TLAB);
 * {@code M key value} a fact about the recording; {@code E idx} ends it. Frames are string ids,
 * root first, comma separated. On a bad input it prints one line
 * {@code perfproof-jfr: KIND: path: detail} on stderr and exits with status 2.
 */
public final class JfrCensus {
    private static final int CACHE_LIMIT = 200_000;

    private final PrintWriter out;
    private final Map<String, Integer> names = new HashMap<>();
    private final Map<RecordedMethod, Integer> methods = new Bounded<>();
    private final Map<RecordedClass, Integer> classes = new Bounded<>();
    private final Map<RecordedStackTrace, Stack> stacks = new Bounded<>();

    private JfrCensus(PrintWriter out) {
        this.out = out;
    }

    /**
     * The reader's objects to their ids, by identity, forgotten all at once past {@link
     * #CACHE_LIMIT} entries: a long recording's readers are not kept alive for the whole
     * stream, and a forgotten one only costs its lookup again (its name keeps its id).
     */
    private static final class Bounded<K, V> extends IdentityHashMap<K, V> {
        @Override
        public V put(K key, V value) {
            if (size() > CACHE_LIMIT) {
                clear();
            }
            return super.put(key, value);
        }
    }

    /** A stack as string ids, root first; equal stacks share one aggregate. */
    private static final class Stack {
        final int[] frames;
        final boolean truncated;
        final int hash;

        Stack(int[] frames, boolean truncated) {
            this.frames = frames;
            this.truncated = truncated;
            this.hash = Arrays.hashCode(frames);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Stack s && s.hash == hash && Arrays.equals(s.frames, frames);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private record AllocKey(Stack stack, int cls, char source) {}

    private static final class Sum {
        long weight;
        long events;
    }

    private int name(String text) {
        Integer id = names.get(text);
        if (id == null) {
            id = names.size();
            names.put(text, id);
            out.print('N');
            out.print('\t');
            out.print(id);
            out.print('\t');
            out.println(text.replace('\t', ' ').replace('\n', ' '));
        }
        return id;
    }

    private int methodId(RecordedMethod m) {
        Integer id = methods.get(m);
        if (id == null) {
            RecordedClass type = m.getType();
            String owner = type == null ? "unknown" : type.getName();
            id = name(owner + "." + m.getName());
            methods.put(m, id);
        }
        return id;
    }

    private int classId(RecordedClass c) {
        if (c == null) {
            return name("unknown");
        }
        Integer id = classes.get(c);
        if (id == null) {
            id = name(c.getName());
            classes.put(c, id);
        }
        return id;
    }

    private Stack stack(RecordedStackTrace trace) {
        Stack s = stacks.get(trace);
        if (s == null) {
            List<RecordedFrame> frames = trace.getFrames();
            int n = frames.size();
            int[] ids = new int[n];
            for (int i = 0; i < n; i++) {
                RecordedFrame f = frames.get(i);
                RecordedMethod m = f.getMethod();
                ids[n - 1 - i] = m == null ? name("unknown") : methodId(m);
            }
            s = new Stack(ids, trace.isTruncated());
            stacks.put(trace, s);
        }
        return s;
    }

    /** One file's aggregates; filled from the events one or two stream passes deliver. */
    private final class Pass {
        final Map<Stack, Sum> cpu = new HashMap<>();
        final Map<AllocKey, Sum> alloc = new HashMap<>();
        long noStack;
        long truncated;
        int maxDepth;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long events;
        long sampled;
        long flushes;
        boolean eventSinceFlush;

        void flush() {
            flushes++;
            eventSinceFlush = false;
        }

        void add(char source, long weight, RecordedEvent e) {
            events++;
            eventSinceFlush = true;
            long t = e.getStartTime().toEpochMilli();
            first = Math.min(first, t);
            last = Math.max(last, t);
            RecordedStackTrace trace = e.getStackTrace();
            if (trace == null) {
                noStack++;
                return;
            }
            Stack s = stack(trace);
            if (s.truncated) {
                truncated++;
            }
            maxDepth = Math.max(maxDepth, s.frames.length);
            Sum sum;
            if (source == 'C') {
                sum = cpu.computeIfAbsent(s, k -> new Sum());
            } else {
                AllocKey key = new AllocKey(s, classId(e.getClass("objectClass")), source);
                sum = alloc.computeIfAbsent(key, k -> new Sum());
            }
            sum.weight += weight;
            sum.events++;
        }
    }

    /** Thrown when a file fails the structural check; the kind is one of the protocol's. */
    private static final class BadRecording extends Exception {
        private static final long serialVersionUID = 1L;

        final String kind;

        BadRecording(String kind, String detail) {
            super(detail);
            this.kind = kind;
        }
    }

    private static final int HEADER = 68;

    /**
     * Checks every chunk header and walks the size-prefixed records inside each chunk.
     *
     * <p>The event stream used for speed stops silently at the first damaged record, which
     * would yield a census of part of the recording; this walk reads only record sizes, so it
     * costs little and turns truncation and damaged framing into an error instead.
     */
    static void validate(Path path) throws IOException, BadRecording {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer head = ByteBuffer.allocate(HEADER);
            long pos = 0;
            int chunk = 0;
            while (pos < size) {
                head.clear();
                int n = ch.read(head, pos);
                head.flip();
                if (n < 4 || head.getInt(0) != 0x464c5200) {
                    if (pos == 0) {
                        throw new BadRecording("NOT_JFR", "no Flight Recorder header");
                    }
                    throw new BadRecording("CORRUPT", "chunk " + chunk + " at byte " + pos + " has no header");
                }
                if (n < HEADER) {
                    throw new BadRecording("TRUNCATED", "file ends inside chunk " + chunk + "'s header");
                }
                int major = head.getShort(4);
                long chunkSize = head.getLong(8);
                long cp = head.getLong(16);
                long meta = head.getLong(24);
                if (major != 1 && major != 2) {
                    throw new BadRecording("CORRUPT", "unsupported format version " + major);
                }
                if (chunkSize == 0) {
                    throw new BadRecording("TRUNCATED", "chunk " + chunk + " was never finished");
                }
                if (chunkSize < HEADER || cp >= chunkSize || meta >= chunkSize || cp < 0 || meta < 0) {
                    throw new BadRecording("CORRUPT", "chunk " + chunk + " has an impossible header");
                }
                if (pos + chunkSize > size) {
                    throw new BadRecording("TRUNCATED", "chunk " + chunk + " needs " + (pos + chunkSize)
                            + " bytes, file has " + size);
                }
                if (major == 2) {
                    walk(ch, pos, chunkSize, chunk);
                }
                pos += chunkSize;
                chunk++;
            }
            if (chunk == 0) {
                throw new BadRecording("NOT_JFR", "empty file");
            }
        }
    }

    private static void walk(FileChannel ch, long start, long chunkSize, int chunk)
            throws IOException, BadRecording {
        ByteBuffer buf = ch.map(FileChannel.MapMode.READ_ONLY, start, chunkSize);
        int p = HEADER;
        int end = (int) chunkSize;
        while (p < end) {
            long value = 0;
            int q = p;
            for (int i = 0; i < 9; i++) {
                if (q >= end) {
                    throw new BadRecording("CORRUPT", "record at byte " + (start + p) + " runs past chunk " + chunk);
                }
                int b = buf.get(q++) & 0xff;
                if (i == 8) {
                    value |= ((long) b) << 56;
                    break;
                }
                value |= ((long) (b & 0x7f)) << (7 * i);
                if (b < 0x80) {
                    break;
                }
            }
            if (value <= 0 || value > end - p) {
                throw new BadRecording("CORRUPT", "record at byte " + (start + p) + " has an impossible size");
            }
            p += (int) value;
        }
    }

    /**
     * Streams one file with a subscription per wanted event type, so the reader skips every
     * other event without decoding it. The sampled allocation event, when present, stands for
     * all allocations; only recordings without it need the second pass over TLAB events.
     */
    private void census(int index, Path path) throws IOException, BadRecording {
        validate(path);
        out.print("R\t" + index + "\t");
        out.println(path.toString().replace('\t', ' ').replace('\n', ' '));
        Pass pass = new Pass();
        try (EventStream es = EventStream.openFile(path)) {
            es.setOrdered(false);
            es.onFlush(pass::flush);
            es.onEvent("jdk.ExecutionSample", e -> pass.add('C', 1, e));
            es.onEvent("jdk.ObjectAllocationSample", e -> {
                pass.sampled++;
                pass.add('S', e.getLong("weight"), e);
            });
            es.start();
        }
        checkComplete(pass);
        if (pass.sampled == 0) {
            try (EventStream es = EventStream.openFile(path)) {
                es.setOrdered(false);
                es.onFlush(pass::flush);
                es.onEvent("jdk.ObjectAllocationInNewTLAB", e -> pass.add('T', e.getLong("tlabSize"), e));
                es.onEvent("jdk.ObjectAllocationOutsideTLAB",
                        e -> pass.add('O', e.getLong("allocationSize"), e));
                es.start();
            }
        }
        checkComplete(pass);
        // constant pools are per chunk and per file: identities from this file mean nothing later
        stacks.clear();
        methods.clear();
        classes.clear();
        for (Map.Entry<Stack, Sum> en : pass.cpu.entrySet()) {
            out.print("C\t");
            out.print(en.getValue().weight);
            out.print('\t');
            frames(en.getKey());
        }
        for (Map.Entry<AllocKey, Sum> en : pass.alloc.entrySet()) {
            AllocKey k = en.getKey();
            out.print("A\t");
            out.print(k.source());
            out.print('\t');
            out.print(en.getValue().weight);
            out.print('\t');
            out.print(en.getValue().events);
            out.print('\t');
            out.print(k.cls());
            out.print('\t');
            frames(k.stack());
        }
        out.println("M\tevents\t" + pass.events);
        out.println("M\tno_stack\t" + pass.noStack);
        out.println("M\ttruncated\t" + pass.truncated);
        out.println("M\tmax_depth\t" + pass.maxDepth);
        if (pass.first != Long.MAX_VALUE) {
            out.println("M\tfirst_ms\t" + pass.first);
            out.println("M\tlast_ms\t" + pass.last);
        }
        out.println("E\t" + index);
    }

    /**
     * A whole recording ends with a flush (its final constant pools); a stream that delivered
     * events after the last flush stopped on damaged data inside a record.
     */
    private static void checkComplete(Pass pass) throws BadRecording {
        if (pass.eventSinceFlush) {
            throw new BadRecording("CORRUPT", "damaged data after " + pass.events + " events");
        }
    }

    private void frames(Stack s) {
        int[] f = s.frames;
        for (int i = 0; i < f.length; i++) {
            if (i > 0) {
                out.print(',');
            }
            out.print(f[i]);
        }
        out.println();
    }

    private static void fail(String kind, Path path, String detail) {
        String line = "perfproof-jfr: " + kind + ": " + path + ": " + detail;
        System.err.println(line.replace('\n', ' '));
        System.exit(2);
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16), false);
        JfrCensus census = new JfrCensus(out);
        for (int i = 0; i < args.length; i++) {
            Path path = Path.of(args[i]);
            try {
                if (!Files.isRegularFile(path)) {
                    fail("MISSING", path, "no such file");
                }
                census.census(i, path);
            } catch (BadRecording ex) {
                out.flush();
                fail(ex.kind, path, ex.getMessage());
            } catch (NoSuchFileException ex) {
                fail("MISSING", path, "no such file");
            } catch (EOFException ex) {
                out.flush();
                fail("TRUNCATED", path, String.valueOf(ex.getMessage()));
            } catch (IOException ex) {
                out.flush();
                String msg = String.valueOf(ex.getMessage());
                if (msg.contains("Not a Flight Recorder file") || msg.contains("magic")) {
                    fail("NOT_JFR", path, msg);
                }
                fail("CORRUPT", path, ex.getClass().getSimpleName() + ": " + msg);
            } catch (RuntimeException | InternalError ex) {
                out.flush();
                fail("CORRUPT", path, ex.getClass().getSimpleName() + ": " + ex.getMessage());
            }
        }
        out.flush();
        if (out.checkError()) {
            System.exit(3);
        }
    }
}

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordingFile;

/**
 * Prints the JIT's own account of the focus classes from JFR recordings: every inlining
 * decision whose caller or callee is in them (jdk.CompilerInlining), the compilations those
 * decisions were part of (every jdk.Compilation: a decision may be streamed before or after
 * its compilation), and the deoptimizations of focus methods (jdk.Deoptimization). The census reads samples; this reads what the
 * compiler did, so perfproof can say "not inlined (hot method too big)" from the recording
 * rather than guess it.
 *
 * <p>Arguments: a comma-separated list of focus classes (qualified or simple, source
 * spelling: a nested class with '.') or packages, then the recordings. Output, tab separated, one record a line:
 * {@code R idx path} starts a recording; {@code I compileId caller callee succeeded message}
 * an inlining decision; {@code C compileId method level osr succeeded codeSize} a compilation;
 * {@code D compileId method line reason action} a deoptimization; {@code E idx} ends it.
 * Methods are {@code pkg.Class.name(descriptor)}. A recording without compiler events is not
 * an error: it simply prints none. On a bad input it prints one line
 * {@code perfproof-jfr: KIND: path: detail} on stderr and exits with status 2.
 */
public final class JfrJit {
    private final PrintWriter out;
    private final Set<String> focus;

    private JfrJit(PrintWriter out, Set<String> focus) {
        this.out = out;
        this.focus = focus;
    }

    private static String owner(RecordedMethod m) {
        RecordedClass type = m == null ? null : m.getType();
        return type == null ? "unknown" : type.getName();
    }

    private static String method(RecordedMethod m) {
        return m == null ? "unknown" : owner(m) + "." + m.getName() + m.getDescriptor();
    }

    /** A callee of an inlining event: a struct of type, name and descriptor, not a Method. */
    private static String callee(RecordedObject c) {
        if (c == null) {
            return "unknown";
        }
        String type = c.getString("type").replace('/', '.');
        return type + "." + c.getString("name") + c.getString("descriptor");
    }

    private boolean inFocus(String qualified) {
        int paren = qualified.indexOf('(');
        String head = paren < 0 ? qualified : qualified.substring(0, paren);
        int dot = head.lastIndexOf('.');
        String cls = (dot < 0 ? head : head.substring(0, dot)).replace('$', '.');
        if (focus.contains(cls) || focus.contains(cls.substring(cls.lastIndexOf('.') + 1))) {
            return true;
        }
        for (String f : focus) {
            if (cls.startsWith(f + ".")) {  // a package, or an enclosing class
                return true;
            }
        }
        return false;
    }

    private static String clean(String text) {
        return text == null ? "" : text.replace('\t', ' ').replace('\n', ' ');
    }

    private void event(RecordedEvent e) {
        String type = e.getEventType().getName();
        switch (type) {
            case "jdk.CompilerInlining" -> {
                String caller = method(e.getValue("caller"));
                String callee = callee(e.getValue("callee"));
                if (inFocus(caller) || inFocus(callee)) {
                    out.println("I\t" + e.getLong("compileId") + "\t" + caller + "\t" + callee + "\t"
                        + e.getBoolean("succeeded") + "\t" + clean(e.getString("message")));
                }
            }
            case "jdk.Compilation" -> {
                // every compilation: its inlining decisions may come later in the stream
                out.println("C\t" + e.getLong("compileId") + "\t" + method(e.getValue("method"))
                    + "\t" + e.getInt("compileLevel") + "\t" + e.getBoolean("isOsr") + "\t"
                    + e.getBoolean("succeded") + "\t" + e.getLong("codeSize"));
            }
            case "jdk.Deoptimization" -> {
                String m = method(e.getValue("method"));
                if (inFocus(m)) {
                    out.println("D\t" + e.getLong("compileId") + "\t" + m + "\t"
                        + e.getInt("lineNumber") + "\t" + clean(e.getString("reason")) + "\t"
                        + clean(e.getString("action")));
                }
            }
            default -> { }
        }
    }

    private static void fail(String kind, Path path, String detail) {
        System.err.println("perfproof-jfr: " + kind + ": " + path + ": " + clean(detail));
        System.exit(2);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: JfrJit FOCUS[,FOCUS...] RECORDING...");
            System.exit(2);
        }
        Set<String> focus = new HashSet<>(Arrays.asList(args[0].split(",")));
        PrintWriter out = new PrintWriter(new BufferedWriter(
            new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16));
        for (int i = 1; i < args.length; i++) {
            Path path = Path.of(args[i]);
            if (!Files.isRegularFile(path)) {
                fail("MISSING", path, "no such file");
            }
            JfrJit reader = new JfrJit(out, focus);
            out.println("R\t" + (i - 1) + "\t" + path);
            try (RecordingFile file = new RecordingFile(path)) {
                while (file.hasMoreEvents()) {
                    reader.event(file.readEvent());
                }
            } catch (IOException | RuntimeException e) {
                out.flush();
                fail("CORRUPT", path, String.valueOf(e.getMessage()));
            }
            out.println("E\t" + (i - 1));
        }
        out.flush();
    }
}

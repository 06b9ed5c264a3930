package perfdemo;

import java.util.Arrays;

/**
 * Keeps the last line written, for the diagnostics page. The buffer grows to the longest line
 * seen and is then reused, so writing allocates nothing once the first lines are in.
 */
public final class Journal {

    /** Level names, built once when the class is first used. */
    private static final String[] LEVELS = levels();

    private char[] buffer = new char[1];
    private int length;

    private static String[] levels() {
        String[] out = new String[4096];
        for (int i = 0; i < out.length; i++) {
            out[i] = "level-" + i;
        }
        return out;
    }

    /** Copies {@code line} into the reused buffer, growing it only when the line is longer. */
    public void write(String line) {
        if (line.length() > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(line.length(), 2 * buffer.length));
        }
        line.getChars(0, line.length(), buffer, 0);
        length = line.length();
    }

    /** Length of the last line written. */
    public int length() {
        return length;
    }

    /** Describes a failed write; called only when the diagnostics page cannot be served. */
    public String failure(int code) {
        return String.format("journal failure %d at %s", code, LEVELS[code & (LEVELS.length - 1)]);
    }
}

package perfdemo;

import java.util.HashMap;
import java.util.Map;

/**
 * Turns the protocol's numeric error codes (1000..1063) into descriptions and counts how often
 * each code was reported, for the metrics endpoint.
 */
public final class ErrorReporter {

    public static final short FIRST = 1000;
    public static final int COUNT = 64;

    private final Map<Short, String> descriptions = new HashMap<>();
    private final Map<Short, Integer> counts = new HashMap<>();

    public ErrorReporter() {
        for (int i = 0; i < COUNT; i++) {
            descriptions.put((short) (FIRST + i), "error " + (FIRST + i));
        }
    }

    /** Counts one occurrence of {@code code} and returns its description. */
    public String report(short code) {
        String text = descriptions.get(code);
        if (text == null) {
            return "unknown error";
        }
        counts.merge(code, 1, Integer::sum);
        return text;
    }

    /** How often {@code code} was reported so far. */
    public int count(short code) {
        return counts.getOrDefault(code, 0);
    }
}

package perfdemo;

/**
 * Turns the protocol's numeric error codes (1000..1063) into descriptions and counts how often
 * each code was reported, for the metrics endpoint.
 */
public final class ErrorReporter {

    public static final short FIRST = 1000;
    public static final int COUNT = 64;

    // The codes are dense, so arrays indexed by (code - FIRST) replace the two maps: no boxed
    // keys or counters, no hashing, no pointer chasing through map nodes.
    private final String[] descriptions = new String[COUNT];
    private final int[] counts = new int[COUNT];

    public ErrorReporter() {
        for (int i = 0; i < COUNT; i++) {
            descriptions[i] = "error " + (FIRST + i);
        }
    }

    /** Counts one occurrence of {@code code} and returns its description. */
    public String report(short code) {
        int index = code - FIRST;
        if (index < 0 || index >= COUNT) {
            return "unknown error";
        }
        counts[index]++;
        return descriptions[index];
    }

    /** How often {@code code} was reported so far. */
    public int count(short code) {
        int index = code - FIRST;
        return index < 0 || index >= COUNT ? 0 : counts[index];
    }
}

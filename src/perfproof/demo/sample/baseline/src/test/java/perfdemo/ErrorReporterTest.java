package perfdemo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ErrorReporterTest {

    @Test
    void describesKnownCodes() {
        ErrorReporter reporter = new ErrorReporter();
        assertEquals("error 1000", reporter.report((short) 1000));
        assertEquals("error 1063", reporter.report((short) 1063));
    }

    @Test
    void unknownCodesAreNotCounted() {
        ErrorReporter reporter = new ErrorReporter();
        assertEquals("unknown error", reporter.report((short) 999));
        assertEquals("unknown error", reporter.report((short) 1064));
        assertEquals(0, reporter.count((short) 999));
    }

    @Test
    void countsEachReport() {
        ErrorReporter reporter = new ErrorReporter();
        reporter.report((short) 1007);
        reporter.report((short) 1007);
        reporter.report((short) 1008);
        assertEquals(2, reporter.count((short) 1007));
        assertEquals(1, reporter.count((short) 1008));
        assertEquals(0, reporter.count((short) 1009));
    }
}

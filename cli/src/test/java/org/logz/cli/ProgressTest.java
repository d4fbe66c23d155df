package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** The hostile review's silences (big06, ex04) and first ETAs far off (eta_misleading). */
@Isolated // replaces System.err
class ProgressTest {
    private static String stderrOf(Runnable work) {
        PrintStream was = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            work.run();
        } finally {
            System.setErr(was);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void silentWorkIsToldToBeWorkingUntilItEnds() {
        String err = stderrOf(() -> {
            try (Progress.Heartbeat beat = Progress.heartbeat("estimate", Duration.ofMillis(300))) {
                sleep(1000);
            }
        });
        long lines = err.lines().filter(l -> l.startsWith("logz: estimate still working, ")).count();
        assertTrue(lines >= 2 && lines <= 4, err);
        String later = stderrOf(() -> sleep(700));
        assertEquals("", later, "no line after the heartbeat is closed");
    }

    /** The first line comes after a second, too early to tell the pace: the fraction without a time left. */
    @Test
    void noTimeLeftBeforeThePaceIsKnown() {
        String err = stderrOf(() -> {
            Progress p = Progress.lines("ais");
            p.progress(0, 1000, Double.NaN, Double.NaN);
            sleep(1100);
            p.progress(1, 1000, Double.NaN, Double.NaN);
            p.close();
        });
        assertEquals("logz: ais 0% done", err.strip());
    }
}

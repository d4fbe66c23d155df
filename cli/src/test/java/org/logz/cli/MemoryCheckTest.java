package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Allocations that scale with the input are counted before they happen (issue 37, R6): the hostile review's
 * {@code Logz.rbm(new float[1][1 << 28], ...)} ended in OutOfMemoryError (the representability check's double per
 * hidden unit, then the mode search's floats per ascent), here at 1/16 of the size in a 384 MiB heap.
 */
@Isolated // a JVM of its own at a small heap, given 120 s to end
class MemoryCheckTest {
    @Test
    void anRbmTooWideForTheHeapIsRefusedNotOutOfMemory() throws Exception {
        Path log = Files.createTempFile("logz-probe", ".txt");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-cp", System.getProperty("java.class.path"), HugeRbmProbe.class.getName(),
                String.valueOf(1 << 24))).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertTrue(ended, "the probe did not end: " + output);
        assertEquals(2, p.exitValue(), output);
        // which check refuses first depends on the JVM's own share of the heap and on the machine: a copy of W, the
        // base rate's Gibbs chains, or the mode search; each names the model and its need
        assertTrue(output.startsWith("refused: ") && output.contains("1×16777216") && output.contains(" needs "), output);
    }
}

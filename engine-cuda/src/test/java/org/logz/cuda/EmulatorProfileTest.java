package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.logz.io.NativeLibraries;
import org.logz.testkit.Emulator;

/**
 * The profile mode's table of known answers: coalesced and stride-2 copies, conflict-free and 32-way shared accesses,
 * a branch half a warp takes. Run in a JVM of its own ({@link EmulatorProfileProbe}): the mode is fixed when the
 * emulator library loads, and this one runs in race and memcheck modes.
 */
class EmulatorProfileTest {
    @Test
    void countsWhatAProfilerWould() throws IOException, InterruptedException {
        Emulator.require();
        Assumptions.assumeTrue(EmulatorProfileTest.class.getResource("/org/logz/cuda/native/" + NativeLibraries.platform()
                + "/liblogz_cuda_emu_profile.so") != null, "the emulator's profile library was not built (kernels-cu "
                + "warned why; see kernels-cu/target/cuda-build/emu_profile.log)");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Dlogz.emulator.checks=profile", EmulatorProfileProbe.class.getName()).redirectErrorStream(true).start();
        // the child's output is small: read after it exits, so that a hung child fails the test instead of hanging it
        boolean exited = p.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(exited, "the probe did not finish in 120 s: " + out);
        assertEquals(0, p.exitValue(), out);
        // kernel, global requests, sectors, fewest sectors, distinct sectors, shared requests, worst way; then blocks
        // and divergent blocks, of which only the divergence is pinned
        List<String> lines = out.lines().filter(l -> l.startsWith("logz_selftest")).toList();
        assertEquals(4, lines.size(), out);
        assertEquals("logz_selftest_strided_copy 16 64 64 64 0 0", head(lines.get(0)), "coalesced: 4 sectors a warp");
        assertEquals("logz_selftest_strided_copy 16 96 64 96 0 0", head(lines.get(1)),
                "stride 2: loads touch 8 sectors for 4 sectors' bytes");
        assertEquals("logz_selftest_banks 1 4 4 4 2 1", head(lines.get(2)), "stride 1: one word per bank");
        assertEquals("logz_selftest_banks 1 4 4 4 2 32", head(lines.get(3)), "stride 32: every lane on bank 0");
        assertEquals("0", field(lines.get(0), 8), "the copy's lanes all take the same branches");
        assertTrue(Long.parseLong(field(lines.get(2), 8)) >= 1, "odd lanes branch: " + lines.get(2));
    }

    private static String head(String line) {
        return String.join(" ", List.of(line.split(" ")).subList(0, 7));
    }

    private static String field(String line, int i) {
        return line.split(" ")[i];
    }
}

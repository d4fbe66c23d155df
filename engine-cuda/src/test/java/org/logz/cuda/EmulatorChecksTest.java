package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.logz.testkit.Emulator;

/**
 * The emulator's check modes inside the JVM: memcheck turns an out-of-bounds or after-release access
 * of device memory into an exception naming kernel, thread, buffer and offset (and the JVM, whose own
 * SIGSEGV handling the fault handler chains to, goes on running); race mode checks shared indices.
 * {@link EmulatorMutationTest} shows both modes catching planted bugs in copies of the real kernels.
 */
class EmulatorChecksTest {
    private static EmulatedDevice device;

    @BeforeAll
    static void load() {
        Emulator.require();
        device = new EmulatedDevice(CudaDevice.GemmPath.BLAS, true);
        EmulatorNative.setChecks(new EmulatorChecks(true, true, false).bits());
    }

    @AfterAll
    static void restore() {
        if (device != null) {
            EmulatorNative.setChecks(EmulatorChecks.configured().bits());
        }
    }

    @Test
    void aWritePastTheEndOfABufferNamesKernelThreadBufferAndOffset() {
        long v = device.allocate(8L * 37);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.launch("logz_fill_f64", 1, 1, 64, 1, 0, KernelArgs.of().ptr(v).i64(38).f64(1.0)));
        String m = e.getMessage();
        assertTrue(m.startsWith("kernel logz_fill_f64, block (0,0,0) thread (37,0,0): write at byte offset 296 of buffer #"),
                m);
        assertTrue(m.endsWith("(296 bytes, kernel argument 0), past its end"), m);
        // the emulator and the JVM go on: the in-bounds launch runs
        device.launch("logz_fill_f64", 1, 1, 64, 1, 0, KernelArgs.of().ptr(v).i64(37).f64(1.0));
        double[] got = new double[37];
        device.get(v, got, 0, 37);
        assertEquals(37.0, java.util.Arrays.stream(got).sum());
        device.free(v);
    }

    @Test
    void anAccessToAReleasedBufferIsReported() {
        long v = device.allocate(8L * 16);
        device.free(v);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.launch("logz_fill_f64", 1, 1, 32, 1, 0, KernelArgs.of().ptr(v).i64(16).f64(1.0)));
        assertTrue(e.getMessage().matches("kernel logz_fill_f64, block \\(0,0,0\\) thread \\(\\d+,0,0\\): write at byte offset "
                + "\\d+ of released buffer #\\d+ \\(128 bytes, kernel argument 0\\), after its release"), e.getMessage());
    }

    @Test
    void aSharedIndexOutsideItsArrayIsReported() {
        long in = device.allocate(4L * 40);
        long out = device.allocate(4L * 40);
        // 40 threads reverse 40 floats through 39 floats of dynamic shared memory
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.launch("logz_selftest_dynamic_shared", 1, 1, 40, 1, 4 * 39, KernelArgs.of().ptr(in).ptr(out)));
        assertTrue(e.getMessage().contains("indexes a shared array of 39 elements at 39"), e.getMessage());
        device.free(in);
        device.free(out);
    }

    @Test
    void theChecksOptionIsParsedStrictly() {
        assertEquals(3, EmulatorChecks.parse("race, memcheck").bits());
        assertEquals(0, EmulatorChecks.parse("none").bits());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EmulatorChecks.parse("racy"));
        assertTrue(e.getMessage().contains("unknown check 'racy'"), e.getMessage());
    }

    @Test
    void aShuffleIsNoMemoryFenceForTheRaceDetector() {
        long out = device.allocate(4L * 32);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.launch("logz_selftest_shuffle_is_no_fence", 1, 1, 32, 1, 0, KernelArgs.of().ptr(out)));
        assertTrue(e.getMessage().contains("shared-memory race") && e.getMessage().contains("thread (1,0,0)"),
                e.getMessage());
        device.free(out);
    }

    @Test
    void aThreadThatExitsBeforeABarrierRunsOnce() {
        long out = device.allocate(4);
        device.zero(out, 4);
        device.launch("logz_selftest_early_exit", 1, 1, 64, 1, 0, KernelArgs.of().ptr(out));
        int[] got = new int[1];
        device.get(out, got, 0, 1);
        assertEquals(64, got[0]);
        device.free(out);
    }
}

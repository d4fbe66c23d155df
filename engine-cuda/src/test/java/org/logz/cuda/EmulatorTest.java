package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.logz.random.PhiloxKnownAnswers;
import org.logz.testkit.Emulator;

/** The host emulation itself: barriers, shuffles, ballots, dynamic shared memory, strict mode, deadlocks. */
class EmulatorTest {
    private static EmulatedDevice device;

    @BeforeAll
    static void load() {
        Emulator.require();
        device = new EmulatedDevice(CudaDevice.GemmPath.BLAS, true);
    }

    @Test
    void everyKernelOfTheSourcesIsRegistered() {
        String list = EmulatorNative.kernels();
        for (String kernel : new String[] {"logz_anneal_weights", "logz_gemm_bernoulli", "logz_weight_summary",
                "logz_chunked_cdf", "logz_gather_rows_f32", "logz_augment"}) {
            assertTrue(list.contains(kernel + ":"), kernel + " missing from " + list);
        }
    }

    @Test
    void blockBarriersAndSharedMemoryGiveBlockSums() {
        long out = device.allocate(4L * 3 * 96);
        device.launch("logz_selftest_block_sum", 3, 1, 96, 1, 0, KernelArgs.of().ptr(out));
        int[] got = new int[3 * 96];
        device.get(out, got, 0, got.length);
        for (int v : got) {
            assertEquals(96 * 97 / 2, v);
        }
        device.free(out);
    }

    @Test
    void theBlockMaximumKeepsEveryBitOfADouble() {
        double[] in = new double[256];
        for (int t = 0; t < in.length; t++) {
            in[t] = 1 + (t * 37 % 256) * 0x1p-40;
        }
        long inPtr = device.allocate(8L * in.length);
        long out = device.allocate(8);
        device.put(inPtr, in, 0, in.length);
        device.launch("logz_selftest_block_max", 1, 1, in.length, 1, 0, KernelArgs.of().ptr(inPtr).ptr(out));
        double[] got = new double[1];
        device.get(out, got, 0, 1);
        assertEquals(1 + 255 * 0x1p-40, got[0], 0.0, "rounded to float on the way?");
        device.free(inPtr);
        device.free(out);
    }

    @Test
    void shufflesAndBallotsExchangeLaneValues() {
        long out = device.allocate(4L * 64);
        long ballot = device.allocate(4);
        device.launch("logz_selftest_shuffle", 1, 1, 64, 1, 0, KernelArgs.of().ptr(out).ptr(ballot));
        int[] got = new int[64];
        device.get(out, got, 0, 64);
        for (int t = 0; t < 64; t++) {
            int warp = t / 32 * 32;
            assertEquals((warp + (t % 32 + 1) % 32) * 10, got[t], "thread " + t);
        }
        int[] bits = new int[1];
        device.get(ballot, bits, 0, 1);
        assertEquals(0xAAAAAAAA, bits[0]);
        device.free(out);
        device.free(ballot);
    }

    @Test
    void dynamicSharedMemoryIsPerBlock() {
        long in = device.allocate(4L * 40);
        long out = device.allocate(4L * 40);
        float[] values = new float[40];
        for (int i = 0; i < 40; i++) {
            values[i] = i;
        }
        device.put(in, values, 0, 40);
        device.launch("logz_selftest_dynamic_shared", 1, 1, 40, 1, 4 * 40, KernelArgs.of().ptr(in).ptr(out));
        float[] got = new float[40];
        device.get(out, got, 0, 40);
        for (int i = 0; i < 40; i++) {
            assertEquals(39 - i, got[i]);
        }
        device.free(in);
        device.free(out);
    }

    @Test
    void strictModeAbortsOnReadsOfInactiveLanes() {
        long out = device.allocate(4L * 32);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.launch("logz_selftest_inactive_read", 1, 1, 32, 1, 0, KernelArgs.of().ptr(out)));
        assertTrue(e.getMessage().contains("inactive lane"), e.getMessage());
        device.free(out);
    }

    @Test
    void aMissedBarrierIsReportedNotHung() {
        long out = device.allocate(4L * 64);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.launch("logz_selftest_deadlock", 1, 1, 64, 1, 0, KernelArgs.of().ptr(out)));
        assertTrue(e.getMessage().contains("deadlock"), e.getMessage());
        // the emulator recovers: the next launch runs normally
        device.launch("logz_selftest_block_sum", 1, 1, 64, 1, 0, KernelArgs.of().ptr(out));
        int[] got = new int[1];
        device.get(out, got, 0, 1);
        assertEquals(64 * 65 / 2, got[0]);
        device.free(out);
    }

    @Test
    void parameterKindsAreCheckedAgainstTheKernelSignature() {
        long out = device.allocate(64);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.launch("logz_fill_f64", 1, 1, 32, 1, 0, KernelArgs.of().ptr(out).i32(8).f64(1.0)));
        assertTrue(e.getMessage().contains("takes parameters of kinds pld"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> device.launch("no_such_kernel", 1, 1, 32, 1, 0, KernelArgs.of()));
        device.free(out);
    }

    @Test
    void philoxMatchesTheKnownAnswers() {
        PhiloxCheck.assertKnownAnswers(device);
    }

    /** Shared with the GPU test. */
    static final class PhiloxCheck {
        /** The Philox kernel against Random123's known answers (engine-api's philox-kat.txt). */
        static void assertKnownAnswers(CudaDevice device) {
            List<PhiloxKnownAnswers.Vector> vectors = PhiloxKnownAnswers.all();
            int[] in = new int[6 * vectors.size()];
            for (int k = 0; k < vectors.size(); k++) {
                System.arraycopy(vectors.get(k).input(), 0, in, 6 * k, 6);
            }
            long inPtr = device.allocate(4L * in.length);
            long outPtr = device.allocate(16L * vectors.size());
            device.put(inPtr, in, 0, in.length);
            device.launch("logz_philox_blocks", 1, 1, 32, 1, 0, KernelArgs.of().ptr(inPtr).i64(vectors.size()).ptr(outPtr));
            int[] out = new int[4 * vectors.size()];
            device.get(outPtr, out, 0, out.length);
            for (int k = 0; k < vectors.size(); k++) {
                int[] got = new int[4];
                System.arraycopy(out, 4 * k, got, 0, 4);
                assertArrayEquals(vectors.get(k).expected(), got, "vector " + k);
            }
            device.free(inPtr);
            device.free(outPtr);
        }
    }
}

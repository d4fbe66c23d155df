package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.testkit.Emulator;

/**
 * The tiled GEMM kernels of rbm_gibbs.cu against a float64 host product, over odd shapes that leave
 * partial tiles in every dimension; and the fused Bernoulli epilogue against the two-step path
 * (SGEMM, then logz_sample_hidden), which must draw the same units except where rounding of the
 * product flips a comparison.
 */
class GemmKernelTest {
    @BeforeAll
    static void emulator() {
        Emulator.require();
    }

    private static float[] random(int n, long seed) {
        float[] v = new float[n];
        int[] words = new int[4];
        for (int i = 0; i < n; i++) {
            Philox.block(seed, i, 0, 0, 55, words);
            v[i] = 2 * Philox.toUniform(words[0]) - 1;
        }
        return v;
    }

    /** Shared with the GPU test. */
    static void checkTiledGemm(CudaDevice device) {
        GibbsKernels kernels = new GibbsKernels(device);
        int[][] shapes = {{37, 70, 19}, {1, 1, 1}, {16, 64, 16}, {65, 129, 33}};
        for (int[] shape : shapes) {
            int rows = shape[0];
            int cols = shape[1];
            int k = shape[2];
            for (boolean transB : new boolean[] {false, true}) {
                float[] a = random(rows * k, 1);
                float[] b = random(k * cols, 2);
                float[] c = random(rows * cols, 3);
                long pa = device.allocate(4L * a.length);
                long pb = device.allocate(4L * b.length);
                long pc = device.allocate(4L * c.length);
                device.put(pa, a, 0, a.length);
                device.put(pb, b, 0, b.length);
                device.put(pc, c, 0, c.length);
                kernels.gemm(rows, cols, k, pa, k, pb, transB ? k : cols, transB, 0.5f, pc, cols);
                float[] got = new float[c.length];
                device.get(pc, got, 0, got.length);
                for (int r = 0; r < rows; r++) {
                    for (int j = 0; j < cols; j++) {
                        double expected = 0.5 * c[r * cols + j];
                        for (int l = 0; l < k; l++) {
                            expected += (double) a[r * k + l] * (transB ? b[j * k + l] : b[l * cols + j]);
                        }
                        assertEquals(expected, got[r * cols + j], 1e-5 + 1e-5 * Math.abs(expected),
                                "shape " + rows + "×" + cols + "×" + k + (transB ? " (Bᵀ)" : "") + " at " + r + "," + j);
                    }
                }
                device.free(pa);
                device.free(pb);
                device.free(pc);
            }
        }
    }

    @Test
    void tiledGemmMatchesTheHostProduct() {
        checkTiledGemm(new EmulatedDevice(CudaDevice.GemmPath.TILED, true));
    }

    @Test
    void fusedEpilogueDrawsWhatTheTwoStepPathDraws() {
        EmulatedDevice device = new EmulatedDevice(CudaDevice.GemmPath.BLAS, true);
        GibbsKernels kernels = new GibbsKernels(device);
        int rows = 130;
        int n = 45;
        int h = 27;
        float[] x = random(rows * n, 4);
        for (int i = 0; i < x.length; i++) {
            x[i] = x[i] > 0 ? 1f : 0f;
        }
        float[] w = random(n * h, 5);
        float[] bias = random(h, 6);
        long px = device.allocate(4L * x.length);
        long pw = device.allocate(4L * w.length);
        long pb = device.allocate(4L * h);
        long pu = device.allocate(4L * rows * h);
        long fused = device.allocate(4L * rows * h);
        long twoStep = device.allocate(4L * rows * h);
        device.put(px, x, 0, x.length);
        device.put(pw, w, 0, w.length);
        device.put(pb, bias, 0, h);
        double[] betas = new double[rows];
        for (int r = 0; r < rows; r++) {
            betas[r] = (r % 5) / 4.0;
        }
        long pbetas = device.allocate(8L * rows);
        device.put(pbetas, betas, 0, rows);
        kernels.gemmBernoulli(rows, h, n, px, n, pw, h, false, pb, 0, 0f, pbetas, fused, h, 11, 3, StreamTag.HIDDEN, 7);
        device.sgemm(false, false, h, rows, n, 1f, pw, h, px, n, 0f, pu, h);
        kernels.sampleHidden(pu, h, rows, pb, 0f, pbetas, twoStep, 11, 3, 7);
        float[] f = new float[rows * h];
        float[] t = new float[rows * h];
        device.get(fused, f, 0, f.length);
        device.get(twoStep, t, 0, t.length);
        int same = 0;
        for (int i = 0; i < f.length; i++) {
            same += f[i] == t[i] ? 1 : 0;
        }
        assertTrue(same >= 0.999 * f.length, same + " of " + f.length + " units agree");
        for (long p : new long[] {px, pw, pb, pu, fused, twoStep, pbetas}) {
            device.free(p);
        }
    }

    @Test
    void productsWithMoreRowTilesThanGridDimYAllowsRunInChunks() {
        EmulatedDevice device = new EmulatedDevice(CudaDevice.GemmPath.TILED, true);
        GibbsKernels kernels = new GibbsKernels(device);
        // a million rows of fibers: the checks would take minutes and find nothing the small shapes do not
        EmulatorNative.setChecks(0);
        int rows = GibbsKernels.CHUNK_ROWS + 21;
        float[] a = new float[rows];
        for (int r = 0; r < rows; r++) {
            a[r] = 1 + r % 1000;
        }
        long pa = device.allocate(4L * rows);
        long pb = device.allocate(4L * 2);
        long pc = device.allocate(4L * rows * 2);
        device.put(pa, a, 0, rows);
        device.put(pb, new float[] {1f, -2f}, 0, 2);
        try {
            kernels.gemm(rows, 2, 1, pa, 1, pb, 2, false, 0f, pc, 2);
        } finally {
            EmulatorNative.setChecks(EmulatorChecks.configured().bits());
        }
        float[] c = new float[2 * rows];
        device.get(pc, c, 0, c.length);
        for (int r : new int[] {0, GibbsKernels.CHUNK_ROWS - 1, GibbsKernels.CHUNK_ROWS, rows - 1}) {
            assertEquals(a[r], c[2 * r], "row " + r);
            assertEquals(-2 * a[r], c[2 * r + 1], "row " + r);
        }
        device.free(pa);
        device.free(pb);
        device.free(pc);
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> device.launch("logz_gemm", 1, 65_536, 16, 16, 0, KernelArgs.of()));
        assertTrue(e.getMessage().contains("kernel logz_gemm: launch shape grid (1, 65536)"), e.getMessage());
    }
}

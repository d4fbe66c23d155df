package org.logz.cuda;

import org.junit.jupiter.api.Test;

/** Known answers of the Philox kernel and the tiled GEMM on a real GPU; skipped without one. */
class GpuKernelTest {
    @Test
    void philoxMatchesTheKnownAnswersOnTheGpu() {
        Gpu.assumePresent();
        try (JCudaDevice device = new JCudaDevice()) {
            EmulatorTest.PhiloxCheck.assertKnownAnswers(device);
        }
    }

    @Test
    void tiledGemmMatchesTheHostProductOnTheGpu() {
        Gpu.assumePresent();
        try (JCudaDevice device = new JCudaDevice()) {
            GemmKernelTest.checkTiledGemm(device);
        }
    }
}

package org.logz.cuda;

import org.junit.jupiter.api.Test;

/** The cross-validation of {@link CrossValidationTest} on a real GPU; skipped without one. */
class GpuCrossValidationTest {
    @Test
    void gpuAgreesWithTheCpuReference() {
        Gpu.assumePresent();
        try (CudaBackend gpu = (CudaBackend) new CudaBackendProvider().create(1)) {
            CrossValidationTest.checkAgainstCpu(gpu);
        }
    }
}

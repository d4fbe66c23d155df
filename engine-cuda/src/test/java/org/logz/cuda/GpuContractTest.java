package org.logz.cuda;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.ParticleBackendContract;

/** The backend contract on a real GPU (cuBLAS when it loads, else the tiled kernels); skipped without one. */
class GpuContractTest extends ParticleBackendContract {
    @Override
    protected ParticleBackend createBackend(int threads) {
        Gpu.assumePresent();
        return new CudaBackendProvider().create(threads);
    }
}

package org.logz.cuda;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.BackendContracts;

/** Every contract on a real GPU (cuBLAS when it loads, else the tiled kernels); skipped, with the reason, without one. */
class GpuContractsTest extends BackendContracts {
    @Override
    protected ParticleBackend createBackend(int threads) {
        Gpu.assumePresent();
        return new CudaBackendProvider().create(threads);
    }
}

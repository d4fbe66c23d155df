package org.logz.cuda;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.KernelProviderContract;
import org.logz.testkit.ParticleBackendContract;
import org.logz.testkit.RbmKernelContract;
import org.logz.testkit.ResamplingContract;

/** The backend core, resampling, RBM kernel and provider contracts on a real GPU (cuBLAS when it loads, else the tiled kernels); skipped without one. */
class GpuContractTest {
    @Nested
    class Core extends ParticleBackendContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            Gpu.assumePresent();
            return new CudaBackendProvider().create(threads);
        }
    }

    @Nested
    class Resampling extends ResamplingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            Gpu.assumePresent();
            return new CudaBackendProvider().create(threads);
        }
    }

    @Nested
    class RbmKernel extends RbmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            Gpu.assumePresent();
            return new CudaBackendProvider().create(threads);
        }
    }

    @Nested
    class Providers extends KernelProviderContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            Gpu.assumePresent();
            return new CudaBackendProvider().create(threads);
        }
    }
}

package org.logz.cuda;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.KernelProviderContract;
import org.logz.testkit.ParticleBackendContract;
import org.logz.testkit.RbmKernelContract;
import org.logz.testkit.ResamplingContract;

/** The backend core, resampling, RBM kernel and provider contracts on the emulated device, products through the host SGEMM (cuBLAS's contract). */
class EmulatedBlasContractTest {
    @Nested
    class Core extends ParticleBackendContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class Resampling extends ResamplingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class RbmKernel extends RbmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class Providers extends KernelProviderContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }
}

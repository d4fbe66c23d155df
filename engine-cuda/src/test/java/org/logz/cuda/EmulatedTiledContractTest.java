package org.logz.cuda;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.RbmKernelContract;

/** The RBM kernel contract on the emulated device with products through the tiled GEMM kernels (the other contracts do not use them). */
class EmulatedTiledContractTest {
    @Nested
    class RbmKernel extends RbmKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.TILED);
        }
    }
}

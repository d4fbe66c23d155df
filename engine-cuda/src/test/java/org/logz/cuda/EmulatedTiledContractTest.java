package org.logz.cuda;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.ParticleBackendContract;

/** The backend contract on the emulated device, products through the tiled GEMM kernels. */
class EmulatedTiledContractTest extends ParticleBackendContract {
    @Override
    protected ParticleBackend createBackend(int threads) {
        return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.TILED);
    }
}

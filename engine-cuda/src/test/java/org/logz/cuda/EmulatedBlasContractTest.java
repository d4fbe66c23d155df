package org.logz.cuda;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.ParticleBackendContract;

/** The backend contract on the emulated device, products through the host SGEMM (cuBLAS's contract). */
class EmulatedBlasContractTest extends ParticleBackendContract {
    @Override
    protected ParticleBackend createBackend(int threads) {
        return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
    }
}

package org.logz.cuda;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.BackendContracts;
import org.logz.testkit.Emulator;

/** Every contract on the emulated device, products through the host SGEMM (cuBLAS's contract). */
class EmulatedBlasContractsTest extends BackendContracts {
    @Override
    protected ParticleBackend createBackend(int threads) {
        Emulator.require();
        return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
    }
}

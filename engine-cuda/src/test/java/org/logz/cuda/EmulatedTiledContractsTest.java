package org.logz.cuda;

import org.logz.backend.ParticleBackend;
import org.logz.testkit.BackendContracts;
import org.logz.testkit.Emulator;

/** Every contract on the emulated device, products through the tiled GEMM kernels that run where cuBLAS does not load. */
class EmulatedTiledContractsTest extends BackendContracts {
    @Override
    protected ParticleBackend createBackend(int threads) {
        Emulator.require();
        return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.TILED);
    }
}

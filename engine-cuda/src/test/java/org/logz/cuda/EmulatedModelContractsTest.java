package org.logz.cuda;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.GaussianToyOpsContract;
import org.logz.testkit.IsingOpsContract;
import org.logz.testkit.TemperingContract;

/**
 * The tempering, Ising and Gaussian toy contracts on the emulated device; tempering runs on both
 * GEMM paths because {@code levels} and the per-chain sweeps go through the products.
 */
class EmulatedModelContractsTest {
    @Nested
    class TemperingBlas extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class TemperingTiled extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.TILED);
        }
    }

    @Nested
    class Ising extends IsingOpsContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class GaussianToy extends GaussianToyOpsContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }
}

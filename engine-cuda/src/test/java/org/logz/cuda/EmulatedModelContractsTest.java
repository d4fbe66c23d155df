package org.logz.cuda;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.GaussianToyKernelContract;
import org.logz.testkit.GpcAnnealingKernelContract;
import org.logz.testkit.GpcKernelContract;
import org.logz.testkit.IsingKernelContract;
import org.logz.testkit.LikelihoodKernelContract;
import org.logz.testkit.SequentialKernelContract;
import org.logz.testkit.TemperedPathContract;
import org.logz.testkit.TemperingContract;

/**
 * The tempering, Ising, Gaussian toy, sequential kernel and tempered path contracts on the emulated device; tempering runs on both
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
    class Ising extends IsingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class GaussianToy extends GaussianToyKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class SequentialBlas extends SequentialKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class SequentialTiled extends SequentialKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.TILED);
        }
    }

    @Nested
    class Path extends TemperedPathContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class Gpc extends GpcKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class GpcAnnealing extends GpcAnnealingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }

    @Nested
    class Likelihood extends LikelihoodKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return EmulatedCudaBackendProvider.emulated(CudaDevice.GemmPath.BLAS);
        }
    }
}

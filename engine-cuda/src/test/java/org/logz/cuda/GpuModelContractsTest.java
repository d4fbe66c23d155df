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

/** The tempering, Ising, Gaussian toy, sequential kernel and tempered path contracts on a real GPU; skipped without one. */
class GpuModelContractsTest {
    private static ParticleBackend gpu() {
        Gpu.assumePresent();
        return new CudaBackendProvider().create(1);
    }

    @Nested
    class Tempering extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class Ising extends IsingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class GaussianToy extends GaussianToyKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class Sequential extends SequentialKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class Path extends TemperedPathContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class Gpc extends GpcKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class GpcAnnealing extends GpcAnnealingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }

    @Nested
    class Likelihood extends LikelihoodKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return gpu();
        }
    }
}

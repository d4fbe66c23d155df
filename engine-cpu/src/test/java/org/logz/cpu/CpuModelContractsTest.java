package org.logz.cpu;

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

/** The tempering, Ising, Gaussian toy, sequential kernel and tempered path contracts on the CPU backend. */
class CpuModelContractsTest {
    @Nested
    class Tempering extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Ising extends IsingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class GaussianToy extends GaussianToyKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Sequential extends SequentialKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Path extends TemperedPathContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Gpc extends GpcKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class GpcAnnealing extends GpcAnnealingKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Likelihood extends LikelihoodKernelContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }
}

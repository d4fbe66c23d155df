package org.logz.cpu;

import org.junit.jupiter.api.Nested;
import org.logz.backend.ParticleBackend;
import org.logz.testkit.GaussianToyOpsContract;
import org.logz.testkit.IsingOpsContract;
import org.logz.testkit.TemperingContract;

/** The tempering, Ising and Gaussian toy contracts on the CPU backend. */
class CpuModelContractsTest {
    @Nested
    class Tempering extends TemperingContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class Ising extends IsingOpsContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }

    @Nested
    class GaussianToy extends GaussianToyOpsContract {
        @Override
        protected ParticleBackend createBackend(int threads) {
            return CpuBackend.create(threads);
        }
    }
}
